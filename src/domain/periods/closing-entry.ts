/**
 * The closing entries of a period, one per currency: for every revenue and expense account
 * (sub-accounts included) with a non-zero net over the period, the opposite side, and the net
 * difference to that currency's retained earnings account. Pure: the caller supplies the period's
 * totals, the accounts and the retained earnings accounts.
 */
import { LedgerError, validationError } from '../errors.js';
import type { LineInput } from '../journal/validate-entry.js';
import type { Account, Period, Totals } from '../types.js';

export interface ClosingDraft {
  entry_date: string;
  description: string;
  lines: LineInput[];
}

/** Checks the retained earnings setting as the close needs it. */
export function assertRetainedEarningsAccount(account: Account | undefined, configuredId: string | undefined,
  field = 'retained_earnings_account_id'): Account {
  if (configuredId === undefined) {
    throw new LedgerError('RETAINED_EARNINGS_NOT_SET', 'No retained earnings account is set', {
      suggestion: 'Set one with PATCH /api/v1/settings {"retained_earnings_account_id": "..."}',
    });
  }
  if (!account || account.account_type !== 'equity' || !account.is_active || account.has_subledger) {
    throw validationError('The retained earnings account must be an active equity account that is not a control account',
      field, 'Choose another account with PATCH /api/v1/settings');
  }
  return account;
}

/** A revenue or expense account with its net (debits − credits) over the period. */
interface ClosingMove {
  account: Account;
  net: bigint;
}

/** The revenue and expense accounts that moved, grouped by currency, each list by account number. */
function closingMovesByCurrency(totals: ReadonlyMap<string, Totals>, accounts: ReadonlyMap<string, Account>): Map<string, ClosingMove[]> {
  const moves = [...totals.entries()]
    .map(([accountId, total]) => ({ account: accounts.get(accountId)!, net: total.debit_total - total.credit_total }))
    .filter(({ account, net }) => (account.account_type === 'revenue' || account.account_type === 'expense') && net !== 0n)
    .sort((a, b) => (a.account.account_number < b.account.account_number ? -1 : 1));
  const byCurrency = new Map<string, ClosingMove[]>();
  for (const move of moves) {
    const list = byCurrency.get(move.account.currency_id);
    if (list) list.push(move);
    else byCurrency.set(move.account.currency_id, [move]);
  }
  return byCurrency;
}

/** The currencies in which some revenue or expense account has a non-zero net over the period. */
export function closingCurrencies(totals: ReadonlyMap<string, Totals>, accounts: ReadonlyMap<string, Account>): string[] {
  return [...closingMovesByCurrency(totals, accounts).keys()];
}

function draftOf(period: Period, moves: readonly ClosingMove[], retainedEarnings: Account): ClosingDraft {
  const lines: LineInput[] = [];
  let netDebits = 0n;
  for (const { account, net } of moves) {
    netDebits += net;
    lines.push(net > 0n
      ? { account_id: account.id, credit_amount: net.toString(), description: 'Close to retained earnings' }
      : { account_id: account.id, debit_amount: (-net).toString(), description: 'Close to retained earnings' });
  }
  if (netDebits !== 0n) {
    // A net debit balance (expenses above revenue) is a loss: it debits retained earnings.
    lines.push(netDebits > 0n
      ? { account_id: retainedEarnings.id, debit_amount: netDebits.toString(), description: 'Net loss for the period' }
      : { account_id: retainedEarnings.id, credit_amount: (-netDebits).toString(), description: 'Net income for the period' });
  }
  return { entry_date: period.end_date, description: `Closing entry for ${period.name}`, lines };
}

/**
 * The closing entry of one currency, the retained earnings account's: `totals` are the period's
 * gross totals per account, `accounts` every account by id; accounts in other currencies are left
 * to their own currency's closing entry. Returns null when no revenue or expense account of that
 * currency moved (nothing to close).
 */
export function computeClosingEntry(
  period: Period,
  totals: ReadonlyMap<string, Totals>,
  accounts: ReadonlyMap<string, Account>,
  retainedEarnings: Account,
): ClosingDraft | null {
  const moves = closingMovesByCurrency(totals, accounts).get(retainedEarnings.currency_id);
  return moves === undefined ? null : draftOf(period, moves, retainedEarnings);
}

/**
 * The closing entries of a period, one per currency with revenue or expense activity, each into
 * the retained earnings account `retainedEarningsOf` names for that currency (the default
 * currency's first, then by currency id). A currency without one refuses the whole close with
 * CURRENCY_MISMATCH, naming the first such account and its currency (`describeCurrency` gives the
 * currency's code for the message).
 */
export function computeClosingEntries(
  period: Period,
  totals: ReadonlyMap<string, Totals>,
  accounts: ReadonlyMap<string, Account>,
  defaultRetainedEarnings: Account,
  retainedEarningsOf: (currencyId: string) => Account | undefined,
  describeCurrency: (currencyId: string) => string = (currencyId) => currencyId,
): { currency_id: string; retained_earnings: Account; draft: ClosingDraft }[] {
  const byCurrency = closingMovesByCurrency(totals, accounts);
  const order = [...byCurrency.keys()].sort((a, b) => {
    if (a === defaultRetainedEarnings.currency_id) return -1;
    if (b === defaultRetainedEarnings.currency_id) return 1;
    return a < b ? -1 : 1;
  });
  return order.map((currencyId) => {
    const moves = byCurrency.get(currencyId)!;
    const retainedEarnings = currencyId === defaultRetainedEarnings.currency_id ? defaultRetainedEarnings : retainedEarningsOf(currencyId);
    if (retainedEarnings === undefined) {
      const code = describeCurrency(currencyId);
      throw new LedgerError('CURRENCY_MISMATCH',
        `Account ${moves[0]!.account.account_number} has ${code} revenue or expense activity, and no retained earnings account is set for ${code}`, {
          field: 'retained_earnings_account_ids',
          suggestion: `Set one with PATCH /api/v1/settings {"retained_earnings_account_ids": {"${currencyId}": "<${code} equity account id>"}} (CLI: ledger settings set retained-earnings-account <id> --currency ${code})`,
        });
    }
    return { currency_id: currencyId, retained_earnings: retainedEarnings, draft: draftOf(period, moves, retainedEarnings) };
  });
}
