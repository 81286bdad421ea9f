/**
 * Income statement in one currency: revenue (credits minus debits) and expenses (debits minus
 * credits) per account, from totals that exclude closing entries, so a closed period still shows
 * its result.
 */
import type { Totals } from '../types.js';
import { type ReportInputs, byAccountNumber, hasActivity, money } from './report-inputs.js';

export interface IncomeStatementRow {
  account_id: string;
  account_number: string;
  account_name: string;
  parent_id: string | null;
  amount: string;
  display_amount: string;
}

export interface IncomeStatement {
  currency_id: string;
  period_id: string | null;
  start_date: string | null;
  end_date: string | null;
  revenue: IncomeStatementRow[];
  expenses: IncomeStatementRow[];
  total_revenue: string;
  total_expenses: string;
  net_income: string;
  display_total_revenue: string;
  display_total_expenses: string;
  display_net_income: string;
}

export function buildIncomeStatement(
  inputs: ReportInputs,
  totalsWithoutClosing: ReadonlyMap<string, Totals>,
  scope: { currency_id: string; period_id: string | null; start_date: string | null; end_date: string | null },
): IncomeStatement {
  const scale = inputs.scales.get(scope.currency_id)!;
  const accounts = [...inputs.accounts.values()]
    .filter((account) => account.currency_id === scope.currency_id && hasActivity(totalsWithoutClosing.get(account.id)))
    .sort(byAccountNumber);
  const rows = (type: 'revenue' | 'expense') => {
    let sum = 0n;
    const list = accounts.filter((account) => account.account_type === type).map((account) => {
      const total = totalsWithoutClosing.get(account.id)!;
      const value = type === 'revenue' ? total.credit_total - total.debit_total : total.debit_total - total.credit_total;
      sum += value;
      const amount = money(value, scale);
      return {
        account_id: account.id, account_number: account.account_number, account_name: account.name,
        parent_id: account.parent_id, amount: amount.value, display_amount: amount.display,
      };
    });
    return { list, sum };
  };
  const revenue = rows('revenue');
  const expenses = rows('expense');
  const totalRevenue = money(revenue.sum, scale);
  const totalExpenses = money(expenses.sum, scale);
  const netIncome = money(revenue.sum - expenses.sum, scale);
  return {
    ...scope,
    revenue: revenue.list,
    expenses: expenses.list,
    total_revenue: totalRevenue.value,
    total_expenses: totalExpenses.value,
    net_income: netIncome.value,
    display_total_revenue: totalRevenue.display,
    display_total_expenses: totalExpenses.display,
    display_net_income: netIncome.display,
  };
}
