/**
 * Balance sheet in one currency at a date. Asset balances are debits minus credits, liability and
 * equity balances credits minus debits (so a contra account shows negative in its section).
 * Revenue minus expenses not yet closed into retained earnings appears in equity as
 * "Current earnings" (account_id null), so a consistent ledger always balances.
 */
import { sectionBalance } from '../accounts/new-account.js';
import type { AccountType, Totals } from '../types.js';
import { type ReportInputs, byAccountNumber, hasActivity, money } from './report-inputs.js';

export interface BalanceSheetRow {
  account_id: string | null;
  account_number: string | null;
  account_name: string;
  parent_id: string | null;
  balance: string;
  display_balance: string;
  /** On a translated report: the account's currency and its balance in it. */
  currency_id?: string;
  original_amount?: string;
  display_original_amount?: string;
}

export interface BalanceSheetSection {
  accounts: BalanceSheetRow[];
  total: string;
  display_total: string;
}

export interface BalanceSheet {
  currency_id: string;
  as_of_date: string | null;
  period_id: string | null;
  assets: BalanceSheetSection;
  liabilities: BalanceSheetSection;
  equity: BalanceSheetSection;
  total_assets: string;
  total_liabilities_and_equity: string;
  display_total_assets: string;
  display_total_liabilities_and_equity: string;
  is_balanced: boolean;
  presentation_currency_id?: string;
}

export const CURRENT_EARNINGS_NAME = 'Current earnings';

export function buildBalanceSheet(
  inputs: ReportInputs,
  totals: ReadonlyMap<string, Totals>,
  scope: { currency_id: string; as_of_date: string | null; period_id: string | null },
): BalanceSheet {
  const scale = inputs.scales.get(scope.currency_id)!;
  const accounts = [...inputs.accounts.values()]
    .filter((account) => account.currency_id === scope.currency_id && hasActivity(totals.get(account.id)))
    .sort(byAccountNumber);
  const section = (type: AccountType, extra: { name: string; value: bigint } | null) => {
    let sum = 0n;
    const rows: BalanceSheetRow[] = accounts.filter((account) => account.account_type === type).map((account) => {
      const total = totals.get(account.id)!;
      const value = sectionBalance(account.account_type, total.debit_total, total.credit_total);
      sum += value;
      const amount = money(value, scale);
      return {
        account_id: account.id, account_number: account.account_number, account_name: account.name,
        parent_id: account.parent_id, balance: amount.value, display_balance: amount.display,
      };
    });
    if (extra) {
      sum += extra.value;
      const amount = money(extra.value, scale);
      rows.push({ account_id: null, account_number: null, account_name: extra.name, parent_id: null,
        balance: amount.value, display_balance: amount.display });
    }
    const total = money(sum, scale);
    return { section: { accounts: rows, total: total.value, display_total: total.display }, sum };
  };
  let currentEarnings = 0n;
  for (const account of accounts) {
    const total = totals.get(account.id)!;
    if (account.account_type === 'revenue') currentEarnings += total.credit_total - total.debit_total;
    if (account.account_type === 'expense') currentEarnings -= total.debit_total - total.credit_total;
  }
  const assets = section('asset', null);
  const liabilities = section('liability', null);
  const equity = section('equity', { name: CURRENT_EARNINGS_NAME, value: currentEarnings });
  const totalAssets = money(assets.sum, scale);
  const totalLiabilitiesAndEquity = money(liabilities.sum + equity.sum, scale);
  return {
    ...scope,
    assets: assets.section,
    liabilities: liabilities.section,
    equity: equity.section,
    total_assets: totalAssets.value,
    total_liabilities_and_equity: totalLiabilitiesAndEquity.value,
    display_total_assets: totalAssets.display,
    display_total_liabilities_and_equity: totalLiabilitiesAndEquity.display,
    is_balanced: assets.sum === liabilities.sum + equity.sum,
  };
}
