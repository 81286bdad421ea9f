/**
 * The four reports. Each reads maintained per-account totals (all time, per period, per day) and
 * never scans journal lines, except the general ledger, which pages through one account's index.
 */
import { netBalance } from '../domain/accounts/new-account.js';
import { FIRST_DATE, LAST_DATE, nextDay, parseDate } from '../domain/dates.js';
import { notFound, validationError } from '../domain/errors.js';
import { formatAmount } from '../domain/money/amount.js';
import { buildBalanceSheet, type BalanceSheet } from '../domain/reports/balance-sheet.js';
import { buildIncomeStatement, type IncomeStatement, withColumns } from '../domain/reports/income-statement.js';
import { MAX_REPORT_COLUMNS, type ReportColumn, splitIntoColumns } from '../domain/reports/report-columns.js';
import { addTotals, type ReportInputs, subtractTotals } from '../domain/reports/report-inputs.js';
import { buildTrialBalance, type TrialBalance } from '../domain/reports/trial-balance.js';
import type { Account, Period, Totals } from '../domain/types.js';
import type {
  BalanceSheetInput, GeneralLedgerInput, GeneralLedgerView, IncomeStatementInput, TrialBalanceInput,
} from '../schemas/report.js';
import { lineScopeOf, postingAccountIds, sumTotals } from './accounts.js';
import type { ServiceContext } from './context.js';
import type { DateRange, Keyset, LedgerReads } from './ports/ledger-store.js';
import { companyNameOf, RETAINED_EARNINGS_KEY } from './settings.js';
import { presentationCurrency, TRANSLATION_DIFFERENCE_ID, Translator } from './translation.js';

/** What every report carries besides its figures: the company it is about. */
export interface CompanyNamed {
  company_name: string | null;
}
import { accountLineView } from './views.js';

/** Every account, and the scale of every currency (a report currency may have no accounts yet). */
async function reportInputs(reads: LedgerReads): Promise<ReportInputs> {
  const accounts = await reads.allAccounts();
  const scales = new Map<string, number>();
  let page = await reads.listCurrencies({ limit: 200 });
  for (;;) {
    for (const currency of page.items) scales.set(currency.id, currency.asset_scale);
    if (page.next === undefined) break;
    page = await reads.listCurrencies({ limit: 200, after: page.next });
  }
  return { accounts: new Map(accounts.map((account) => [account.id, account])), scales };
}

async function periodOf(reads: LedgerReads, id: string | undefined): Promise<Period | undefined> {
  if (id === undefined) return undefined;
  const period = await reads.getPeriod(id);
  if (!period) throw notFound('Period', id, 'period_id');
  return period;
}

/**
 * A report in one currency uses the one asked for, else the retained earnings account's, else the
 * only currency with posted lines (a currency whose accounts never moved does not count); with
 * several and no choice it asks for currency_id. A ledger with no posted line at all falls back to
 * the only currency that has accounts, or the only currency, so an empty report still answers.
 */
async function reportCurrency(reads: LedgerReads, inputs: ReportInputs, requested: string | undefined): Promise<string> {
  if (requested !== undefined) {
    if (!inputs.scales.has(requested)) throw notFound('Currency', requested, 'currency_id');
    return requested;
  }
  const retainedEarningsId = await reads.getSetting(RETAINED_EARNINGS_KEY);
  const retainedEarnings = retainedEarningsId === undefined ? undefined : inputs.accounts.get(retainedEarningsId);
  if (retainedEarnings) return retainedEarnings.currency_id;
  const posted = [...(await reads.allCurrencyDebitTotals()).keys()];
  const withAccounts = new Set([...inputs.accounts.values()].map((account) => account.currency_id));
  let candidates = posted;
  if (candidates.length === 0) candidates = withAccounts.size > 0 ? [...withAccounts] : [...inputs.scales.keys()];
  if (candidates.length === 1) return candidates[0]!;
  throw validationError('The ledger has several currencies (or none); choose one', 'currency_id',
    'Pass currency_id; reports never add amounts of different currencies');
}

/**
 * Balances (all time, or through as_of_date) or the movement of a period or a start/end range, in
 * all currencies or one.
 */
export async function trialBalance(ctx: ServiceContext, input: TrialBalanceInput): Promise<CompanyNamed & TrialBalance> {
  return ctx.store.read(async (reads) => {
    if (input.as_of_date !== undefined && (input.period_id !== undefined || input.start_date !== undefined || input.end_date !== undefined)) {
      throw validationError('Give either as_of_date (balances) or period_id / start_date / end_date (movement), not both', 'as_of_date');
    }
    const asOf = input.as_of_date === undefined ? undefined : parseDate(input.as_of_date, 'as_of_date');
    const range = await reportRange(reads, input);
    const inputs = await reportInputs(reads);
    if (input.currency_id !== undefined && !inputs.scales.has(input.currency_id)) {
      throw notFound('Currency', input.currency_id, 'currency_id');
    }
    let totals: ReadonlyMap<string, Totals>;
    if (range.period !== undefined) totals = await reads.accountTotals({ period_id: range.period.id });
    else if (asOf !== undefined) totals = await reads.accountTotals({ before_date: nextDay(asOf) });
    else totals = await rangeTotals(reads, range);
    const scope = {
      period_id: range.period?.id ?? null, period_name: range.period?.name ?? null, currency_id: input.currency_id ?? null,
      as_of_date: asOf ?? null, start_date: range.start_date ?? null, end_date: range.end_date ?? null,
    };
    const base = await presentationCurrency(reads, input.presentation_currency_id, input.currency_id);
    if (base !== undefined) {
      const balances = range.start_date === undefined && range.end_date === undefined;
      const end = balances ? asOf : range.end_date;
      const translator = await Translator.open(reads, inputs, base, end ?? LAST_DATE);
      const translated = await translator.translate({
        totals, rateDate: end ?? ctx.today(), flows: { start_date: range.start_date, end_date: end }, withClosing: true,
      });
      const report = buildTrialBalance(translator.baseInputs(), withDifference(translated), scope);
      const rows = report.rows.map((row) => (row.account_id === TRANSLATION_DIFFERENCE_ID
        ? { ...row, account_id: null, account_number: null }
        : { ...row, currency_id: inputs.accounts.get(row.account_id!)!.currency_id, ...translator.originalOf(row.account_id!, totals.get(row.account_id!)) }));
      return { company_name: await companyNameOf(reads), ...report, presentation_currency_id: base, rows };
    }
    const report = buildTrialBalance(inputs, totals, scope);
    return { company_name: await companyNameOf(reads), ...report };
  });
}

/** Gross totals per account of entries dated in the range (either end may be open). */
async function rangeTotals(reads: LedgerReads, range: DateRange): Promise<ReadonlyMap<string, Totals>> {
  if (range.start_date === undefined && range.end_date === undefined) return reads.accountTotals({});
  return reads.accountTotals({ between: { start_date: range.start_date ?? FIRST_DATE, end_date: range.end_date ?? LAST_DATE } });
}

export async function balanceSheet(ctx: ServiceContext, input: BalanceSheetInput): Promise<CompanyNamed & BalanceSheet> {
  return ctx.store.read(async (reads) => {
    if (input.period_id !== undefined && input.as_of_date !== undefined) {
      throw validationError('Give either as_of_date or period_id, not both', 'as_of_date');
    }
    const asOf = input.as_of_date === undefined ? undefined : parseDate(input.as_of_date, 'as_of_date');
    const period = await periodOf(reads, input.period_id);
    const through = asOf ?? period?.end_date;
    const inputs = await reportInputs(reads);
    const base = await presentationCurrency(reads, input.presentation_currency_id, input.currency_id);
    const currencyId = base ?? await reportCurrency(reads, inputs, input.currency_id);
    const totals = await reads.accountTotals(through === undefined ? {} : { before_date: nextDay(through) });
    const scope = { currency_id: currencyId, as_of_date: through ?? null, period_id: period?.id ?? null };
    if (base !== undefined) {
      const translator = await Translator.open(reads, inputs, base, through ?? LAST_DATE);
      const translated = await translator.translate({
        totals, rateDate: through ?? ctx.today(), flows: { start_date: undefined, end_date: through }, withClosing: true,
      });
      const report = buildBalanceSheet(translator.baseInputs(), withDifference(translated), scope);
      const decorate = (section: BalanceSheet['assets']): BalanceSheet['assets'] => ({
        ...section,
        accounts: section.accounts.map((row) => {
          if (row.account_id === TRANSLATION_DIFFERENCE_ID) return { ...row, account_id: null, account_number: null };
          if (row.account_id === null) return row;
          return { ...row, currency_id: inputs.accounts.get(row.account_id)!.currency_id, ...translator.originalOf(row.account_id, totals.get(row.account_id)) };
        }),
      });
      return {
        company_name: await companyNameOf(reads), ...report, presentation_currency_id: base,
        assets: decorate(report.assets), liabilities: decorate(report.liabilities), equity: decorate(report.equity),
      };
    }
    const report = buildBalanceSheet(inputs, totals, scope);
    return { company_name: await companyNameOf(reads), ...report };
  });
}

/**
 * Revenue and expenses of a period, of a date range (inclusive), or of all time, without closing
 * entries; optionally with month or quarter columns. A range is read from the totals of the periods
 * and days inside it, so it needs no line scan.
 */
export async function incomeStatement(ctx: ServiceContext, input: IncomeStatementInput): Promise<CompanyNamed & IncomeStatement> {
  return ctx.store.read(async (reads) => {
    const range = await reportRange(reads, input);
    const inputs = await reportInputs(reads);
    const base = await presentationCurrency(reads, input.presentation_currency_id, input.currency_id);
    const currencyId = base ?? await reportCurrency(reads, inputs, input.currency_id);
    const columns = input.columns === undefined ? undefined : reportColumns(range, input.columns);
    const scope = {
      currency_id: currencyId, period_id: range.period?.id ?? null,
      start_date: range.start_date ?? null, end_date: range.end_date ?? null,
    };
    const company_name = await companyNameOf(reads);
    if (base !== undefined) return { company_name, ...await translatedIncomeStatement(ctx, reads, inputs, base, range, columns, scope) };
    if (columns === undefined) return { company_name, ...buildIncomeStatement(inputs, await incomeTotals(reads, range), scope) };
    const perColumn = await columnTotalsOf(reads, columns);
    // The columns cover the range day for day, so the whole is their sum, not another read.
    const whole = buildIncomeStatement(inputs, sumOfColumns(perColumn), scope);
    const statements = perColumn.map((columnTotal, index) => buildIncomeStatement(inputs, columnTotal,
      { ...scope, period_id: null, start_date: columns[index]!.start_date, end_date: columns[index]!.end_date }));
    return { company_name, ...withColumns(whole, columns, statements, inputs.scales.get(currencyId)!) };
  });
}

/** Revenue and expense totals of a period or range, without closing entries. */
async function incomeTotals(reads: LedgerReads, range: DateRange & { period?: Period | undefined }): Promise<Map<string, Totals>> {
  const totals = range.period !== undefined
    ? await reads.accountTotals({ period_id: range.period.id })
    : await rangeTotals(reads, range);
  const closing = await reads.closingTotals(range.period !== undefined
    ? { period_id: range.period.id } : { range: { start_date: range.start_date, end_date: range.end_date } });
  return withoutClosing(totals, closing);
}

/** Translated totals with the translation difference that balances them (none when they balance already). */
function withDifference(translated: Map<string, Totals>): Map<string, Totals> {
  const difference = Translator.differenceTotals(translated);
  if (difference.debit_total !== 0n || difference.credit_total !== 0n) translated.set(TRANSLATION_DIFFERENCE_ID, difference);
  return translated;
}

/**
 * The income statement in the base currency: each account's revenue or expense at the rate of each
 * day it moved, rounded once per row; with columns, each column translated so, and the whole the
 * sum of the columns (so every figure is the sum of what it is made of).
 */
async function translatedIncomeStatement(ctx: ServiceContext, reads: LedgerReads, inputs: ReportInputs, base: string,
  range: DateRange & { period?: Period | undefined }, columns: ReportColumn[] | undefined,
  scope: { currency_id: string; period_id: string | null; start_date: string | null; end_date: string | null }): Promise<IncomeStatement> {
  const flowsOnly = (totals: ReadonlyMap<string, Totals>) => new Map([...totals].filter(([id]) => {
    const type = inputs.accounts.get(id)?.account_type;
    return type === 'revenue' || type === 'expense';
  }));
  const original = flowsOnly(await incomeTotals(reads, range));
  const translator = await Translator.open(reads, inputs, base, range.end_date ?? LAST_DATE);
  const translate = (totals: Map<string, Totals>, start: string | undefined, end: string | undefined) => translator.translate({
    totals, rateDate: end ?? ctx.today(), flows: { start_date: start, end_date: end }, withClosing: false,
  });
  const baseInputs = translator.baseInputs();
  const decorate = (statement: IncomeStatement): IncomeStatement => {
    const rows = (list: IncomeStatement['revenue']) => list.map((row) => ({
      ...row, currency_id: inputs.accounts.get(row.account_id)!.currency_id, ...translator.originalOf(row.account_id, original.get(row.account_id)),
    }));
    return { ...statement, presentation_currency_id: base, revenue: rows(statement.revenue), expenses: rows(statement.expenses) };
  };
  if (columns === undefined) {
    return decorate(buildIncomeStatement(baseInputs, await translate(original, range.start_date, range.end_date), scope));
  }
  const perColumn: Map<string, Totals>[] = [];
  for (const [index, columnTotals] of (await columnTotalsOf(reads, columns)).entries()) {
    perColumn.push(await translate(flowsOnly(columnTotals), columns[index]!.start_date, columns[index]!.end_date));
  }
  const whole = buildIncomeStatement(baseInputs, sumOfColumns(perColumn), scope);
  const statements = perColumn.map((columnTotal, index) => buildIncomeStatement(baseInputs, columnTotal,
    { ...scope, period_id: null, start_date: columns[index]!.start_date, end_date: columns[index]!.end_date }));
  return decorate(withColumns(whole, columns, statements, inputs.scales.get(base)!));
}

function withoutClosing(totals: ReadonlyMap<string, Totals>, closing: ReadonlyMap<string, Totals>): Map<string, Totals> {
  const result = new Map<string, Totals>();
  for (const [accountId, total] of totals) result.set(accountId, subtractTotals(total, closing.get(accountId)));
  return result;
}

function sumOfColumns(columns: readonly ReadonlyMap<string, Totals>[]): Map<string, Totals> {
  const sum = new Map<string, Totals>();
  for (const column of columns) {
    for (const [accountId, totals] of column) sum.set(accountId, addTotals(sum.get(accountId), totals));
  }
  return sum;
}

/** Columns need both ends of the range (a period has them) and a bounded count. */
function reportColumns(range: DateRange, interval: 'month' | 'quarter'): ReportColumn[] {
  if (range.start_date === undefined || range.end_date === undefined) {
    throw validationError('columns need a bounded range: give start_date and end_date, or period_id', 'columns',
      'For a year to date by month: start_date=2026-01-01&end_date=<today>&columns=month');
  }
  const columns = splitIntoColumns(range.start_date, range.end_date, interval);
  if (columns.length > MAX_REPORT_COLUMNS) {
    throw validationError(`At most ${MAX_REPORT_COLUMNS} columns; this range has ${columns.length}`, 'columns',
      'Choose a shorter range or quarter columns');
  }
  return columns;
}

/** Each column's totals without closing entries: the periods and days inside it, less its closing entries. */
async function columnTotalsOf(reads: LedgerReads, columns: readonly ReportColumn[]): Promise<Map<string, Totals>[]> {
  const result: Map<string, Totals>[] = [];
  for (const column of columns) {
    const range = { start_date: column.start_date, end_date: column.end_date };
    const movement = await reads.accountTotals({ between: range });
    result.push(withoutClosing(movement, await reads.closingTotals({ range })));
  }
  return result;
}

/** A period, or inclusive start/end dates (either may be open), never both. */
async function reportRange(reads: LedgerReads, input: { period_id?: string | undefined; start_date?: string | undefined; end_date?: string | undefined }): Promise<DateRange & { period?: Period | undefined }> {
  if (input.period_id !== undefined && (input.start_date !== undefined || input.end_date !== undefined)) {
    throw validationError('Give either period_id or start_date/end_date, not both', 'period_id');
  }
  const period = await periodOf(reads, input.period_id);
  if (period) return { period, start_date: period.start_date, end_date: period.end_date };
  const start = input.start_date === undefined ? undefined : parseDate(input.start_date, 'start_date');
  const end = input.end_date === undefined ? undefined : parseDate(input.end_date, 'end_date');
  if (start !== undefined && end !== undefined && start > end) {
    throw validationError('end_date must be on or after start_date', 'end_date');
  }
  return { start_date: start, end_date: end };
}

/**
 * The general ledger of an account (a control account includes all its sub-accounts' lines). The
 * cursor carries the running balance, so every page continues exactly where the last one ended
 * without re-reading earlier lines.
 */
export async function generalLedger(ctx: ServiceContext, input: GeneralLedgerInput): Promise<GeneralLedgerView> {
  return ctx.store.read(async (reads) => {
    if (input.account_id === undefined) {
      throw validationError('account_id is required for the general ledger', 'account_id', 'Pass account_id=<account id>');
    }
    const account = await reads.getAccount(input.account_id);
    if (!account) throw notFound('Account', input.account_id, 'account_id');
    const { period: _period, ...range } = await reportRange(reads, input);
    const sort = input.sort ?? 'asc';
    const list = `general-ledger:${account.id}:${range.start_date ?? ''}:${range.end_date ?? ''}:${sort}`;
    const request = ctx.pageRequest(list, input);
    const ids = await postingAccountIds(reads, account);
    const [starting, ending] = await Promise.all([
      range.start_date === undefined ? 0n : balanceBefore(reads, account, ids, range.start_date),
      range.end_date === undefined ? balanceBefore(reads, account, ids, undefined) : balanceBefore(reads, account, ids, nextDay(range.end_date)),
    ]);
    const after = request.after?.slice(0, 2);
    let running = request.after === undefined ? (sort === 'asc' ? starting : ending) : BigInt(String(request.after[2]));
    const page = await reads.listAccountLines(lineScopeOf(account), range, sort, { limit: request.limit, after });
    const scale = await ctx.scaleOf(account.currency_id, reads);
    const lines = page.items.map((line) => {
      const effect = netBalance(account.normal_balance, line.debit_amount, line.credit_amount);
      // Ascending, the balance after a line adds its effect; descending, the balance after the
      // line is the running figure and the next (older) line starts from the balance before it.
      let after: bigint;
      if (sort === 'asc') {
        running += effect;
        after = running;
      } else {
        after = running;
        running -= effect;
      }
      return {
        ...accountLineView(line, scale),
        running_balance: after.toString(),
        display_running_balance: formatAmount(after, scale),
      };
    });
    const next: Keyset | undefined = page.next === undefined ? undefined : [...page.next, running.toString()];
    return {
      company_name: await companyNameOf(reads),
      account_id: account.id,
      account_number: account.account_number,
      account_name: account.name,
      normal_balance: account.normal_balance,
      currency_id: account.currency_id,
      start_date: range.start_date ?? null,
      end_date: range.end_date ?? null,
      sort,
      starting_balance: starting.toString(),
      ending_balance: ending.toString(),
      display_starting_balance: formatAmount(starting, scale),
      display_ending_balance: formatAmount(ending, scale),
      lines,
      has_more: next !== undefined,
      next_cursor: next === undefined ? null : ctx.cursors.encode(list, next),
    };
  });
}

/** Net balance (by the account's normal side) of entries dated before `date`, or of all time. */
async function balanceBefore(reads: LedgerReads, account: Account, ids: string[], date: string | undefined): Promise<bigint> {
  const totals = await reads.accountTotals({ account_ids: ids, before_date: date });
  const { debits, credits } = sumTotals(totals.values());
  return netBalance(account.normal_balance, debits, credits);
}
