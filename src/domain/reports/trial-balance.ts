/**
 * Trial balance: one row per posting account with activity (gross debit and credit totals of its
 * lines, and the net put in a debit-balance or a credit-balance column), totals per currency,
 * balanced when debits equal credits in every currency. It shows either balances (all time, or
 * through a date) or the movement of a period or date range; `basis` and `label` say which. A
 * row's net_balance is signed as the balance sheet signs it (by the side of the account's type),
 * so a contra account shows negative here, on the balance sheet and in the chart of accounts alike.
 */
import { sectionBalance } from '../accounts/new-account.js';
import type { Totals } from '../types.js';
import { type ReportInputs, byAccountNumber, hasActivity, money } from './report-inputs.js';

export interface TrialBalanceRow {
  /** null only on a translated report's "Exchange differences on translation" row. */
  account_id: string | null;
  account_number: string | null;
  account_name: string;
  account_type: string;
  currency_id: string;
  parent_id: string | null;
  debit_total: string;
  credit_total: string;
  net_balance: string;
  display_debit_total: string;
  display_credit_total: string;
  display_net_balance: string;
  /** The net of the account's lines when it is on the debit side, else 0. */
  debit_balance: string;
  /** The net of the account's lines when it is on the credit side, else 0. */
  credit_balance: string;
  display_debit_balance: string;
  display_credit_balance: string;
  /** On a translated report: the row's net balance in its account's currency. */
  original_amount?: string;
  display_original_amount?: string;
}

export interface TrialBalanceTotal {
  currency_id: string;
  debit_total: string;
  credit_total: string;
  display_debit_total: string;
  display_credit_total: string;
  is_balanced: boolean;
  debit_balance: string;
  credit_balance: string;
  display_debit_balance: string;
  display_credit_balance: string;
}

export type TrialBalanceBasis = 'balance' | 'movement';

/** What a trial balance covers: all time, through as_of_date, one period, or a start..end range (either end open). */
export interface TrialBalanceScope {
  period_id: string | null;
  currency_id: string | null;
  as_of_date?: string | null;
  start_date?: string | null;
  end_date?: string | null;
  /** The period's name, for the label. */
  period_name?: string | null;
}

export interface TrialBalance {
  period_id: string | null;
  currency_id: string | null;
  as_of_date: string | null;
  start_date: string | null;
  end_date: string | null;
  basis: TrialBalanceBasis;
  label: string;
  rows: TrialBalanceRow[];
  totals: TrialBalanceTotal[];
  is_balanced: boolean;
  /** On a translated report: the currency every figure is shown in. */
  presentation_currency_id?: string;
}

export function buildTrialBalance(
  inputs: ReportInputs,
  totals: ReadonlyMap<string, Totals>,
  scope: TrialBalanceScope,
): TrialBalance {
  const accounts = [...inputs.accounts.values()]
    .filter((account) => hasActivity(totals.get(account.id)))
    .filter((account) => scope.currency_id === null || account.currency_id === scope.currency_id)
    .sort(byAccountNumber);
  const perCurrency = new Map<string, { debits: bigint; credits: bigint; debitBalances: bigint; creditBalances: bigint }>();
  const rows = accounts.map((account) => {
    const total = totals.get(account.id)!;
    const scale = inputs.scales.get(account.currency_id)!;
    const sum = perCurrency.get(account.currency_id) ?? { debits: 0n, credits: 0n, debitBalances: 0n, creditBalances: 0n };
    const debitSide = total.debit_total - total.credit_total;
    sum.debits += total.debit_total;
    sum.credits += total.credit_total;
    if (debitSide > 0n) sum.debitBalances += debitSide;
    else sum.creditBalances -= debitSide;
    perCurrency.set(account.currency_id, sum);
    const debit = money(total.debit_total, scale);
    const credit = money(total.credit_total, scale);
    const net = money(sectionBalance(account.account_type, total.debit_total, total.credit_total), scale);
    const debitBalance = money(debitSide > 0n ? debitSide : 0n, scale);
    const creditBalance = money(debitSide < 0n ? -debitSide : 0n, scale);
    return {
      account_id: account.id, account_number: account.account_number, account_name: account.name,
      account_type: account.account_type, currency_id: account.currency_id, parent_id: account.parent_id,
      debit_total: debit.value, credit_total: credit.value, net_balance: net.value,
      display_debit_total: debit.display, display_credit_total: credit.display, display_net_balance: net.display,
      debit_balance: debitBalance.value, credit_balance: creditBalance.value,
      display_debit_balance: debitBalance.display, display_credit_balance: creditBalance.display,
    };
  });
  const currencyTotals = [...perCurrency.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currencyId, sum]) => {
    const scale = inputs.scales.get(currencyId)!;
    const debit = money(sum.debits, scale);
    const credit = money(sum.credits, scale);
    const debitBalances = money(sum.debitBalances, scale);
    const creditBalances = money(sum.creditBalances, scale);
    return {
      currency_id: currencyId, debit_total: debit.value, credit_total: credit.value,
      display_debit_total: debit.display, display_credit_total: credit.display, is_balanced: sum.debits === sum.credits,
      debit_balance: debitBalances.value, credit_balance: creditBalances.value,
      display_debit_balance: debitBalances.display, display_credit_balance: creditBalances.display,
    };
  });
  return {
    ...describeScope(scope), rows, totals: currencyTotals, is_balanced: currencyTotals.every((total) => total.is_balanced),
  };
}

/**
 * A period or a start/end range shows the movement within it (so a reader never takes it for
 * balances); nothing or as_of_date shows cumulative balances.
 */
function describeScope(scope: TrialBalanceScope): Pick<TrialBalance,
  'period_id' | 'currency_id' | 'as_of_date' | 'start_date' | 'end_date' | 'basis' | 'label'> {
  const start = scope.start_date ?? null;
  const end = scope.end_date ?? null;
  const fields = {
    period_id: scope.period_id, currency_id: scope.currency_id, as_of_date: scope.as_of_date ?? null, start_date: start, end_date: end,
  };
  if (scope.period_id === null && start === null && end === null) {
    return { ...fields, basis: 'balance',
      label: scope.as_of_date ? `Balances as of ${scope.as_of_date}` : 'Balances, all time' };
  }
  const name = scope.period_id !== null && scope.period_name ? ` of ${scope.period_name}` : '';
  return { ...fields, basis: 'movement',
    label: `Movement${name} from ${start ?? 'the beginning'} to ${end ?? 'today'} (activity in the range, not balances)` };
}
