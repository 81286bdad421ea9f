/**
 * The storage port. The service talks only to these interfaces; no driver type crosses them.
 * Adapters (SQLite now, PostgreSQL later) translate their driver's failures into LedgerError
 * codes (a unique violation becomes DUPLICATE, and so on).
 */
import type {
  Account, AccountType, Currency, JournalEntry, JournalEntryView, JournalLineView, Period, Permissions,
  Totals, User,
} from '../../domain/types.js';

/** A keyset position: the sort-key values of the last row of the previous page. */
export type Keyset = readonly (string | number)[];

export interface PageRequest {
  limit: number;
  after?: Keyset | undefined;
}

export interface StorePage<T> {
  items: T[];
  /** The keyset of the last item, when more rows follow. */
  next: Keyset | undefined;
}

export interface AccountFilter {
  account_type?: AccountType | undefined;
  currency_id?: string | undefined;
  is_active?: boolean | undefined;
  parent_id?: string | undefined;
}

export interface EntryFilter {
  period_id?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
  /** Entries with a line in this scope (a control account: any of its sub-accounts). */
  lines?: LineScope | undefined;
}

export interface AccountLine extends JournalLineView {
  journal_entry_id: string;
  entry_date: string;
  entry_description: string;
  reference: string | null;
}

/** Whose lines: one posting account's, or every sub-account's of a control account. */
export type LineScope = { account_id: string } | { parent_id: string };

/** Inclusive calendar-date bounds; either may be open. */
export interface DateRange {
  start_date?: string | undefined;
  end_date?: string | undefined;
}

export type SortOrder = 'asc' | 'desc';

/**
 * Which entries a totals query sums: all time (empty), one period, or every entry dated before a
 * date; optionally only some accounts.
 */
export interface TotalsQuery {
  period_id?: string | undefined;
  before_date?: string | undefined;
  account_ids?: readonly string[] | undefined;
}

export interface StoredUser extends User {
  password_hash: string | null;
}

export interface IdempotencyRecord {
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: string;
}

export interface RefreshTokenRecord {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  replaced_by: string | null;
}

export interface LedgerReads {
  getCurrency(id: string): Promise<Currency | undefined>;
  listCurrencies(page: PageRequest): Promise<StorePage<Currency>>;

  getAccount(id: string): Promise<Account | undefined>;
  getAccounts(ids: readonly string[]): Promise<Map<string, Account>>;
  listAccounts(filter: AccountFilter, page: PageRequest): Promise<StorePage<Account>>;
  listSubAccounts(parentId: string): Promise<Account[]>;
  /** Every account, ordered by account_number (charts of accounts are small). */
  allAccounts(): Promise<Account[]>;
  /** Gross debit and credit totals per account with activity, from maintained totals (no line scan). */
  accountTotals(query: TotalsQuery): Promise<Map<string, Totals>>;
  /** Gross totals per account of closing entries only: all time, one period's, or those dated in a range. */
  closingTotals(scope: { period_id?: string | undefined; range?: DateRange | undefined }): Promise<Map<string, Totals>>;
  /** Lines in date order (then posting order), within the range, keyset-paged on [entry_date, seq]. */
  listAccountLines(scope: LineScope, range: DateRange, order: SortOrder, page: PageRequest): Promise<StorePage<AccountLine>>;

  getPeriod(id: string): Promise<Period | undefined>;
  /** The period whose inclusive bounds contain the date, whatever its status. */
  findPeriodContaining(date: string): Promise<Period | undefined>;
  findOverlappingPeriods(startDate: string, endDate: string): Promise<Period[]>;
  listPeriods(page: PageRequest): Promise<StorePage<Period>>;

  getEntry(id: string): Promise<JournalEntryView | undefined>;
  /** Entries by entry_date then posting order (or the reverse), keyset-paged on [entry_date, seq]. */
  listEntries(filter: EntryFilter, order: SortOrder, page: PageRequest): Promise<StorePage<JournalEntryView>>;
  /** Sum of all debits ever posted in the currency (bounds every report total). */
  currencyDebitTotal(currencyId: string): Promise<bigint>;

  getSetting(key: string): Promise<string | undefined>;

  getUser(id: string): Promise<StoredUser | undefined>;
  findUserByEmail(email: string): Promise<StoredUser | undefined>;
  findUserByApiKeyHash(keyHash: string): Promise<StoredUser | undefined>;
  listUsers(page: PageRequest): Promise<StorePage<User>>;
  countUsers(): Promise<number>;
  /** Active users whose permissions include admin. */
  countActiveAdmins(): Promise<number>;
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined>;

  getIdempotencyRecord(principalId: string, key: string): Promise<IdempotencyRecord | undefined>;
}

export interface NewUserRecord extends User {
  password_hash: string | null;
}

export interface LedgerWrites {
  insertCurrency(currency: Currency): Promise<void>;
  updateCurrency(id: string, changes: Partial<Pick<Currency, 'name' | 'symbol'>>): Promise<void>;

  insertAccount(account: Account): Promise<void>;
  updateAccount(id: string, changes: Partial<Pick<Account, 'name' | 'is_active' | 'xbrl_tag'>>): Promise<void>;

  insertPeriod(period: Period): Promise<void>;
  updatePeriod(id: string, changes: Partial<Pick<Period, 'status' | 'closed_at' | 'closed_by' | 'closing_entry_id'>>): Promise<void>;

  /**
   * Inserts the entry and its lines and adds them to every maintained total, atomically.
   * `currencyDebitTotal` is the currency's all-time debit total including this entry, which the
   * caller has read (`currencyDebitTotal`) and checked against the 128-bit bound.
   */
  insertEntry(entry: JournalEntry, currencyDebitTotal: bigint): Promise<void>;

  setSetting(key: string, value: string): Promise<void>;

  insertUser(user: NewUserRecord): Promise<void>;
  updateUser(id: string, changes: Partial<Pick<StoredUser, 'name' | 'permissions' | 'is_active' | 'password_hash'>>): Promise<void>;
  insertApiKey(key: { id: string; user_id: string; key_hash: string; created_at: string }): Promise<void>;
  insertRefreshToken(token: RefreshTokenRecord): Promise<void>;
  revokeRefreshToken(id: string, revokedAt: string, replacedBy: string | null): Promise<void>;
  revokeRefreshFamily(familyId: string, revokedAt: string): Promise<void>;

  /** Reserves an idempotency key; false when the key already exists for the principal. */
  reserveIdempotencyKey(principalId: string, key: string, requestHash: string, createdAt: string): Promise<boolean>;
  completeIdempotencyKey(principalId: string, key: string, statusCode: number, responseBody: string): Promise<void>;
  releaseIdempotencyKey(principalId: string, key: string): Promise<void>;
  deleteIdempotencyKeysBefore(createdBefore: string): Promise<void>;
}

export interface LedgerTx extends LedgerReads, LedgerWrites {}

export interface LedgerStore extends LedgerReads {
  /**
   * Runs `work` in one serialisable write transaction: all of it commits or none of it does.
   * A rejected `work` rolls back only its own changes. Every other writer waits while `work`
   * runs, so it should only read and write through `tx`: hash passwords, sign tokens and do any
   * other slow or asynchronous work before or after.
   */
  write<T>(work: (tx: LedgerTx) => Promise<T>): Promise<T>;
  /** True when the database answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export type { Permissions };
