/**
 * Model-based test of posting, reversing, closing and the reports: random ledgers (random periods,
 * entries, reversals and closes) run through the real service over a fresh store of the backend
 * under test (a temp SQLite file or a new PostgreSQL database), beside a plain in-memory model
 * that predicts every outcome. After each ledger the reports must agree with each other, with the
 * balance endpoint and with balances replayed from the journal.
 */
import fc from 'fast-check';
import { uuidv7 } from 'uuidv7';
import { describe, expect, it } from 'vitest';
import { nextDay } from '../../src/domain/dates.js';
import { isLedgerError } from '../../src/domain/errors.js';
import type { Actor } from '../../src/service/actor.js';
import { LedgerService } from '../../src/service/ledger-service.js';
import { openTestStore } from '../helpers/test-store.js';

type CurrencyKey = 'usd' | 'eur';
type AccountType = 'asset' | 'liability' | 'equity' | 'revenue' | 'expense';

interface ChartEntry {
  key: string;
  number: string;
  currency: CurrencyKey;
  type: AccountType;
  normal: 'debit' | 'credit';
  /** Key of the control account this sub-account hangs under. */
  parent?: string;
  control?: boolean;
}

/**
 * A few accounts of each type, contra accounts on three sides, two control accounts (an asset and
 * a revenue one) with two sub-accounts each, and three accounts in a second currency.
 */
const CHART: readonly ChartEntry[] = [
  { key: 'cash', number: '1000', currency: 'usd', type: 'asset', normal: 'debit' },
  { key: 'receivables', number: '1200', currency: 'usd', type: 'asset', normal: 'debit', control: true },
  { key: 'acme', number: '1200-01', currency: 'usd', type: 'asset', normal: 'debit', parent: 'receivables' },
  { key: 'globex', number: '1200-02', currency: 'usd', type: 'asset', normal: 'debit', parent: 'receivables' },
  { key: 'depreciation', number: '1590', currency: 'usd', type: 'asset', normal: 'credit' },
  { key: 'loan', number: '2000', currency: 'usd', type: 'liability', normal: 'credit' },
  { key: 'capital', number: '3000', currency: 'usd', type: 'equity', normal: 'credit' },
  { key: 'retained', number: '3100', currency: 'usd', type: 'equity', normal: 'credit' },
  { key: 'sales', number: '4000', currency: 'usd', type: 'revenue', normal: 'credit' },
  { key: 'services', number: '4100', currency: 'usd', type: 'revenue', normal: 'credit', control: true },
  { key: 'servicesAcme', number: '4100-01', currency: 'usd', type: 'revenue', normal: 'credit', parent: 'services' },
  { key: 'servicesGlobex', number: '4100-02', currency: 'usd', type: 'revenue', normal: 'credit', parent: 'services' },
  { key: 'returns', number: '4900', currency: 'usd', type: 'revenue', normal: 'debit' },
  { key: 'rent', number: '6000', currency: 'usd', type: 'expense', normal: 'debit' },
  { key: 'wages', number: '6100', currency: 'usd', type: 'expense', normal: 'debit' },
  { key: 'rebates', number: '6900', currency: 'usd', type: 'expense', normal: 'credit' },
  { key: 'euroCash', number: 'E1000', currency: 'eur', type: 'asset', normal: 'debit' },
  { key: 'euroCapital', number: 'E3000', currency: 'eur', type: 'equity', normal: 'credit' },
  { key: 'euroFees', number: 'E4000', currency: 'eur', type: 'revenue', normal: 'credit' },
];
const POSTING: Record<CurrencyKey, ChartEntry[]> = {
  usd: CHART.filter((a) => a.currency === 'usd' && !a.control),
  eur: CHART.filter((a) => a.currency === 'eur' && !a.control),
};
const BY_KEY = new Map(CHART.map((a) => [a.key, a]));
const FIRST_DAY = '2026-01-01';

// ---------------------------------------------------------------------------------------------
// Scenarios

interface Leg { debit: number; credit: number; amount: bigint }
type Operation =
  | { kind: 'post'; day: number; euro: boolean; legs: Leg[] }
  | { kind: 'reverse'; target: number; day: number | null }
  | { kind: 'close'; period: number; preview: boolean };
interface Scenario {
  usdScale: number;
  periods: { lengthDays: number; gapDays: number }[];
  operations: Operation[];
}

const legArbitrary = fc.record({
  debit: fc.nat({ max: 99 }),
  credit: fc.nat({ max: 99 }),
  // Small amounts often, large ones sometimes: up to 10^24 minor units (a million at 18 decimals).
  amount: fc.oneof(fc.bigInt({ min: 1n, max: 100_000n }), fc.bigInt({ min: 1n, max: 10n ** 24n })),
});
const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({
    kind: fc.constant('post' as const), day: fc.nat({ max: 400 }), euro: fc.nat({ max: 7 }).map((n) => n === 0),
    legs: fc.array(legArbitrary, { minLength: 1, maxLength: 3 }),
  }) },
  { weight: 2, arbitrary: fc.record({
    kind: fc.constant('reverse' as const), target: fc.nat({ max: 1000 }), day: fc.option(fc.nat({ max: 400 }), { nil: null }),
  }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), period: fc.nat({ max: 2 }), preview: fc.boolean() }) },
);
const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
  usdScale: fc.constantFrom(0, 2, 18),
  periods: fc.array(fc.record({ lengthDays: fc.integer({ min: 1, max: 40 }), gapDays: fc.constantFrom(0, 0, 2) }), { minLength: 2, maxLength: 3 }),
  operations: fc.array(operationArbitrary, { minLength: 10, maxLength: 40, size: 'max' }),
});

function addDays(date: string, days: number): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + days);
  return next.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------
// The model

interface ModelLine { account: string; debit: bigint; credit: bigint }
interface ModelEntry {
  id: string;
  date: string;
  period: number;
  type: 'standard' | 'reversal' | 'closing';
  lines: ModelLine[];
  reversed: boolean;
}
interface ModelPeriod { id: string; name: string; start: string; end: string; closed: boolean; closingEntryId: string | null }

class Model {
  readonly entries: ModelEntry[] = [];
  constructor(readonly periods: ModelPeriod[]) {}

  periodOf(date: string): number {
    return this.periods.findIndex((p) => p.start <= date && date <= p.end);
  }

  isOpen(date: string): boolean {
    const index = this.periodOf(date);
    return index >= 0 && !this.periods[index]!.closed;
  }

  /** Gross totals per posting account over the entries that pass the filter. */
  totals(filter: (entry: ModelEntry) => boolean = () => true): Map<string, { debit: bigint; credit: bigint }> {
    const sums = new Map<string, { debit: bigint; credit: bigint }>();
    for (const entry of this.entries.filter(filter)) {
      for (const line of entry.lines) {
        const sum = sums.get(line.account) ?? { debit: 0n, credit: 0n };
        sum.debit += line.debit;
        sum.credit += line.credit;
        sums.set(line.account, sum);
      }
    }
    return sums;
  }

  /** Revenue minus expenses of one currency over the entries that pass the filter. */
  earnings(currency: CurrencyKey, filter: (entry: ModelEntry) => boolean): bigint {
    let result = 0n;
    for (const [key, sum] of this.totals(filter)) {
      const account = BY_KEY.get(key)!;
      if (account.currency !== currency) continue;
      if (account.type === 'revenue' || account.type === 'expense') result += sum.credit - sum.debit;
    }
    return result;
  }

  /** The closing lines the close must post, or an error code; null when there is nothing to close. */
  expectedClosing(index: number): ModelLine[] | null | 'CURRENCY_MISMATCH' {
    const nets = [...this.totals((entry) => entry.period === index)]
      .map(([key, sum]) => ({ account: BY_KEY.get(key)!, net: sum.debit - sum.credit }))
      .filter(({ account, net }) => (account.type === 'revenue' || account.type === 'expense') && net !== 0n)
      .sort((x, y) => (x.account.number < y.account.number ? -1 : 1));
    if (nets.some(({ account }) => account.currency !== 'usd')) return 'CURRENCY_MISMATCH';
    if (nets.length === 0) return null;
    const lines = nets.map(({ account, net }) =>
      (net > 0n ? { account: account.key, debit: 0n, credit: net } : { account: account.key, debit: -net, credit: 0n }));
    const netDebits = nets.reduce((sum, { net }) => sum + net, 0n);
    if (netDebits > 0n) lines.push({ account: 'retained', debit: netDebits, credit: 0n });
    if (netDebits < 0n) lines.push({ account: 'retained', debit: 0n, credit: -netDebits });
    return lines;
  }
}

// ---------------------------------------------------------------------------------------------
// Running a scenario

const ACTOR: Actor = { user_id: 'model-admin', user_type: 'service', permissions: { admin: true }, credential: { type: 'api_key', id: 'model-key' } };

async function outcomeOf<T>(action: () => Promise<T>): Promise<{ code: 'OK'; value: T } | { code: string }> {
  try {
    return { code: 'OK', value: await action() };
  } catch (error) {
    if (isLedgerError(error)) return { code: error.code };
    throw error;
  }
}

interface Ledger {
  service: LedgerService;
  model: Model;
  ids: Map<string, string>;
  keys: Map<string, string>;
  currencyIds: Record<CurrencyKey, string>;
}

async function buildLedger(service: LedgerService, scenario: Scenario): Promise<Ledger> {
  const usd = await service.createCurrency(ACTOR, {
    code: 'USD', name: 'US Dollar', symbol: '$', asset_scale: scenario.usdScale, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:USD',
  });
  const eur = await service.createCurrency(ACTOR, {
    code: 'EUR', name: 'Euro', symbol: 'E', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:EUR',
  });
  const currencyIds = { usd: usd.id, eur: eur.id };
  const ids = new Map<string, string>();
  for (const account of CHART) {
    const created = await service.createAccount(ACTOR, account.parent === undefined
      ? { account_number: account.number, name: account.key, currency_id: currencyIds[account.currency], account_type: account.type,
        normal_balance: account.normal, has_subledger: account.control === true }
      : { account_number: account.number, name: account.key, parent_id: ids.get(account.parent)!, entity_id: account.key });
    ids.set(account.key, created.id);
  }
  await service.updateSettings(ACTOR, { retained_earnings_account_id: ids.get('retained')! });
  const periods: ModelPeriod[] = [];
  let start = FIRST_DAY;
  for (const [index, shape] of scenario.periods.entries()) {
    const end = addDays(start, shape.lengthDays - 1);
    const created = await service.createPeriod(ACTOR, { name: `P${index + 1}`, start_date: start, end_date: end });
    periods.push({ id: created.id, name: created.name, start, end, closed: false, closingEntryId: null });
    start = addDays(end, 1 + shape.gapDays);
  }
  return { service, model: new Model(periods), ids, keys: new Map([...ids].map(([key, id]) => [id, key])), currencyIds };
}

/** Days from two before the first period to a few after the last, so some dates fall outside every period. */
function dateOf(ledger: Ledger, day: number): string {
  const last = ledger.model.periods.at(-1)!.end;
  const span = Math.round((Date.parse(last) - Date.parse(FIRST_DAY)) / 86_400_000) + 1;
  return addDays(FIRST_DAY, (day % (span + 6)) - 2);
}

function linesOfEntry(ledger: Ledger, entry: { lines: { account_id: string; debit_amount: string; credit_amount: string }[] }): ModelLine[] {
  return entry.lines.map((line) => ({
    account: ledger.keys.get(line.account_id)!, debit: BigInt(line.debit_amount), credit: BigInt(line.credit_amount),
  }));
}

async function runOperation(ledger: Ledger, operation: Operation): Promise<void> {
  const { service, model } = ledger;
  if (operation.kind === 'post') {
    const accounts = POSTING[operation.euro ? 'eur' : 'usd'];
    const lines: ModelLine[] = operation.legs.flatMap((leg) => [
      { account: accounts[leg.debit % accounts.length]!.key, debit: leg.amount, credit: 0n },
      { account: accounts[leg.credit % accounts.length]!.key, debit: 0n, credit: leg.amount },
    ]);
    const date = dateOf(ledger, operation.day);
    const outcome = await outcomeOf(() => service.postJournalEntry(ACTOR, {
      entry_date: date, description: 'random entry',
      lines: lines.map((line) => (line.debit > 0n
        ? { account_id: ledger.ids.get(line.account)!, debit_amount: line.debit.toString() }
        : { account_id: ledger.ids.get(line.account)!, credit_amount: line.credit.toString() })),
    }));
    expect(outcome.code, `post on ${date}`).toBe(model.isOpen(date) ? 'OK' : 'NO_OPEN_PERIOD');
    if (outcome.code === 'OK' && 'value' in outcome) {
      expect(linesOfEntry(ledger, outcome.value)).toEqual(lines);
      model.entries.push({ id: outcome.value.id, date, period: model.periodOf(date), type: 'standard', lines, reversed: false });
    }
    return;
  }
  if (operation.kind === 'reverse') {
    if (model.entries.length === 0) return;
    const target = model.entries[operation.target % model.entries.length]!;
    const date = operation.day === null ? target.date : dateOf(ledger, operation.day);
    const expected = target.type !== 'standard' || target.reversed ? 'REVERSAL_NOT_ALLOWED' : model.isOpen(date) ? 'OK' : 'NO_OPEN_PERIOD';
    const outcome = await outcomeOf(() => service.reverseJournalEntry(ACTOR, target.id,
      operation.day === null ? {} : { entry_date: date }));
    expect(outcome.code, `reverse a ${target.type} entry on ${date}`).toBe(expected);
    if (outcome.code === 'OK' && 'value' in outcome) {
      const lines = target.lines.map((line) => ({ account: line.account, debit: line.credit, credit: line.debit }));
      expect(linesOfEntry(ledger, outcome.value)).toEqual(lines);
      target.reversed = true;
      model.entries.push({ id: outcome.value.id, date, period: model.periodOf(date), type: 'reversal', lines, reversed: false });
    }
    return;
  }
  const index = operation.period % model.periods.length;
  const period = model.periods[index]!;
  // Periods close in order: an open period before this one refuses it (the periods are made in date order).
  const earlierOpen = model.periods.slice(0, index).some((earlier) => !earlier.closed);
  const expected = period.closed ? 'PERIOD_CLOSED' : earlierOpen ? 'EARLIER_PERIOD_OPEN' : model.expectedClosing(index);
  const entryCount = (await allEntries(service)).length;
  const outcome = await outcomeOf(() => service.closePeriod(ACTOR, period.id, operation.preview));
  if (expected === 'PERIOD_CLOSED' || expected === 'EARLIER_PERIOD_OPEN' || expected === 'CURRENCY_MISMATCH') {
    expect(outcome.code, `close ${period.name}`).toBe(expected);
    return;
  }
  expect(outcome.code, `close ${period.name}`).toBe('OK');
  if (outcome.code !== 'OK' || !('value' in outcome)) return;
  const result = outcome.value;
  expect(result.preview).toBe(operation.preview);
  if (expected === null) {
    expect(result.closing_entry).toBeNull();
  } else {
    expect(result.closing_entry).toMatchObject({ entry_date: period.end, entry_type: 'closing', period_id: period.id });
    expect(linesOfEntry(ledger, result.closing_entry!)).toEqual(expected);
  }
  if (operation.preview) {
    expect(result.period.status).toBe('open');
    expect((await service.getPeriod(period.id)).status).toBe('open');
    expect((await allEntries(service)).length).toBe(entryCount);
    return;
  }
  expect(result.period).toMatchObject({ status: 'closed', closed_by: ACTOR.user_id, closing_entry_id: result.closing_entry?.id ?? null });
  period.closed = true;
  period.closingEntryId = result.closing_entry?.id ?? null;
  if (result.closing_entry !== null) {
    model.entries.push({ id: result.closing_entry.id, date: period.end, period: index, type: 'closing', lines: expected!, reversed: false });
  }
}

async function allEntries(service: LedgerService) {
  const entries = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await service.listJournalEntries({ limit: 200, cursor });
    entries.push(...page.data);
    if (!page.has_more) return entries;
    cursor = page.next_cursor!;
  }
}

// ---------------------------------------------------------------------------------------------
// Invariants checked after each ledger

const netOf = (account: ChartEntry, sum: { debit: bigint; credit: bigint } | undefined) =>
  (sum === undefined ? 0n : account.normal === 'debit' ? sum.debit - sum.credit : sum.credit - sum.debit);

/** The balance as the reports sign it: by the side of the account's type, whatever its normal balance. */
const sectionNetOf = (account: ChartEntry, sum: { debit: bigint; credit: bigint }) =>
  (account.type === 'asset' || account.type === 'expense' ? sum.debit - sum.credit : sum.credit - sum.debit);

/** Sums the totals of a control account's sub-accounts, or returns the account's own totals. */
function totalsOfAccount(account: ChartEntry, totals: Map<string, { debit: bigint; credit: bigint }>) {
  const members = account.control ? CHART.filter((a) => a.parent === account.key) : [account];
  return members.reduce((sum, member) => {
    const own = totals.get(member.key);
    return own ? { debit: sum.debit + own.debit, credit: sum.credit + own.credit } : sum;
  }, { debit: 0n, credit: 0n });
}

async function checkTrialBalancesAndBalances(ledger: Ledger): Promise<void> {
  const { service, model } = ledger;
  const scopes: (number | undefined)[] = [undefined, ...model.periods.keys()];
  for (const scope of scopes) {
    const periodId = scope === undefined ? undefined : model.periods[scope]!.id;
    const expected = model.totals((entry) => scope === undefined || entry.period === scope);
    const tb = await service.trialBalance({ period_id: periodId });
    expect(tb.is_balanced).toBe(true);
    for (const total of tb.totals) expect(total.debit_total).toBe(total.credit_total);
    const activeKeys = [...expected].filter(([, sum]) => sum.debit !== 0n || sum.credit !== 0n).map(([key]) => key);
    expect(tb.rows.map((row) => ledger.keys.get(row.account_id!)).sort()).toEqual(activeKeys.sort());
    for (const row of tb.rows) {
      const key = ledger.keys.get(row.account_id!)!;
      const sum = expected.get(key)!;
      expect([row.debit_total, row.credit_total, row.net_balance], key)
        .toEqual([sum.debit.toString(), sum.credit.toString(), sectionNetOf(BY_KEY.get(key)!, sum).toString()]);
    }
    for (const account of CHART) {
      const balance = await service.getAccountBalance(ledger.ids.get(account.key)!, periodId);
      const sum = totalsOfAccount(account, expected);
      expect([balance.total_debits, balance.total_credits, balance.net_balance], `${account.key} in ${periodId ?? 'all time'}`)
        .toEqual([sum.debit.toString(), sum.credit.toString(), netOf(account, sum).toString()]);
      const row = tb.rows.find((r) => r.account_id === ledger.ids.get(account.key));
      // The balance endpoint signs by the account's normal side (CONTRACT.md); the trial balance
      // by its type's side: they agree except for contra accounts, where they are opposite.
      const contra = (account.type === 'asset' || account.type === 'expense') !== (account.normal === 'debit');
      if (row) expect(BigInt(row.net_balance)).toBe(contra ? -BigInt(balance.net_balance) : BigInt(balance.net_balance));
    }
  }
}

/** Balances replayed from the journal itself equal the stored balances, all time and per period. */
async function checkReplay(ledger: Ledger): Promise<void> {
  const { service, model } = ledger;
  const journal = await allEntries(service);
  expect(journal.map((entry) => entry.id).sort()).toEqual(model.entries.map((entry) => entry.id).sort());
  const replay = (periodId?: string) => {
    const sums = new Map<string, { debit: bigint; credit: bigint }>();
    for (const entry of journal) {
      if (periodId !== undefined && entry.period_id !== periodId) continue;
      const debits = entry.lines.reduce((sum, line) => sum + BigInt(line.debit_amount), 0n);
      const credits = entry.lines.reduce((sum, line) => sum + BigInt(line.credit_amount), 0n);
      expect(debits).toBe(credits);
      for (const line of entry.lines) {
        const key = ledger.keys.get(line.account_id)!;
        const sum = sums.get(key) ?? { debit: 0n, credit: 0n };
        sum.debit += BigInt(line.debit_amount);
        sum.credit += BigInt(line.credit_amount);
        sums.set(key, sum);
      }
    }
    return sums;
  };
  for (const periodId of [undefined, ...model.periods.map((p) => p.id)]) {
    const replayed = replay(periodId);
    for (const account of CHART) {
      const balance = await service.getAccountBalance(ledger.ids.get(account.key)!, periodId);
      const sum = totalsOfAccount(account, replayed);
      expect([balance.total_debits, balance.total_credits], `replayed ${account.key}`).toEqual([sum.debit.toString(), sum.credit.toString()]);
    }
  }
}

async function checkBalanceSheets(ledger: Ledger): Promise<void> {
  const { service, model } = ledger;
  const dates = new Set<string>([addDays(FIRST_DAY, -1)]);
  for (const period of model.periods) {
    dates.add(period.start);
    dates.add(addDays(period.start, Math.floor((Date.parse(period.end) - Date.parse(period.start)) / 86_400_000 / 2)));
    dates.add(period.end);
    dates.add(nextDay(period.end));
  }
  for (const currency of ['usd', 'eur'] as const) {
    for (const date of [...dates, undefined]) {
      const sheet = await service.balanceSheet({ as_of_date: date, currency_id: ledger.currencyIds[currency] });
      const through = (entry: ModelEntry) => date === undefined || entry.date <= date;
      const totals = model.totals(through);
      let assets = 0n;
      for (const [key, sum] of totals) {
        const account = BY_KEY.get(key)!;
        if (account.currency === currency && account.type === 'asset') assets += sum.debit - sum.credit;
      }
      const label = `${currency} balance sheet as of ${date ?? 'today'}`;
      expect(sheet.is_balanced, label).toBe(true);
      expect([sheet.total_assets, sheet.total_liabilities_and_equity], label).toEqual([assets.toString(), assets.toString()]);
      const currentEarnings = sheet.equity.accounts.find((row) => row.account_id === null);
      expect(currentEarnings?.balance, label).toBe(model.earnings(currency, through).toString());
    }
    for (const period of model.periods) {
      const byPeriod = await service.balanceSheet({ period_id: period.id, currency_id: ledger.currencyIds[currency] });
      const byDate = await service.balanceSheet({ as_of_date: period.end, currency_id: ledger.currencyIds[currency] });
      expect({ ...byPeriod, period_id: null }).toEqual(byDate);
    }
  }
}

async function checkIncomeStatements(ledger: Ledger): Promise<void> {
  const { service, model } = ledger;
  let sumOfPeriods = 0n;
  for (const [index, period] of model.periods.entries()) {
    const statement = await service.incomeStatement({ period_id: period.id, currency_id: ledger.currencyIds.usd });
    const expected = model.earnings('usd', (entry) => entry.period === index && entry.type !== 'closing');
    expect(statement.net_income, `income of ${period.name}`).toBe(expected.toString());
    sumOfPeriods += expected;
    if (period.closed) {
      // The closing entry moves exactly the period's result into retained earnings.
      const closing = model.entries.find((entry) => entry.id === period.closingEntryId);
      const movement = (closing?.lines ?? []).filter((line) => line.account === 'retained')
        .reduce((sum, line) => sum + line.credit - line.debit, 0n);
      expect(statement.net_income, `closing entry of ${period.name}`).toBe(movement.toString());
      const usdRevenueAndExpenses = CHART.filter((a) => a.currency === 'usd' && (a.type === 'revenue' || a.type === 'expense'));
      for (const account of usdRevenueAndExpenses) {
        expect((await service.getAccountBalance(ledger.ids.get(account.key)!, period.id)).net_balance, `${account.key} after close`).toBe('0');
      }
    }
  }
  const allTime = await service.incomeStatement({ currency_id: ledger.currencyIds.usd });
  expect(allTime.net_income).toBe(sumOfPeriods.toString());
  const euro = await service.incomeStatement({ currency_id: ledger.currencyIds.eur });
  expect(euro.net_income).toBe(model.earnings('eur', (entry) => entry.type !== 'closing').toString());
}

async function checkGeneralLedgers(ledger: Ledger): Promise<void> {
  const { service, model } = ledger;
  for (const account of CHART) {
    const id = ledger.ids.get(account.key)!;
    const whole = await service.generalLedger({ account_id: id, limit: 200 });
    expect(whole.ending_balance, `general ledger of ${account.key}`).toBe((await service.getAccountBalance(id)).net_balance);
    let running = 0n;
    for (const line of whole.lines) {
      const net = BigInt(line.debit_amount) - BigInt(line.credit_amount);
      running += account.normal === 'debit' ? net : -net;
      expect(line.running_balance).toBe(running.toString());
    }
    for (const period of model.periods) {
      const ranged = await service.generalLedger({ account_id: id, period_id: period.id, limit: 200 });
      const movement = BigInt(ranged.ending_balance) - BigInt(ranged.starting_balance);
      expect(movement.toString(), `${account.key} in ${period.name}`).toBe((await service.getAccountBalance(id, period.id)).net_balance);
    }
  }
  // A paged walk, newest first, of the busiest account continues exactly where each page ended.
  const cashId = ledger.ids.get('cash')!;
  const whole = await service.generalLedger({ account_id: cashId, sort: 'desc', limit: 200 });
  const walked = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await service.generalLedger({ account_id: cashId, sort: 'desc', limit: 3, cursor });
    expect([page.starting_balance, page.ending_balance]).toEqual([whole.starting_balance, whole.ending_balance]);
    walked.push(...page.lines);
    if (!page.has_more) break;
    cursor = page.next_cursor!;
  }
  expect(walked).toEqual(whole.lines);
}

async function withLedger<T>(work: (service: LedgerService) => Promise<T>): Promise<T> {
  const { store, close } = await openTestStore();
  try {
    const service = await LedgerService.create(store, { clock: { now: () => new Date('2027-01-15T08:00:00.000Z') }, newId: uuidv7 });
    return await work(service);
  } finally {
    await close();
  }
}

describe('ledger properties', () => {
  it('keeps reports, balances and the journal consistent over random ledgers with reversals and closes', async () => {
    await fc.assert(fc.asyncProperty(scenarioArbitrary, (scenario) => withLedger(async (service) => {
      const ledger = await buildLedger(service, scenario);
      for (const operation of scenario.operations) await runOperation(ledger, operation);
      await checkTrialBalancesAndBalances(ledger);
      await checkReplay(ledger);
      await checkBalanceSheets(ledger);
      await checkIncomeStatements(ledger);
      await checkGeneralLedgers(ledger);
    })), { numRuns: 25 });
  }, 120_000);
});
