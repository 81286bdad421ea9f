/**
 * Translated reports (docs/currencies.md): every account's totals in the base currency, with the
 * row "Exchange differences on translation" that balances them. Balance-sheet accounts (asset,
 * liability, equity) are translated at the rate of the report's date; revenue and expense day by
 * day at each day's rate (from the maintained daily totals), with a closed period's closing entry
 * taking back exactly what its days added (domain/reports/translation.ts).
 */
import { FIRST_DATE, LAST_DATE } from '../domain/dates.js';
import { LedgerError, validationError } from '../domain/errors.js';
import { sectionBalance } from '../domain/accounts/new-account.js';
import { asAmount } from '../domain/money/amount.js';
import { money, type ReportInputs } from '../domain/reports/report-inputs.js';
import {
  type ClosedSpan, type DayTotals, RateBook, TRANSLATION_DIFFERENCE_NAME, translateAtRate, translateDays,
} from '../domain/reports/translation.js';
import type { Account, Period, Totals } from '../domain/types.js';
import type { LedgerReads } from './ports/ledger-store.js';
import { baseCurrencyOf } from './settings.js';

/** The id the translation difference goes by among the accounts while a report is built (never stored). */
export const TRANSLATION_DIFFERENCE_ID = '\u0000translation-difference';

/**
 * The currency a translated report is asked for: only the base currency, and not together with
 * currency_id. Undefined when none is asked for.
 */
export async function presentationCurrency(reads: LedgerReads, requested: string | undefined,
  currencyId: string | undefined): Promise<string | undefined> {
  if (requested === undefined) return undefined;
  if (currencyId !== undefined) {
    throw validationError('Give either currency_id (one currency as booked) or presentation_currency_id (all of them translated), not both',
      'presentation_currency_id');
  }
  const base = await baseCurrencyOf(reads);
  if (base === null) {
    throw validationError('The ledger has no base currency to translate into', 'presentation_currency_id',
      'Set base_currency_id (or the retained earnings account) in the settings');
  }
  if (requested !== base) {
    const code = (await reads.getCurrency(base))?.code ?? base;
    throw validationError(`Reports can be translated into the base currency (${code}, ${base}) only`, 'presentation_currency_id',
      `Pass presentation_currency_id=${base}, or change the base currency in the settings`);
  }
  return base;
}

const isFlow = (account: Account) => account.account_type === 'revenue' || account.account_type === 'expense';

/** What to translate: the totals as the report read them, the date for balance-sheet accounts, and the range of the flows. */
export interface TranslationScope {
  totals: ReadonlyMap<string, Totals>;
  /** Balance-sheet accounts are translated at the rate of this day. */
  rateDate: string;
  /** The days the revenue and expense totals cover (inclusive; open ends are the first and last day). */
  flows: { start_date: string | undefined; end_date: string | undefined };
  /** Whether the totals include closing entries (trial balance, balance sheet) or not (income statement). */
  withClosing: boolean;
}

export class Translator {
  private constructor(readonly base: string, private readonly reads: LedgerReads, private readonly inputs: ReportInputs,
    private readonly rates: RateBook, private readonly periods: Period[]) {}

  /** `through`: the last day any rate is needed on (rates after it are not read). */
  static async open(reads: LedgerReads, inputs: ReportInputs, base: string, through: string): Promise<Translator> {
    const foreign = [...new Set([...inputs.accounts.values()].map((account) => account.currency_id))].filter((id) => id !== base);
    const rates = new RateBook(base, await reads.exchangeRatesThrough(foreign, through));
    const periods: Period[] = [];
    let page = await reads.listPeriods({ limit: 200 });
    for (;;) {
      periods.push(...page.items);
      if (page.next === undefined) break;
      page = await reads.listPeriods({ limit: 200, after: page.next });
    }
    return new Translator(base, reads, inputs, rates, periods);
  }

  /** The report inputs with every account in the base currency, and the translation difference account. */
  baseInputs(): ReportInputs {
    const accounts = new Map<string, Account>();
    for (const [id, account] of this.inputs.accounts) accounts.set(id, { ...account, currency_id: this.base });
    accounts.set(TRANSLATION_DIFFERENCE_ID, {
      id: TRANSLATION_DIFFERENCE_ID, account_number: '\uffff', name: TRANSLATION_DIFFERENCE_NAME, currency_id: this.base,
      account_type: 'equity', normal_balance: 'credit', has_subledger: false, parent_id: null, entity_id: null, xbrl_tag: null,
      is_active: true, created_at: '',
    } as Account);
    return { accounts, scales: this.inputs.scales };
  }

  /** Every account's totals in the base currency; RATE_MISSING when a needed rate is not there. */
  async translate(scope: TranslationScope): Promise<Map<string, Totals>> {
    const baseScale = this.inputs.scales.get(this.base)!;
    const result = new Map<string, Totals>();
    const flows: Account[] = [];
    for (const [accountId, totals] of scope.totals) {
      const account = this.inputs.accounts.get(accountId);
      if (!account) continue;
      if (account.currency_id === this.base) result.set(accountId, totals);
      else if (isFlow(account)) flows.push(account);
      else {
        const rate = this.rates.rateOn(account.currency_id, scope.rateDate);
        if (rate !== undefined) result.set(accountId, translateAtRate(totals, rate, this.inputs.scales.get(account.currency_id)!, baseScale));
      }
    }
    if (flows.length > 0) {
      for (const [accountId, totals] of await this.translateFlows(flows, scope)) result.set(accountId, totals);
    }
    await this.requireRates();
    return result;
  }

  private async translateFlows(accounts: readonly Account[], scope: TranslationScope): Promise<Map<string, Totals>> {
    const start = scope.flows.start_date ?? FIRST_DATE;
    const end = scope.flows.end_date ?? LAST_DATE;
    // A closed period whose closing entry (dated its last day) falls in the range: its days are read whole.
    const closings: ClosedSpan[] = scope.withClosing
      ? this.periods.filter((period) => period.status === 'closed' && period.end_date >= start && period.end_date <= end)
        .map((period) => ({ start_date: period.start_date, end_date: period.end_date }))
      : [];
    const readFrom = closings.reduce((earliest, span) => (span.start_date < earliest ? span.start_date : earliest), start);
    const ids = accounts.map((account) => account.id);
    const days = await this.reads.accountDailyTotals(ids, { start_date: readFrom, end_date: end });
    const closingDays = await this.reads.closingDailyTotals(ids, { start_date: readFrom, end_date: end });
    const closingByKey = new Map(closingDays.map((day) => [`${day.account_id}\u0000${day.entry_date}`, day]));
    const activity = new Map<string, DayTotals[]>();
    for (const day of days) {
      const closing = closingByKey.get(`${day.account_id}\u0000${day.entry_date}`);
      const list = activity.get(day.account_id) ?? [];
      list.push({
        entry_date: day.entry_date,
        debit_total: asAmount(day.debit_total - (closing?.debit_total ?? 0n)),
        credit_total: asAmount(day.credit_total - (closing?.credit_total ?? 0n)),
      });
      activity.set(day.account_id, list);
    }
    const baseScale = this.inputs.scales.get(this.base)!;
    const result = new Map<string, Totals>();
    for (const account of accounts) {
      const translated = translateDays(account.currency_id, activity.get(account.id) ?? [], { start_date: start, end_date: end },
        closings, this.rates, this.inputs.scales.get(account.currency_id)!, baseScale);
      if (translated !== undefined) result.set(account.id, translated);
    }
    return result;
  }

  /** RATE_MISSING naming the currency whose earliest missing day comes first, and that day. */
  private async requireRates(): Promise<void> {
    const missing = [...this.rates.missing].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (missing.length === 0) return;
    const codes = new Map<string, string>();
    for (const [id] of missing) codes.set(id, (await this.reads.getCurrency(id))?.code ?? id);
    const [currencyId, date] = missing[0]!;
    const code = codes.get(currencyId)!;
    const others = missing.slice(1).map(([id, day]) => `${codes.get(id)} from ${day}`);
    throw new LedgerError('RATE_MISSING',
      `No ${code} rate on or before ${date}, which the report needs${others.length > 0 ? ` (also missing: ${others.join(', ')})` : ''}`, {
        field: 'presentation_currency_id',
        suggestion: `Add the rate with POST /api/v1/exchange-rates {"currency_id": "${currencyId}", "rate_date": "${date}", "rate": "..."} or ledger rates set ${code} ${date} RATE`,
      });
  }

  /** Totals the translation difference account holds so that debits equal credits. */
  static differenceTotals(translated: ReadonlyMap<string, Totals>): Totals {
    let net = 0n;
    for (const totals of translated.values()) net += totals.debit_total - totals.credit_total;
    return net > 0n
      ? { debit_total: asAmount(0n), credit_total: asAmount(net) }
      : { debit_total: asAmount(-net), credit_total: asAmount(0n) };
  }

  /** A row's own figure in its account's currency, for `original_amount`. */
  originalOf(accountId: string, totals: Totals | undefined): { original_amount: string; display_original_amount: string } | undefined {
    const account = this.inputs.accounts.get(accountId);
    if (!account || !totals) return undefined;
    const original = money(sectionBalance(account.account_type, totals.debit_total, totals.credit_total), this.inputs.scales.get(account.currency_id)!);
    return { original_amount: original.value, display_original_amount: original.display };
  }
}
