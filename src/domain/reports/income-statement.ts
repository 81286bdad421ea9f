/**
 * Income statement in one currency: revenue (credits minus debits) and expenses (debits minus
 * credits) per account, from totals that exclude closing entries, so a closed period still shows
 * its result.
 */
import type { Totals } from '../types.js';
import type { ReportColumn } from './report-columns.js';
import { type ReportInputs, byAccountNumber, hasActivity, money } from './report-inputs.js';

export interface IncomeStatementRow {
  account_id: string;
  account_number: string;
  account_name: string;
  parent_id: string | null;
  amount: string;
  display_amount: string;
  /** On a translated report: the account's currency and its amount in it. */
  currency_id?: string;
  original_amount?: string;
  display_original_amount?: string;
  /** With columns: each column's amount, in column order. */
  column_amounts?: { amount: string; display_amount: string }[];
}

export interface IncomeStatementColumn {
  label: string;
  start_date: string;
  end_date: string;
  total_revenue: string;
  display_total_revenue: string;
  total_expenses: string;
  display_total_expenses: string;
  net_income: string;
  display_net_income: string;
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
  columns?: IncomeStatementColumn[];
  presentation_currency_id?: string;
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

/**
 * The statement of the whole range with the statements of its columns side by side: every row of
 * the whole range gets the amount of each column (zero where the account had no activity in it),
 * and each column its totals. The columns partition the range, so they add up to its figures.
 */
export function withColumns(
  whole: IncomeStatement,
  columns: readonly ReportColumn[],
  columnStatements: readonly IncomeStatement[],
  scale: number,
): IncomeStatement {
  const zero = money(0n, scale);
  const byAccount = columnStatements.map((statement) =>
    new Map([...statement.revenue, ...statement.expenses].map((row) => [row.account_id, row])));
  const amountsOf = (row: IncomeStatementRow) => byAccount.map((rows) => {
    const match = rows.get(row.account_id);
    return match ? { amount: match.amount, display_amount: match.display_amount } : { amount: zero.value, display_amount: zero.display };
  });
  return {
    ...whole,
    revenue: whole.revenue.map((row) => ({ ...row, column_amounts: amountsOf(row) })),
    expenses: whole.expenses.map((row) => ({ ...row, column_amounts: amountsOf(row) })),
    columns: columns.map((column, index) => {
      const statement = columnStatements[index]!;
      return {
        label: column.label, start_date: column.start_date, end_date: column.end_date,
        total_revenue: statement.total_revenue, display_total_revenue: statement.display_total_revenue,
        total_expenses: statement.total_expenses, display_total_expenses: statement.display_total_expenses,
        net_income: statement.net_income, display_net_income: statement.display_net_income,
      };
    }),
  };
}
