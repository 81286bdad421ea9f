/**
 * Records for the storage contract suite (test/storage/contract): builders for every kind of row a
 * LedgerStore keeps, with deterministic ids, and a small chart of accounts that most tests start
 * from. Pure data: no driver, no clock, no randomness except the seeded generator below, so the
 * same fixtures prove every adapter against the same expectations.
 *
 * Ids are derived from what a record is (`currency-USD`, `account-1000`, `period-2026-01-01`) or
 * numbered with zero padding (`entry-0007`), so that sorting ids bytewise sorts them in creation
 * order; a test that needs ids out of order gives them explicitly.
 */
import type { AuditRecord, CredentialType } from '../../../src/domain/audit.js';
import { entryHash, GENESIS_HASH } from '../../../src/service/entry-hash.js';
import type { AmountMinor } from '../../../src/domain/money/amount.js';
import type {
  Account, AccountType, Currency, EntryHashVersion, EntryType, JournalEntry, JournalEntryView, JournalLine, NormalBalance, Period, Permissions,
  Totals,
} from '../../../src/domain/types.js';
import type { AccountLine, ApiKeyRecord, EntryPlace, LedgerWrites, NewUserRecord, RefreshTokenRecord } from '../../../src/service/ports/ledger-store.js';

/** When every fixture record was created, unless a test says otherwise. */
export const FIXTURE_TIME = '2026-01-01T00:00:00.000Z';

/** The largest amount a line, a balance or a currency's debit total may hold: 2^127 - 1. */
export const LARGEST_AMOUNT = ((1n << 127n) - 1n) as AmountMinor;

export function amount(value: bigint | number): AmountMinor {
  return BigInt(value) as AmountMinor;
}

export function currencyFixture(code: string, overrides: Partial<Currency> = {}): Currency {
  return {
    id: `currency-${code}`,
    code,
    name: `Currency ${code}`,
    symbol: code.slice(0, 1),
    asset_scale: 2,
    asset_type: 'fiat',
    caip19_id: `test:0/token:${code}`,
    created_at: FIXTURE_TIME,
    ...overrides,
  };
}

export function normalBalanceOf(type: AccountType): NormalBalance {
  return type === 'asset' || type === 'expense' ? 'debit' : 'credit';
}

/** A posting account; its normal balance follows its type unless overridden. */
export function accountFixture(accountNumber: string, currency: Currency, overrides: Partial<Account> = {}): Account {
  const accountType = overrides.account_type ?? 'asset';
  return {
    id: `account-${accountNumber}`,
    account_number: accountNumber,
    name: `Account ${accountNumber}`,
    currency_id: currency.id,
    account_type: accountType,
    normal_balance: normalBalanceOf(accountType),
    has_subledger: false,
    parent_id: null,
    entity_id: null,
    xbrl_tag: null,
    is_active: true,
    created_at: FIXTURE_TIME,
    ...overrides,
  };
}

/** A control account: it takes sub-accounts and no lines of its own. */
export function controlAccountFixture(accountNumber: string, currency: Currency, overrides: Partial<Account> = {}): Account {
  return accountFixture(accountNumber, currency, { has_subledger: true, ...overrides });
}

/** A sub-account of a control account, inheriting its currency, type and normal balance. */
export function subAccountFixture(accountNumber: string, parent: Account, entityId: string, overrides: Partial<Account> = {}): Account {
  return {
    id: `account-${accountNumber}`,
    account_number: accountNumber,
    name: `Account ${accountNumber} (${entityId})`,
    currency_id: parent.currency_id,
    account_type: parent.account_type,
    normal_balance: parent.normal_balance,
    has_subledger: false,
    parent_id: parent.id,
    entity_id: entityId,
    xbrl_tag: null,
    is_active: true,
    created_at: FIXTURE_TIME,
    ...overrides,
  };
}

export function periodFixture(startDate: string, endDate: string, overrides: Partial<Period> = {}): Period {
  return {
    id: `period-${startDate}`,
    name: `Period from ${startDate}`,
    start_date: startDate,
    end_date: endDate,
    status: 'open',
    closed_at: null,
    closed_by: null,
    closing_entry_id: null,
    created_at: FIXTURE_TIME,
    ...overrides,
  };
}

/** The calendar month `yyyy-mm` as an open period. */
export function monthPeriod(month: string, overrides: Partial<Period> = {}): Period {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  return periodFixture(`${month}-01`, `${month}-${String(lastDay).padStart(2, '0')}`, { name: month, ...overrides });
}

/** The calendar date `days` after `date` (both `YYYY-MM-DD`). */
export function addDays(date: string, days: number): string {
  const time = Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000;
  return new Date(time).toISOString().slice(0, 10);
}

/** One side of a line before the entry gives it an id. */
export interface LineSpec {
  account: Account;
  debit: bigint;
  credit: bigint;
  description?: string | null | undefined;
  id?: string | undefined;
}

export function debit(account: Account, value: bigint | number, description: string | null = null): LineSpec {
  return { account, debit: BigInt(value), credit: 0n, description };
}

export function credit(account: Account, value: bigint | number, description: string | null = null): LineSpec {
  return { account, debit: 0n, credit: BigInt(value), description };
}

export interface EntrySpec {
  date: string;
  period: Period;
  lines: readonly LineSpec[];
  id?: string | undefined;
  description?: string | undefined;
  reference?: string | null | undefined;
  metadata?: Record<string, unknown> | null | undefined;
  entry_type?: EntryType | undefined;
  /** The entry this one reverses (makes it a reversal unless `entry_type` says otherwise). */
  reverses?: JournalEntry | undefined;
  created_by?: string | null | undefined;
  posted_at?: string | undefined;
  /** 2 (as posted now: the entry is its own audit record) unless given; 1 as posted before schema version 17 / 18. */
  hash_version?: EntryHashVersion | undefined;
  credential_type?: CredentialType | null | undefined;
  credential_id?: string | null | undefined;
  request_id?: string | null | undefined;
}

/**
 * Numbers the entries of one test: `entry-0001`, `entry-0002`, ... Each line's id is the entry's
 * id with the line's position (`entry-0001/line-0`) unless the spec gives one.
 */
export class EntryFixtures {
  private count = 0;

  constructor(private readonly prefix = 'entry') {}

  /** Numbers from `<prefix>-0001` again (for a new test on a fresh store). */
  reset(): void {
    this.count = 0;
  }

  entry(spec: EntrySpec): JournalEntry {
    this.count += 1;
    const id = spec.id ?? `${this.prefix}-${String(this.count).padStart(4, '0')}`;
    const first = spec.lines[0];
    if (!first) throw new Error('an entry fixture needs at least one line');
    const lines: JournalLine[] = spec.lines.map((line, index) => ({
      id: line.id ?? `${id}/line-${index}`,
      account_id: line.account.id,
      debit_amount: line.debit as AmountMinor,
      credit_amount: line.credit as AmountMinor,
      description: line.description ?? null,
    }));
    return {
      id,
      entry_date: spec.date,
      description: spec.description ?? `Entry ${id}`,
      reference: spec.reference === undefined ? null : spec.reference,
      metadata: spec.metadata === undefined ? null : spec.metadata,
      period_id: spec.period.id,
      entry_type: spec.entry_type ?? (spec.reverses ? 'reversal' : 'standard'),
      reverses_id: spec.reverses?.id ?? null,
      reversed_by_id: null,
      created_by: spec.created_by === undefined ? null : spec.created_by,
      posted_at: spec.posted_at ?? `${spec.date}T12:00:00.000Z`,
      currency_id: first.account.currency_id,
      override_reason: null,
      hash_version: spec.hash_version ?? 2,
      credential_type: spec.credential_type ?? null,
      credential_id: spec.credential_id ?? null,
      request_id: spec.request_id ?? null,
      lines,
    };
  }

  /** The entry that undoes `original`: every line with its sides swapped, dated `date`. */
  reversal(original: JournalEntry, accounts: readonly Account[], date: string, period: Period): JournalEntry {
    const byId = new Map(accounts.map((account) => [account.id, account]));
    return this.entry({
      date,
      period,
      reverses: original,
      description: `Reversal of: ${original.description}`,
      reference: original.reference,
      metadata: original.metadata,
      lines: original.lines.map((line) => ({
        account: byId.get(line.account_id) ?? missingAccount(line.account_id),
        debit: line.credit_amount,
        credit: line.debit_amount,
        description: line.description,
      })),
    });
  }
}

/**
 * What `getEntry` answers for a posted entry, but its hash: the entry with each line's account
 * number and name (ChainModel knows the hash and the entry number).
 */
export function entryView(entry: JournalEntry, accounts: readonly Account[], reversedById: string | null = null): Omit<JournalEntryView, 'hash' | 'previous_hash' | 'entry_number'> {
  const byId = new Map(accounts.map((account) => [account.id, account]));
  return {
    ...entry,
    reversed_by_id: reversedById,
    lines: entry.lines.map((line) => {
      const account = byId.get(line.account_id) ?? missingAccount(line.account_id);
      return { ...line, account_number: account.account_number, account_name: account.name };
    }),
  };
}

/**
 * The hash chains the store should have built: one per currency, in posting order, each entry's
 * hash over its canonical form and its currency's previous hash (service/entry-hash.ts), and the
 * entry numbers: 1, 2, ... in posting order across currencies.
 */
export class ChainModel {
  readonly heads = new Map<string, string>();
  private readonly links = new Map<string, EntryPlace>();
  private posted = 0;

  post(entry: JournalEntry): EntryPlace {
    const previous_hash = this.heads.get(entry.currency_id) ?? GENESIS_HASH;
    this.posted += 1;
    const link = { previous_hash, hash: entryHash(entry, previous_hash), entry_number: this.posted };
    this.heads.set(entry.currency_id, link.hash);
    this.links.set(entry.id, link);
    return link;
  }

  linkOf(entryId: string): EntryPlace {
    const link = this.links.get(entryId);
    if (link === undefined) throw new Error(`entry ${entryId} was not posted in this model`);
    return link;
  }
}

/** What `listAccountLines` answers for each line of an entry on the given account(s). */
export function accountLinesOf(entry: JournalEntry, accounts: readonly Account[], onAccount: (accountId: string) => boolean,
  entryNumber: number): AccountLine[] {
  return entryView(entry, accounts).lines.filter((line) => onAccount(line.account_id)).map((line) => ({
    ...line,
    journal_entry_id: entry.id,
    entry_number: entryNumber,
    entry_date: entry.entry_date,
    entry_description: entry.description,
    reference: entry.reference,
  }));
}

/**
 * Gross debit and credit totals per account of the lines of the entries `include` accepts (all by
 * default), summed from the lines themselves: the model every maintained total must equal. Only
 * accounts with a line appear, as in `accountTotals`.
 */
export function totalsOf(entries: readonly JournalEntry[], include: (entry: JournalEntry) => boolean = () => true,
  accountIds?: readonly string[]): Map<string, Totals> {
  const sums = new Map<string, { debit: bigint; credit: bigint }>();
  for (const entry of entries) {
    if (!include(entry)) continue;
    for (const line of entry.lines) {
      if (accountIds && !accountIds.includes(line.account_id)) continue;
      const sum = sums.get(line.account_id) ?? { debit: 0n, credit: 0n };
      sum.debit += line.debit_amount;
      sum.credit += line.credit_amount;
      sums.set(line.account_id, sum);
    }
  }
  return new Map([...sums].map(([accountId, sum]) => [accountId, { debit_total: sum.debit as AmountMinor, credit_total: sum.credit as AmountMinor }]));
}

/** The all-time debit total per currency of the entries, for the currencies with any line. */
export function currencyDebitTotalsOf(entries: readonly JournalEntry[]): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const entry of entries) {
    const debits = entry.lines.reduce((sum, line) => sum + line.debit_amount, 0n);
    totals.set(entry.currency_id, (totals.get(entry.currency_id) ?? 0n) + debits);
  }
  return totals;
}

function missingAccount(id: string): never {
  throw new Error(`the fixture was not given account ${id}`);
}

export function userFixture(name: string, overrides: Partial<NewUserRecord> = {}): NewUserRecord {
  return {
    id: `user-${name}`,
    name: `User ${name}`,
    email: `${name}@example.com`,
    user_type: 'human',
    permissions: {},
    is_active: true,
    created_at: FIXTURE_TIME,
    password_hash: `scrypt$hash-of-${name}`,
    ...overrides,
  };
}

export function adminFixture(name: string, overrides: Partial<NewUserRecord> = {}): NewUserRecord {
  return userFixture(name, { permissions: { admin: true } satisfies Permissions, ...overrides });
}

/** A service account: no e-mail, no password, authenticated by API key. */
export function serviceAccountFixture(name: string, overrides: Partial<NewUserRecord> = {}): NewUserRecord {
  return userFixture(name, { user_type: 'service', email: null, password_hash: null, ...overrides });
}

export function apiKeyFixture(user: { id: string }, name: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return { id: `api-key-${name}`, user_id: user.id, key_hash: `key-hash-${name}`, created_at: FIXTURE_TIME, ...overrides };
}

export function refreshTokenFixture(user: { id: string }, name: string, familyId: string,
  overrides: Partial<RefreshTokenRecord> = {}): RefreshTokenRecord {
  return {
    id: `refresh-${name}`,
    user_id: user.id,
    family_id: familyId,
    token_hash: `token-hash-${name}`,
    created_at: FIXTURE_TIME,
    expires_at: '2026-02-01T00:00:00.000Z',
    revoked_at: null,
    replaced_by: null,
    ...overrides,
  };
}

/**
 * An audit record numbered `n` (id `audit-0007`), occurring `n` seconds after FIXTURE_TIME unless
 * overridden: by default an admin's account update through an API key within a request.
 */
export function auditRecordFixture(n: number, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    id: `audit-${String(n).padStart(4, '0')}`,
    occurred_at: new Date(Date.parse(FIXTURE_TIME) + n * 1000).toISOString(),
    actor_id: 'user-admin',
    credential_type: 'api_key',
    credential_id: 'api-key-admin',
    request_id: `request-${n}`,
    action: 'account.update',
    target_type: 'account',
    target_id: 'account-1000',
    changes: { name: { old: 'Cash', new: `Cash ${n}` } },
    hash: null,
    ...overrides,
  };
}

/**
 * A small chart in two currencies over three months of 2026: cash and a bank control account with
 * two sub-accounts, sales, rent, retained earnings, and a euro till. The periods are January,
 * February and March; April is left without a period.
 */
export function standardBooks() {
  const usd = currencyFixture('USD');
  const eur = currencyFixture('EUR');
  const cash = accountFixture('1000', usd, { name: 'Cash' });
  const bank = controlAccountFixture('1100', usd, { name: 'Banks' });
  const bankNorth = subAccountFixture('1100-01', bank, 'north-bank', { name: 'North Bank' });
  const bankSouth = subAccountFixture('1100-02', bank, 'south-bank', { name: 'South Bank' });
  const retained = accountFixture('3000', usd, { name: 'Retained earnings', account_type: 'equity' });
  const sales = accountFixture('4000', usd, { name: 'Sales', account_type: 'revenue' });
  const rent = accountFixture('5000', usd, { name: 'Rent', account_type: 'expense' });
  const till = accountFixture('1200', eur, { name: 'Euro till' });
  const euroSales = accountFixture('4100', eur, { name: 'Euro sales', account_type: 'revenue' });
  const january = monthPeriod('2026-01');
  const february = monthPeriod('2026-02');
  const march = monthPeriod('2026-03');
  return {
    usd, eur, cash, bank, bankNorth, bankSouth, retained, sales, rent, till, euroSales,
    currencies: [usd, eur],
    accounts: [cash, bank, bankNorth, bankSouth, till, retained, sales, euroSales, rent],
    january, february, march,
    periods: [january, february, march],
  };
}

export type StandardBooks = ReturnType<typeof standardBooks>;

/** Inserts the currencies, accounts (parents first) and periods of the books. */
export async function insertBooks(tx: LedgerWrites, books: StandardBooks): Promise<void> {
  for (const currency of books.currencies) await tx.insertCurrency(currency);
  for (const account of books.accounts) await tx.insertAccount(account);
  for (const period of books.periods) await tx.insertPeriod(period);
}

/**
 * A seeded pseudo-random generator (mulberry32) for workloads that must be reproducible: a failing
 * run is repeated exactly by giving the same seed.
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [low, high]. */
  integer(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  /** A positive bigint of at most `bits` bits. */
  amount(bits: number): bigint {
    let value = 0n;
    for (let produced = 0; produced < bits; produced += 16) value = (value << 16n) | BigInt(this.integer(0, 0xffff));
    const bounded = value & ((1n << BigInt(bits)) - 1n);
    return bounded === 0n ? 1n : bounded;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.integer(0, items.length - 1)];
    if (item === undefined) throw new Error('cannot pick from an empty list');
    return item;
  }
}
