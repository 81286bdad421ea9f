/** What every report is computed from: the accounts and their gross totals over some scope. */
import { asAmount, formatAmount } from '../money/amount.js';
import type { Account, Totals } from '../types.js';

export interface ReportInputs {
  /** Every account by id. */
  accounts: ReadonlyMap<string, Account>;
  /** asset_scale by currency id. */
  scales: ReadonlyMap<string, number>;
}

/** An amount as the wire carries it: the integer string and its display form. */
export function money(value: bigint, scale: number): { value: string; display: string } {
  const amount = asAmount(value);
  return { value: amount.toString(), display: formatAmount(amount, scale) };
}

export function byAccountNumber(a: Account, b: Account): number {
  return a.account_number < b.account_number ? -1 : a.account_number > b.account_number ? 1 : 0;
}

export function hasActivity(totals: Totals | undefined): totals is Totals {
  return totals !== undefined && (totals.debit_total !== 0n || totals.credit_total !== 0n);
}

export function addTotals(a: Totals | undefined, b: Totals | undefined): Totals {
  const zero = asAmount(0n);
  return {
    debit_total: asAmount((a?.debit_total ?? zero) + (b?.debit_total ?? zero)),
    credit_total: asAmount((a?.credit_total ?? zero) + (b?.credit_total ?? zero)),
  };
}

export function subtractTotals(a: Totals | undefined, b: Totals | undefined): Totals {
  const zero = asAmount(0n);
  return {
    debit_total: asAmount((a?.debit_total ?? zero) - (b?.debit_total ?? zero)),
    credit_total: asAmount((a?.credit_total ?? zero) - (b?.credit_total ?? zero)),
  };
}
