/**
 * Trial balance: one row per posting account with activity (gross debit and credit totals of its
 * lines), totals per currency, balanced when debits equal credits in every currency. A row's
 * net_balance is signed as the balance sheet signs it (by the side of the account's type), so a
 * contra account shows negative here, on the balance sheet and in the chart of accounts alike.
 */
import { sectionBalance } from '../accounts/new-account.js';
import type { Totals } from '../types.js';
import { type ReportInputs, byAccountNumber, hasActivity, money } from './report-inputs.js';

export interface TrialBalanceRow {
  account_id: string;
  account_number: string;
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
}

export interface TrialBalanceTotal {
  currency_id: string;
  debit_total: string;
  credit_total: string;
  display_debit_total: string;
  display_credit_total: string;
  is_balanced: boolean;
}

export interface TrialBalance {
  period_id: string | null;
  currency_id: string | null;
  rows: TrialBalanceRow[];
  totals: TrialBalanceTotal[];
  is_balanced: boolean;
}

export function buildTrialBalance(
  inputs: ReportInputs,
  totals: ReadonlyMap<string, Totals>,
  scope: { period_id: string | null; currency_id: string | null },
): TrialBalance {
  const accounts = [...inputs.accounts.values()]
    .filter((account) => hasActivity(totals.get(account.id)))
    .filter((account) => scope.currency_id === null || account.currency_id === scope.currency_id)
    .sort(byAccountNumber);
  const perCurrency = new Map<string, { debits: bigint; credits: bigint }>();
  const rows = accounts.map((account) => {
    const total = totals.get(account.id)!;
    const scale = inputs.scales.get(account.currency_id)!;
    const sum = perCurrency.get(account.currency_id) ?? { debits: 0n, credits: 0n };
    sum.debits += total.debit_total;
    sum.credits += total.credit_total;
    perCurrency.set(account.currency_id, sum);
    const debit = money(total.debit_total, scale);
    const credit = money(total.credit_total, scale);
    const net = money(sectionBalance(account.account_type, total.debit_total, total.credit_total), scale);
    return {
      account_id: account.id, account_number: account.account_number, account_name: account.name,
      account_type: account.account_type, currency_id: account.currency_id, parent_id: account.parent_id,
      debit_total: debit.value, credit_total: credit.value, net_balance: net.value,
      display_debit_total: debit.display, display_credit_total: credit.display, display_net_balance: net.display,
    };
  });
  const currencyTotals = [...perCurrency.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currencyId, sum]) => {
    const scale = inputs.scales.get(currencyId)!;
    const debit = money(sum.debits, scale);
    const credit = money(sum.credits, scale);
    return {
      currency_id: currencyId, debit_total: debit.value, credit_total: credit.value,
      display_debit_total: debit.display, display_credit_total: credit.display, is_balanced: sum.debits === sum.credits,
    };
  });
  return { ...scope, rows, totals: currencyTotals, is_balanced: currencyTotals.every((total) => total.is_balanced) };
}
