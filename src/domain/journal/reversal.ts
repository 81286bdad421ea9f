/** Reversal: a new entry with every debit and credit swapped, so the net effect is zero. */
import { LedgerError } from '../errors.js';
import type { JournalEntry } from '../types.js';
import type { EntryInput } from './validate-entry.js';

export function assertReversible(entry: JournalEntry): void {
  if (entry.entry_type === 'reversal') {
    throw new LedgerError('REVERSAL_NOT_ALLOWED', 'A reversal entry cannot be reversed', {
      suggestion: 'Post a new entry to correct it instead',
    });
  }
  if (entry.entry_type === 'closing') {
    throw new LedgerError('REVERSAL_NOT_ALLOWED', 'A closing entry cannot be reversed; period close is permanent', {
      suggestion: 'Post a correcting entry in an open period',
    });
  }
  if (entry.reversed_by_id !== null) {
    throw new LedgerError('REVERSAL_NOT_ALLOWED', `Entry ${entry.id} was already reversed by ${entry.reversed_by_id}`, {
      suggestion: 'Post a new entry to correct it further',
    });
  }
}

export function buildReversal(entry: JournalEntry, entryDate: string | undefined): EntryInput {
  assertReversible(entry);
  return {
    entry_date: entryDate ?? entry.entry_date,
    description: `Reversal of: ${entry.description}`,
    reference: entry.reference,
    metadata: entry.metadata,
    lines: entry.lines.map((line) => ({
      account_id: line.account_id,
      debit_amount: line.credit_amount.toString(),
      credit_amount: line.debit_amount.toString(),
      description: line.description,
    })),
  };
}
