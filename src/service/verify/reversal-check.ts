/**
 * Reversals pair up exactly: a reversal names an original that exists and is a standard entry, the
 * original names it back as its only reversal, and the reversal's lines are the original's with
 * debit and credit swapped (same accounts, same order), with the description, reference and
 * metadata a reversal copies. The original is read by id when its reversal streams past (originals
 * are posted first), so nothing of the entries is kept in memory.
 */
import type { JournalEntryView } from '../../domain/types.js';
import type { CheckDefinition, CheckContext } from './check.js';

function sameMetadata(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function compareLines(reversal: JournalEntryView, original: JournalEntryView, report: CheckContext['report']): void {
  const mismatch = (message: string) => report({ entry_id: reversal.id, message: `Reversal ${reversal.id} of entry ${original.id}: ${message}` });
  if (reversal.lines.length !== original.lines.length) {
    report({ entry_id: reversal.id, message: `Reversal ${reversal.id} has ${reversal.lines.length} lines; the entry it reverses, ${original.id}, has ${original.lines.length}`,
      expected: String(original.lines.length), found: String(reversal.lines.length) });
    return;
  }
  reversal.lines.forEach((line, index) => {
    const source = original.lines[index]!;
    if (line.account_id !== source.account_id) {
      mismatch(`line ${index + 1} posts to account ${line.account_number}, the original's to ${source.account_number}`);
    } else if (line.debit_amount !== source.credit_amount || line.credit_amount !== source.debit_amount) {
      report({ entry_id: reversal.id, account_id: line.account_id,
        message: `Reversal ${reversal.id} of entry ${original.id}: line ${index + 1} (account ${line.account_number}) does not swap the original's sides`,
        expected: `debit ${source.credit_amount}, credit ${source.debit_amount}`, found: `debit ${line.debit_amount}, credit ${line.credit_amount}` });
    } else if (line.description !== source.description) {
      mismatch(`line ${index + 1}'s description differs from the original's`);
    }
  });
}

export const reversalCheck: CheckDefinition = {
  name: 'reversal',
  description: 'every reversal mirrors the entry it reverses, and no entry is reversed twice',
  create: ({ reads, report }) => ({
    async entry(entry) {
      const isReversal = entry.entry_type === 'reversal';
      if (isReversal !== (entry.reverses_id !== null)) {
        report({ entry_id: entry.id, message: isReversal
          ? `Entry ${entry.id} is a reversal but names no entry it reverses`
          : `Entry ${entry.id} is a ${entry.entry_type} entry but names entry ${entry.reverses_id} as the one it reverses` });
      }
      if (entry.reverses_id === null) return;
      const original = await reads.getEntry(entry.reverses_id);
      if (original === undefined) {
        report({ entry_id: entry.id, message: `Reversal ${entry.id} reverses entry ${entry.reverses_id}, which does not exist` });
        return;
      }
      if (original.entry_type !== 'standard') {
        report({ entry_id: entry.id, message: `Reversal ${entry.id} reverses entry ${original.id}, a ${original.entry_type} entry; only standard entries are reversed` });
      }
      if (original.reversed_by_id !== entry.id) {
        report({ entry_id: original.id, message: `Entry ${original.id} is reversed by more than one entry (${entry.id} and ${original.reversed_by_id})` });
      }
      if (original.posted_at > entry.posted_at) {
        report({ entry_id: entry.id, message: `Reversal ${entry.id} was posted at ${entry.posted_at}, before the entry it reverses (${original.posted_at})` });
      }
      if (entry.currency_id !== original.currency_id) {
        report({ entry_id: entry.id, currency_id: entry.currency_id, message: `Reversal ${entry.id} is in another currency than the entry it reverses, ${original.id}`,
          expected: original.currency_id, found: entry.currency_id });
      }
      if (entry.description !== `Reversal of: ${original.description}` || entry.reference !== original.reference
        || !sameMetadata(entry.metadata, original.metadata)) {
        report({ entry_id: entry.id, message: `Reversal ${entry.id} does not carry the description, reference and metadata of entry ${original.id}` });
      }
      compareLines(entry, original, report);
    },
  }),
};
