/**
 * Closing entries equal what the close computes: for every closed period, the pure
 * `computeClosingEntry` is run again over the period's totals from the lines without its closing
 * entry, and its lines must be the stored closing entry's (same accounts, same amounts, any
 * order), dated the period's end. A period that closed with nothing to post must still have
 * nothing to post; an open period has no closing entry.
 *
 * The retained earnings account is the one the stored closing entry credits or debits, when it
 * has such a line (the setting may have changed since the close); otherwise the current setting.
 */
import { isLedgerError } from '../../domain/errors.js';
import { computeClosingEntry } from '../../domain/periods/closing-entry.js';
import { asAmount } from '../../domain/money/amount.js';
import type { Account, JournalEntryView, Period, Totals } from '../../domain/types.js';
import type { CheckContext, CheckDefinition } from './check.js';
import { addSums, type SumsByAccount } from './line-tally.js';

type LineKey = string;

function lineKey(accountId: string, debit: bigint | string, credit: bigint | string): LineKey {
  return `${accountId} ${debit} ${credit}`;
}

function sortedKeys(keys: LineKey[]): string {
  return [...keys].sort().join('\n');
}

/** The period's totals from the lines of its entries other than its closing entries. */
function totalsWithoutClosing(periodTotals: SumsByAccount, closing: readonly JournalEntryView[], accounts: ReadonlyMap<string, Account>): Map<string, Totals> {
  const adjusted: SumsByAccount = new Map();
  for (const [accountId, sums] of periodTotals) addSums(adjusted, accountId, sums.debits, sums.credits);
  for (const entry of closing) {
    for (const line of entry.lines) addSums(adjusted, line.account_id, -line.debit_amount, -line.credit_amount);
  }
  const totals = new Map<string, Totals>();
  for (const [accountId, sums] of adjusted) {
    // Only known accounts: a line to a missing account is the entry_currency check's to report.
    if (accounts.has(accountId)) totals.set(accountId, { debit_total: asAmount(sums.debits), credit_total: asAmount(sums.credits) });
  }
  return totals;
}

function retainedEarningsFor(context: CheckContext, stored: JournalEntryView | undefined): Account | undefined {
  const { books } = context;
  const equityLines = (stored?.lines ?? []).filter((line) => books.accounts.get(line.account_id)?.account_type === 'equity');
  if (equityLines.length === 1) return books.accounts.get(equityLines[0]!.account_id);
  return books.retainedEarningsId === undefined ? undefined : books.accounts.get(books.retainedEarningsId);
}

function checkClosedPeriod(context: CheckContext, period: Period, closing: readonly JournalEntryView[]): void {
  const { books, tally, report } = context;
  const stored = closing.find((entry) => entry.id === period.closing_entry_id);
  if (period.closing_entry_id !== null && stored === undefined) {
    report({ period_id: period.id, entry_id: period.closing_entry_id,
      message: `Period ${period.name} names closing entry ${period.closing_entry_id}, which is not a closing entry of that period` });
  }
  for (const entry of closing) {
    if (entry.id !== period.closing_entry_id) {
      report({ period_id: period.id, entry_id: entry.id, message: `Entry ${entry.id} is a closing entry of period ${period.name}, which names ${period.closing_entry_id ?? 'no closing entry'}` });
    }
  }
  const retainedEarnings = retainedEarningsFor(context, stored);
  if (retainedEarnings === undefined) {
    report({ period_id: period.id, message: `The closing entry of period ${period.name} cannot be recomputed: no retained earnings account is set and the closing entry names none` });
    return;
  }
  let draft: ReturnType<typeof computeClosingEntry>;
  try {
    draft = computeClosingEntry(period, totalsWithoutClosing(tally.period(period.id), closing, books.accounts), books.accounts, retainedEarnings);
  } catch (error) {
    if (!isLedgerError(error)) throw error;
    report({ period_id: period.id, message: `The close of period ${period.name} cannot be recomputed: ${error.message}` });
    return;
  }
  if (draft === null) {
    if (stored !== undefined) {
      report({ period_id: period.id, entry_id: stored.id,
        message: `Period ${period.name} has closing entry ${stored.id}, but its revenue and expense accounts net to zero: the close has nothing to post` });
    }
    return;
  }
  const expected = sortedKeys(draft.lines.map((line) => lineKey(String(line.account_id), String(line.debit_amount ?? '0'), String(line.credit_amount ?? '0'))));
  if (stored === undefined) {
    report({ period_id: period.id, message: `Period ${period.name} is closed without a closing entry, but the close would post ${draft.lines.length} lines` });
    return;
  }
  const found = sortedKeys(stored.lines.map((line) => lineKey(line.account_id, line.debit_amount, line.credit_amount)));
  if (found !== expected) {
    report({ period_id: period.id, entry_id: stored.id,
      message: `Closing entry ${stored.id} of period ${period.name} differs from what the close computes from the period's lines`,
      expected: expected.replaceAll('\n', '; '), found: found.replaceAll('\n', '; ') });
  }
  if (stored.entry_date !== period.end_date) {
    report({ period_id: period.id, entry_id: stored.id, message: `Closing entry ${stored.id} is dated ${stored.entry_date}, not its period's end`,
      expected: period.end_date, found: stored.entry_date });
  }
}

export const closingEntryCheck: CheckDefinition = {
  name: 'closing_entry',
  description: 'every closed period\'s closing entry is what the close computes from the period\'s lines',
  create: (context) => {
    // Closing entries are few (one per closed period and currency), so they are kept.
    const closingByPeriod = new Map<string, JournalEntryView[]>();
    return {
      entry(entry) {
        if (entry.entry_type !== 'closing') return;
        const list = closingByPeriod.get(entry.period_id);
        if (list) list.push(entry);
        else closingByPeriod.set(entry.period_id, [entry]);
      },
      finish() {
        for (const period of context.books.periods) {
          const closing = closingByPeriod.get(period.id) ?? [];
          if (period.status === 'closed') {
            checkClosedPeriod(context, period, closing);
          } else {
            for (const entry of closing) {
              context.report({ period_id: period.id, entry_id: entry.id, message: `Entry ${entry.id} is a closing entry of period ${period.name}, which is open` });
            }
          }
        }
      },
    };
  },
};
