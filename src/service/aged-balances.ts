/**
 * Aged balances (aged receivables or payables) of a control account's sub-ledger as of a date, by
 * the first-in-first-out rule of domain/reports/aged-balances.ts. Each sub-account's balance comes
 * from the maintained totals; its open items are the newest lines on the balance's side, read
 * newest first only until they cover the balance, so the work is bounded by the open items, not
 * by the sub-ledger's history.
 */
import { netBalance } from '../domain/accounts/new-account.js';
import { nextDay, parseDate } from '../domain/dates.js';
import { notFound, validationError } from '../domain/errors.js';
import {
  type AgedAccount, type AgedBalances, AGE_BUCKETS, type BucketAmounts, buildAgedBalances, DEFAULT_TERMS_DAYS, OpenAmountAging,
  sideOfBalance,
} from '../domain/reports/aged-balances.js';
import type { NormalBalance } from '../domain/types.js';
import type { AgedBalancesInput } from '../schemas/report.js';
import type { ServiceContext } from './context.js';
import type { Keyset, LedgerReads } from './ports/ledger-store.js';
import { companyNameOf } from './settings.js';
import { TimeSlice } from './time-slice.js';

/**
 * Lines read by the first query; most customers have a handful of open invoices, so one page
 * usually does. Each further page is twice as large, up to the last size, so a customer with
 * thousands of open items costs a few hundred small queries. The last size keeps one page (read
 * and aged without a pause) near the read's time slice: at 1,600 a page held the event loop for
 * about 20 ms, and a post waiting behind two looping reports took 250 ms at p99 (test/load/heavy-reads).
 */
const FIRST_PAGE_SIZE = 50;
const MAX_TERMS_DAYS = 3650;
const LARGEST_PAGE_SIZE = 400;

export async function agedBalances(ctx: ServiceContext, input: AgedBalancesInput): Promise<AgedBalances & { company_name: string | null }> {
  return ctx.store.read(async (reads) => {
    if (input.account_id === undefined) {
      throw validationError('account_id is required: the control account whose sub-ledger is aged', 'account_id',
        'Pass account_id=<id of a control account>, such as accounts receivable or accounts payable');
    }
    const asOf = input.as_of_date === undefined ? ctx.today() : parseDate(input.as_of_date, 'as_of_date');
    const termsDays = input.terms_days ?? DEFAULT_TERMS_DAYS;
    if (!Number.isInteger(termsDays) || termsDays < 0 || termsDays > MAX_TERMS_DAYS) {
      throw validationError(`terms_days must be a whole number of days from 0 to ${MAX_TERMS_DAYS}`, 'terms_days', 'Use e.g. 30 for net 30');
    }
    const control = await reads.getAccount(input.account_id);
    if (!control) throw notFound('Account', input.account_id, 'account_id');
    if (!control.has_subledger) {
      throw validationError(`Account ${control.account_number} ${control.name} is not a control account; only a sub-ledger can be aged`,
        'account_id', 'Pass a control account (has_subledger: true) such as accounts receivable or payable; '
          + 'GET /api/v1/accounts lists each account with has_subledger');
    }
    const subAccounts = await reads.listSubAccounts(control.id);
    const totals = await reads.accountTotals({ account_ids: subAccounts.map((account) => account.id), before_date: nextDay(asOf) });
    const aged: AgedAccount[] = [];
    const slice = new TimeSlice();
    for (const account of subAccounts) {
      await slice.pause();
      const total = totals.get(account.id);
      if (total === undefined) continue;
      const balance = netBalance(control.normal_balance, total.debit_total, total.credit_total);
      if (balance === 0n) continue;
      const open = balance < 0n ? -balance : balance;
      const side = sideOfBalance(control.normal_balance, balance);
      const aging = new OpenAmountAging(open, asOf, termsDays);
      await ageNewestUntilCovered(reads, slice, account.id, side, asOf, aging);
      const buckets = aging.buckets();
      aged.push({ account, buckets: balance < 0n ? negated(buckets) : buckets });
    }
    return { company_name: await companyNameOf(reads),
      ...buildAgedBalances(control, asOf, aged, await ctx.scaleOf(control.currency_id, reads), termsDays) };
  });
}

/** Ages the newest amounts on one side, dated on or before the date, a page at a time until they cover the open amount (or run out). */
async function ageNewestUntilCovered(reads: LedgerReads, slice: TimeSlice, accountId: string, side: NormalBalance, asOf: string,
  aging: OpenAmountAging): Promise<void> {
  let after: Keyset | undefined;
  let limit = FIRST_PAGE_SIZE;
  while (!aging.covered) {
    if (after !== undefined) await slice.pause();
    const page = await reads.listSideAmounts(accountId, side, asOf, { limit, after });
    limit = Math.min(limit * 2, LARGEST_PAGE_SIZE);
    if (aging.take(page.items) || page.next === undefined) return;
    after = page.next;
  }
}

function negated(buckets: BucketAmounts): BucketAmounts {
  const result = { ...buckets };
  for (const bucket of AGE_BUCKETS) result[bucket] = -buckets[bucket];
  return result;
}
