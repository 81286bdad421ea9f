/**
 * Closing entries equal what the close computes: for every closed period, the pure
 * `computeClosingEntry` is run again over the period's totals from the lines without its closing
 * entry, and its lines must be the stored closing entry's (same accounts, same amounts, any
 * order), dated the period's end. A period that closed with nothing to post must still have
 * nothing to post; an open period has no closing entry.
 *
 * A period closed with activity in several currencies has one closing entry per currency; each is
 * recomputed with its own currency's retained earnings account.
 */
import { closingCurrencies, computeClosingEntry } from '../../domain/periods/closing-entry.js';
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

/**
 * The retained earnings account of one currency's close: the one its stored closing entry credits
 * or debits, when it has one such line (the settings may have changed since the close); otherwise
 * the current setting for that currency (the default's own currency, or the per-currency map).
 */
function retainedEarningsFor(context: CheckContext, currencyId: string, stored: JournalEntryView | undefined): Account | undefined {
  const { books } = context;
  const equityLines = (stored?.lines ?? []).filter((line) => books.accounts.get(line.account_id)?.account_type === 'equity');
  if (equityLines.length === 1) return books.accounts.get(equityLines[0]!.account_id);
  const defaultAccount = books.retainedEarningsId === undefined ? undefined : books.accounts.get(books.retainedEarningsId);
  if (defaultAccount?.currency_id === currencyId) return defaultAccount;
  const perCurrency = books.retainedEarningsIds[currencyId];
  return perCurrency === undefined ? undefined : books.accounts.get(perCurrency);
}

/** One currency's closing entry (or its absence) against what the close computes for that currency. */
function checkCurrencyClose(context: CheckContext, period: Period, currencyId: string, totals: ReadonlyMap<string, Totals>,
  stored: JournalEntryView | undefined): void {
  const { books, report } = context;
  const retainedEarnings = retainedEarningsFor(context, currencyId, stored);
  if (retainedEarnings === undefined) {
    report({ period_id: period.id, currency_id: currencyId,
      message: `The closing entry of period ${period.name} in currency ${currencyId} cannot be recomputed: no retained earnings account is set for it and no closing entry names one` });
    return;
  }
  const draft = computeClosingEntry(period, totals, books.accounts, retainedEarnings);
  if (draft === null) {
    if (stored !== undefined) {
      report({ period_id: period.id, entry_id: stored.id,
        message: `Period ${period.name} has closing entry ${stored.id}, but its revenue and expense accounts net to zero: the close has nothing to post` });
    }
    return;
  }
  const expected = sortedKeys(draft.lines.map((line) => lineKey(String(line.account_id), String(line.debit_amount ?? '0'), String(line.credit_amount ?? '0'))));
  if (stored === undefined) {
    report({ period_id: period.id, currency_id: currencyId,
      message: `Period ${period.name} is closed without a closing entry in currency ${currencyId}, but the close would post ${draft.lines.length} lines` });
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

/**
 * A closed period has at most one closing entry per currency, names one of them (the default
 * currency's) or none, and each currency's entry is what the close computes for that currency.
 */
function checkClosedPeriod(context: CheckContext, period: Period, closing: readonly JournalEntryView[]): void {
  const { books, tally, report } = context;
  if (period.closing_entry_id !== null && !closing.some((entry) => entry.id === period.closing_entry_id)) {
    report({ period_id: period.id, entry_id: period.closing_entry_id,
      message: `Period ${period.name} names closing entry ${period.closing_entry_id}, which is not a closing entry of that period` });
  }
  const storedByCurrency = new Map<string, JournalEntryView>();
  for (const entry of closing) {
    const earlier = storedByCurrency.get(entry.currency_id);
    if (earlier !== undefined) {
      report({ period_id: period.id, entry_id: entry.id, currency_id: entry.currency_id,
        message: `Entry ${entry.id} is a second closing entry of period ${period.name} in currency ${entry.currency_id}, after ${earlier.id}` });
    } else {
      storedByCurrency.set(entry.currency_id, entry);
    }
  }
  const totals = totalsWithoutClosing(tally.period(period.id), closing, books.accounts);
  const currencies = new Set([...closingCurrencies(totals, books.accounts), ...storedByCurrency.keys()]);
  for (const currencyId of [...currencies].sort()) checkCurrencyClose(context, period, currencyId, totals, storedByCurrency.get(currencyId));
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
