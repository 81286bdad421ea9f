/**
 * The closing entry of a period: for every revenue and expense account (sub-accounts included)
 * with a non-zero net over the period, the opposite side, and the net difference to retained
 * earnings. Pure: the caller supplies the period's totals and the accounts.
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
export function assertRetainedEarningsAccount(account: Account | undefined, configuredId: string | undefined): Account {
  if (configuredId === undefined) {
    throw new LedgerError('RETAINED_EARNINGS_NOT_SET', 'No retained earnings account is set', {
      suggestion: 'Set one with PATCH /api/v1/settings {"retained_earnings_account_id": "..."}',
    });
  }
  if (!account || account.account_type !== 'equity' || !account.is_active || account.has_subledger) {
    throw validationError('The retained earnings account must be an active equity account that is not a control account',
      'retained_earnings_account_id', 'Choose another account with PATCH /api/v1/settings');
  }
  return account;
}

/**
 * `totals` are the period's gross totals per account; `accounts` every account by id. Returns
 * null when no revenue or expense account moved (nothing to close).
 */
export function computeClosingEntry(
  period: Period,
  totals: ReadonlyMap<string, Totals>,
  accounts: ReadonlyMap<string, Account>,
  retainedEarnings: Account,
): ClosingDraft | null {
  const lines: LineInput[] = [];
  let netDebits = 0n;
  const closing = [...totals.entries()]
    .map(([accountId, total]) => ({ account: accounts.get(accountId)!, total }))
    .filter(({ account }) => account.account_type === 'revenue' || account.account_type === 'expense')
    .sort((a, b) => (a.account.account_number < b.account.account_number ? -1 : 1));
  for (const { account, total } of closing) {
    const net = total.debit_total - total.credit_total;
    if (net === 0n) continue;
    if (account.currency_id !== retainedEarnings.currency_id) {
      throw new LedgerError('CURRENCY_MISMATCH',
        `Account ${account.account_number} is not in the retained earnings account's currency`, {
          field: 'retained_earnings_account_id',
          suggestion: 'Close needs all income and expense activity in the retained earnings currency',
        });
    }
    netDebits += net;
    lines.push(net > 0n
      ? { account_id: account.id, credit_amount: net.toString(), description: 'Close to retained earnings' }
      : { account_id: account.id, debit_amount: (-net).toString(), description: 'Close to retained earnings' });
  }
  if (lines.length === 0) return null;
  if (netDebits !== 0n) {
    // A net debit balance (expenses above revenue) is a loss: it debits retained earnings.
    lines.push(netDebits > 0n
      ? { account_id: retainedEarnings.id, debit_amount: netDebits.toString(), description: 'Net loss for the period' }
      : { account_id: retainedEarnings.id, credit_amount: (-netDebits).toString(), description: 'Net income for the period' });
  }
  return { entry_date: period.end_date, description: `Closing entry for ${period.name}`, lines };
}
