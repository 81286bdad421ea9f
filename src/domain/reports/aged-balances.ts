/**
 * Aged balances of a control account's sub-ledger: aged receivables (a debit-normal control
 * account such as accounts receivable) or aged payables (a credit-normal one). The ledger matches
 * no payment to an invoice, so a sub-account's balance is aged first-in-first-out, as accounting
 * tools do without matching: every movement against the balance's side settles the oldest open
 * items first, so what is still open is made of the newest movements on the balance's side, the
 * oldest of them perhaps only in part. Each open amount goes into a bucket by its days past due on
 * the as-of date: its due date is its entry's `metadata.due_date` when that is a valid date, else
 * the entry date plus the terms (`terms_days`, 30 by default); not yet due (0 days or fewer) is
 * current, then 1-30, 31-60, 61-90 and over 90 days past due.
 * A balance on the other side (a customer's credit, a prepayment to a supplier) is aged the same
 * way from the newest movements on that side and shown as negative amounts, so every sub-account's
 * buckets add up to its balance.
 */
import { addDays, isCalendarDate } from '../dates.js';
import { asAmount } from '../money/amount.js';
import type { Account, NormalBalance } from '../types.js';
import { money } from './report-inputs.js';

export const AGE_BUCKETS = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];
export type BucketAmounts = Record<AgeBucket, bigint>;

/** An amount moved on one day: a line's debit or credit amount with its entry's date and stated due date. */
export interface DatedAmount {
  entry_date: string;
  amount: bigint;
  /** The entry's `metadata.due_date` as stored (anything; used only when it is a valid date). */
  due_date?: unknown;
}

export const DEFAULT_TERMS_DAYS = 30;

/** When an amount falls due: its stated due date if valid, else its date plus the terms. */
export function dueDateOf(movement: DatedAmount, termsDays: number): string {
  if (typeof movement.due_date === 'string' && isCalendarDate(movement.due_date)) return movement.due_date;
  return addDays(movement.entry_date, termsDays);
}

const DAY_MS = 86_400_000;

/** Whole days from `entryDate` (or a due date) to `asOfDate` (both YYYY-MM-DD); 0 on the same day, negative before it. */
export function ageInDays(entryDate: string, asOfDate: string): number {
  return Math.round((Date.parse(`${asOfDate}T00:00:00Z`) - Date.parse(`${entryDate}T00:00:00Z`)) / DAY_MS);
}

export function bucketOf(days: number): AgeBucket {
  if (days <= 0) return 'current';
  if (days <= 30) return 'days_1_30';
  if (days <= 60) return 'days_31_60';
  if (days <= 90) return 'days_61_90';
  return 'days_over_90';
}

export function zeroBuckets(): BucketAmounts {
  return { current: 0n, days_1_30: 0n, days_31_60: 0n, days_61_90: 0n, days_over_90: 0n };
}

/**
 * Spreads an open amount (> 0) over the buckets: the newest movements on its side (newest first)
 * are taken until they cover it, the last one taken only for what is still missing. Movements are
 * given a page at a time (a customer with thousands of open invoices is read in pages, and each
 * page is aged as it arrives, so no one step holds the event loop for all of them). The movements
 * must cover the amount (the balance is their sum less the movements against them); if they do
 * not, the books disagree with their totals and `buckets()` throws.
 */
export class OpenAmountAging {
  private readonly aged = zeroBuckets();
  private missing: bigint;

  constructor(private readonly open: bigint, private readonly asOfDate: string, private readonly termsDays = DEFAULT_TERMS_DAYS) {
    this.missing = open > 0n ? open : 0n;
  }

  get covered(): boolean {
    return this.missing === 0n;
  }

  /** Takes movements (newest first) until the amount is covered; true once it is. */
  take(newestFirst: Iterable<DatedAmount>): boolean {
    if (this.missing === 0n) return true;
    for (const movement of newestFirst) {
      const taken = movement.amount < this.missing ? movement.amount : this.missing;
      this.aged[bucketOf(ageInDays(dueDateOf(movement, this.termsDays), this.asOfDate))] += taken;
      this.missing -= taken;
      if (this.missing === 0n) return true;
    }
    return false;
  }

  buckets(): BucketAmounts {
    if (this.missing > 0n) {
      throw new Error(`the movements do not cover the open amount ${this.open} (${this.missing} missing): totals and lines disagree`);
    }
    return { ...this.aged };
  }
}

/** {@link OpenAmountAging} over movements given all at once. */
export function ageOpenAmount(open: bigint, newestFirst: Iterable<DatedAmount>, asOfDate: string, termsDays = DEFAULT_TERMS_DAYS): BucketAmounts {
  const aging = new OpenAmountAging(open, asOfDate, termsDays);
  aging.take(newestFirst);
  return aging.buckets();
}

/** The side a balance lies on: its account's normal side when positive, else the other. */
export function sideOfBalance(normal: NormalBalance, balance: bigint): NormalBalance {
  if (balance >= 0n) return normal;
  return normal === 'debit' ? 'credit' : 'debit';
}

/** A sub-account's aged balance, signed by the control account's normal side. */
export interface AgedAccount {
  account: Account;
  buckets: BucketAmounts;
}

export type BucketFields = Record<AgeBucket | 'total', string> & Record<`display_${AgeBucket | 'total'}`, string>;

export interface AgedBalanceRow extends BucketFields {
  account_id: string;
  account_number: string;
  account_name: string;
  entity_id: string | null;
}

export interface AgedBalances {
  account_id: string;
  account_number: string;
  account_name: string;
  normal_balance: NormalBalance;
  currency_id: string;
  as_of_date: string;
  terms_days: number;
  rows: AgedBalanceRow[];
  totals: BucketFields;
}

function bucketFields(buckets: BucketAmounts, scale: number): BucketFields {
  const fields: Record<string, string> = {};
  let total = 0n;
  for (const bucket of AGE_BUCKETS) {
    const { value, display } = money(buckets[bucket], scale);
    fields[bucket] = value;
    fields[`display_${bucket}`] = display;
    total += buckets[bucket];
  }
  const { value, display } = money(asAmount(total), scale);
  fields.total = value;
  fields.display_total = display;
  return fields as BucketFields;
}

/** The report: one row per sub-account given (in the order given), and each bucket's total. */
export function buildAgedBalances(control: Account, asOfDate: string, aged: readonly AgedAccount[], scale: number,
  termsDays = DEFAULT_TERMS_DAYS): AgedBalances {
  const totals = zeroBuckets();
  for (const { buckets } of aged) {
    for (const bucket of AGE_BUCKETS) totals[bucket] += buckets[bucket];
  }
  return {
    account_id: control.id,
    account_number: control.account_number,
    account_name: control.name,
    normal_balance: control.normal_balance,
    currency_id: control.currency_id,
    as_of_date: asOfDate,
    terms_days: termsDays,
    rows: aged.map(({ account, buckets }) => ({
      account_id: account.id,
      account_number: account.account_number,
      account_name: account.name,
      entity_id: account.entity_id,
      ...bucketFields(buckets, scale),
    })),
    totals: bucketFields(totals, scale),
  };
}
