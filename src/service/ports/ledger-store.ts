/**
 * The storage port. The service talks only to these interfaces; no driver type crosses them.
 * Adapters (storage/sqlite, storage/postgres) translate their driver's failures into LedgerError
 * codes (a unique violation becomes DUPLICATE, and so on). Every adapter passes the one contract
 * suite in test/storage/.
 */
import type { BankingReads, BankingWrites } from './banking-store.js';
import type { RatesReads, RatesWrites } from './rates-store.js';
import type { PageRequest, StorePage } from './store-pages.js';
import type { AuditAction, AuditRecord } from '../../domain/audit.js';
import type { AmountMinor } from '../../domain/money/amount.js';
import type {
  Account, AccountType, Currency, EntryType, JournalEntry, JournalEntryView, JournalLineView, NormalBalance, Period, Permissions,
  Totals, User,
} from '../../domain/types.js';

/** A keyset position: the sort-key values of the last row of the previous page. */
export type { Keyset, PageRequest, StorePage } from './store-pages.js';

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
  /**
   * Entries found by every one of these words (domain/journal/search-words.ts): each begins some
   * word of the entry's description, reference or line descriptions. Never empty when given.
   */
  words?: readonly string[] | undefined;
  /** With `words`: entries numbered this OR found by the words (a search for `12` finds entry 12 and words starting with 12). */
  or_entry_number?: number | undefined;
  /** Entries numbered exactly this. */
  entry_number?: number | undefined;
  /** Entries whose reference is exactly this. */
  reference?: string | undefined;
  /** Entries whose amount (the sum of their debits) is at least this. */
  min_amount?: bigint | undefined;
  /** Entries whose amount (the sum of their debits) is at most this. */
  max_amount?: bigint | undefined;
  entry_type?: EntryType | undefined;
}

export interface AccountLine extends JournalLineView {
  journal_entry_id: string;
  entry_number: number;
  entry_date: string;
  entry_description: string;
  reference: string | null;
}

/** The amount of one line on one side, with its entry's date. */
export interface SideAmount {
  entry_date: string;
  amount: AmountMinor;
  /** The entry's `metadata.due_date`, whatever it holds; null when it has none. */
  due_date: unknown;
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
  /** Entries dated from start_date to end_date, both included. */
  between?: { start_date: string; end_date: string } | undefined;
  account_ids?: readonly string[] | undefined;
}

export interface StoredUser extends User {
  password_hash: string | null;
}

/** A user found by one of its API keys, with the id of the key that matched. */
export interface ApiKeyUser extends StoredUser {
  api_key_id: string;
  /** The credentials version (`credentialsVersion`) this user and key were read at. */
  credentials_version: string;
}

/**
 * Which audit records, in which order of (occurred_at, id): newest first (`desc`, the default) or
 * oldest first. Dates are inclusive calendar days of occurred_at (UTC). The log holds the records
 * written by changes and the posts, each of which is read from its entry (docs/audit.md).
 */
export interface AuditLogFilter {
  actor_id?: string | undefined;
  action?: AuditAction | undefined;
  target_id?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
  order?: SortOrder | undefined;
  /** Only the records written as records, not the posts read from their entries (copying a ledger copies entries and records apart). */
  recorded_only?: boolean | undefined;
}

export interface IdempotencyRecord {
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: string;
}

/** An audit record with its place in the audit chain. */
export interface SealedAuditRecord {
  record: AuditRecord;
  position: number;
  previous_hash: string;
  hash: string;
}

/** An account's gross totals on one day. */
export interface DailyTotals extends Totals {
  account_id: string;
  entry_date: string;
}

/** An entry's place in its currency's hash chain. */
export interface ChainLink {
  previous_hash: string;
  hash: string;
}

/** Where a posted entry stands: its link in its currency's chain and its number in the ledger's posting order. */
export interface EntryPlace extends ChainLink {
  /** 1 for the first entry ever posted, then one more for each, without gaps (rolled-back posts take none). */
  entry_number: number;
}

export interface ApiKeyRecord {
  id: string;
  user_id: string;
  key_hash: string;
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

export interface LedgerReads extends BankingReads, RatesReads {
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
  /**
   * Gross totals per account and day, of these accounts, dated in the range (inclusive; either end
   * open), closing entries included; from the maintained daily totals (translated reports).
   */
  accountDailyTotals(accountIds: readonly string[], range: DateRange): Promise<DailyTotals[]>;
  /** The same, of closing entries only. */
  closingDailyTotals(accountIds: readonly string[], range: DateRange): Promise<DailyTotals[]>;
  /** Gross totals per account of closing entries only: all time, one period's, or those dated in a range. */
  closingTotals(scope: { period_id?: string | undefined; range?: DateRange | undefined }): Promise<Map<string, Totals>>;
  /** Lines in date order (then posting order), within the range, keyset-paged on [entry_date, seq]. */
  listAccountLines(scope: LineScope, range: DateRange, order: SortOrder, page: PageRequest): Promise<StorePage<AccountLine>>;
  /**
   * One posting account's amounts on one side (its debit lines' debit amounts, or its credit lines'
   * credit amounts), newest first by [entry_date, seq], dated on or before `throughDate`,
   * keyset-paged on [entry_date, seq]. Lines of an entry that was reversed, and of its reversal,
   * are left out when both entries are dated on or before `throughDate`: the pair cancels out on
   * every account it touches, so it is no open item. For aging open balances (aged receivables).
   */
  listSideAmounts(accountId: string, side: NormalBalance, throughDate: string, page: PageRequest): Promise<StorePage<SideAmount>>;

  getPeriod(id: string): Promise<Period | undefined>;
  /** The period whose inclusive bounds contain the date, whatever its status. */
  findPeriodContaining(date: string): Promise<Period | undefined>;
  findOverlappingPeriods(startDate: string, endDate: string): Promise<Period[]>;
  /** Whether any entry is posted in the period. */
  periodHasEntries(periodId: string): Promise<boolean>;
  /** What uses the account, in words ('journal lines', 'sub-accounts', 'bank rules', ...); [] when nothing does. */
  accountUses(accountId: string): Promise<string[]>;
  listPeriods(page: PageRequest): Promise<StorePage<Period>>;

  getEntry(id: string): Promise<JournalEntryView | undefined>;
  /** Several entries with their lines, in the order of `ids`; an unknown id is left out. */
  getEntries(ids: readonly string[]): Promise<JournalEntryView[]>;
  /** Entries by entry_date then posting order (or the reverse), keyset-paged on [entry_date, seq]. */
  listEntries(filter: EntryFilter, order: SortOrder, page: PageRequest): Promise<StorePage<JournalEntryView>>;
  /** Sum of all debits ever posted in the currency (bounds every report total). */
  currencyDebitTotal(currencyId: string): Promise<bigint>;
  /** Every currency's all-time debit total, for the currencies with any posted line. */
  allCurrencyDebitTotals(): Promise<Map<string, bigint>>;
  /** Every currency's chain head: the hash of its last posted entry, for the currencies with any. */
  currencyChainHeads(): Promise<Map<string, string>>;

  getSetting(key: string): Promise<string | undefined>;

  getUser(id: string): Promise<StoredUser | undefined>;
  /**
   * The user of an access token, read with whether its login session (refresh-token family) is
   * still open: some token of the family not revoked. Logout, refresh-token reuse, deactivation
   * and "sign out everywhere" revoke the family, which ends its access tokens at once.
   */
  getUserWithSession(id: string, sessionId: string): Promise<(StoredUser & { session_open: boolean }) | undefined>;
  findUserByEmail(email: string): Promise<StoredUser | undefined>;
  findUserByApiKeyHash(keyHash: string): Promise<ApiKeyUser | undefined>;
  /**
   * A value that changes whenever any user or API key changes, in any process (the database keeps
   * it). Equal values mean that every user and key is as it was: what was read at one value still
   * holds. Inside a write transaction, the value as that transaction sees it.
   */
  credentialsVersion(): Promise<string>;
  listUsers(page: PageRequest): Promise<StorePage<User>>;
  countUsers(): Promise<number>;
  /** Active users whose permissions include admin. */
  countActiveAdmins(): Promise<number>;
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /** Times (ISO) of the newest failed logins recorded for the key since `since`, newest first, at most `limit`. */
  recentLoginFailures(key: string, since: string, limit: number): Promise<string[]>;

  getIdempotencyRecord(principalId: string, key: string): Promise<IdempotencyRecord | undefined>;

  /**
   * Audit records matching the filter, keyset-paged on [occurred_at, id] in the filter's order:
   * the records written and, unless `recorded_only`, every entry of hash version 2 that is a post
   * (standard or reversal) as its record (domain/audit.ts, postingRecord).
   */
  listAuditLog(filter: AuditLogFilter, page: PageRequest): Promise<StorePage<AuditRecord>>;
  /** Sealed audit records in chain order with their links, keyset-paged on [position]. */
  listAuditChain(page: PageRequest): Promise<StorePage<SealedAuditRecord>>;
  /** How many records the audit log table holds, and how many of them are sealed into the chain (posts are on their entries' chains). */
  countAuditRecords(): Promise<{ records: number; sealed: number }>;

  // Whole-ledger reads, for copying a ledger between stores and for checking it.
  /** Entries with their lines in posting order (the order they were stored), keyset-paged on [seq]. */
  listEntriesInPostingOrder(page: PageRequest): Promise<StorePage<JournalEntryView>>;
  countEntries(): Promise<number>;
  /** Users with their stored password hashes, in id order, keyset-paged on [id]. */
  listStoredUsers(page: PageRequest): Promise<StorePage<StoredUser>>;
  /** API keys as stored (hashes only), in id order. */
  allApiKeys(): Promise<ApiKeyRecord[]>;
  allSettings(): Promise<Map<string, string>>;
}

export interface NewUserRecord extends User {
  password_hash: string | null;
}

export interface LedgerWrites extends BankingWrites, RatesWrites {
  insertCurrency(currency: Currency): Promise<void>;
  updateCurrency(id: string, changes: Partial<Pick<Currency, 'name' | 'symbol'>>): Promise<void>;

  insertAccount(account: Account): Promise<void>;
  updateAccount(id: string, changes: Partial<Pick<Account, 'name' | 'is_active' | 'xbrl_tag'>>): Promise<void>;

  insertPeriod(period: Period): Promise<void>;
  updatePeriod(id: string, changes: Partial<Pick<Period, 'status' | 'closed_at' | 'closed_by' | 'closing_entry_id'>>): Promise<void>;
  /** Removes an open period that holds no entries (the caller checked). */
  deletePeriod(id: string): Promise<void>;
  /** Removes an account nothing uses (the caller checked). */
  deleteAccount(id: string): Promise<void>;

  /**
   * Inserts the entry and its lines and adds them to every maintained total, atomically. The
   * adapter keeps the currency's all-time debit total within 2^127 - 1 (which bounds every balance
   * and report total) as the database sees it at commit, not as the caller last read it: an entry
   * that would break the bound is refused with `currencyTotalOverflow()` and writes nothing.
   * The entry joins its currency's hash chain (service/entry-hash.ts) after the currency's last
   * entry as the database sees it, and takes the ledger's next entry number (one more than the
   * last committed or earlier in this transaction: a post that is rolled back takes none); the
   * answer is the entry's link in that chain and its number.
   */
  insertEntry(entry: JournalEntry): Promise<EntryPlace>;

  setSetting(key: string, value: string): Promise<void>;
  /** Removes a setting; nothing happens when the key has no value. */
  deleteSetting(key: string): Promise<void>;
  /** Stores the value only when the key has none yet (two processes racing agree on one value). */
  setSettingIfAbsent(key: string, value: string): Promise<void>;

  insertUser(user: NewUserRecord): Promise<void>;
  updateUser(id: string, changes: Partial<Pick<StoredUser, 'name' | 'permissions' | 'is_active' | 'password_hash'>>): Promise<void>;
  insertApiKey(key: ApiKeyRecord): Promise<void>;
  /** Deletes every API key of the user (a rotation deletes the old key before inserting the new one). */
  deleteUserApiKeys(userId: string): Promise<void>;
  insertRefreshToken(token: RefreshTokenRecord): Promise<void>;
  revokeRefreshToken(id: string, revokedAt: string, replacedBy: string | null): Promise<void>;
  revokeRefreshFamily(familyId: string, revokedAt: string): Promise<void>;
  /** Revokes every refresh token of the user: every login session ends. */
  revokeUserRefreshTokens(userId: string, revokedAt: string): Promise<void>;

  /** Records one failed login under each key (an e-mail, a client address). */
  recordLoginFailure(keys: readonly string[], failedAt: string): Promise<void>;
  /**
   * Holds the throttle's keys until the transaction ends, so that counting a key's failures and
   * recording one more is atomic among all processes on the database (a login counts its attempt
   * before the password is hashed). SQLite's single write lock already does this.
   */
  lockLoginKeys(keys: readonly string[]): Promise<void>;
  /** Deletes one failure recorded at `failedAt` under each key: an attempt counted beforehand that succeeded. */
  forgetLoginFailure(keys: readonly string[], failedAt: string): Promise<void>;
  clearLoginFailures(key: string): Promise<void>;
  deleteLoginFailuresBefore(before: string): Promise<void>;

  /**
   * Holds the principal's key until this transaction ends, so that no other process acts under it
   * meanwhile; false when another open transaction holds it (a request in flight elsewhere). A
   * process that dies lets go of it with its transaction.
   */
  lockIdempotencyKey(principalId: string, key: string): Promise<boolean>;
  /** Reserves an idempotency key; false when the key already exists for the principal. */
  reserveIdempotencyKey(principalId: string, key: string, requestHash: string, createdAt: string): Promise<boolean>;
  completeIdempotencyKey(principalId: string, key: string, statusCode: number, responseBody: string): Promise<void>;
  /** Forgets the principal's key, its answer too (its request failed after all). */
  releaseIdempotencyKey(principalId: string, key: string): Promise<void>;
  deleteIdempotencyKeysBefore(createdBefore: string): Promise<void>;

  /**
   * Appends a record to the audit log. The log is append-only: the database itself refuses to
   * change or delete a record. A job's record commits or rolls back with the job's change.
   */
  insertAuditRecord(record: AuditRecord): Promise<void>;
  /**
   * Appends up to `limit` committed, unsealed audit records, in log order, to the audit chain
   * (service/entry-hash.ts auditRecordHash) and answers how many. The adapters call it right after
   * a commit that wrote audit records; one process seals at a time. With `unlessBusy`, it answers
   * undefined at once, sealing nothing, when another process is sealing (the caller tries later).
   */
  sealAuditRecords(limit: number, options?: { unlessBusy?: boolean }): Promise<number | undefined>;
}

/**
 * Reads and writes inside one write transaction. Where a rule depends on what a read saw, the read
 * holds that row against other writers (other processes too) until the transaction ends:
 * `findPeriodContaining` holds the period against a close (posts to one period run side by side),
 * `getPeriod` holds it against every post and close, `findRefreshToken` holds the token,
 * `countActiveAdmins` holds every active admin, `countUsers` holds the first-user setup, and
 * `findOverlappingPeriods` holds period creation. Uniqueness (reversals, idempotency keys, codes,
 * numbers, e-mails) is kept by the database's own constraints.
 *
 * A call that fails rejects at once with a LedgerError where the failure is the caller's (a
 * duplicate is DUPLICATE, an entry past its currency's bound is `currencyTotalOverflow()`). After
 * one refused call the job is over: later calls reject with the same error and the whole job is
 * rolled back, even if it caught the error and went on.
 */
export interface LedgerTx extends LedgerReads, LedgerWrites {}

export interface LedgerStore extends LedgerReads {
  /**
   * Runs `work` in one write transaction: all of it commits or none of it does, and it behaves as
   * if no other writer ran at the same time (the rules above). A rejected `work` rolls back only
   * its own changes. A transaction that loses a race with another process (a serialisation
   * failure or deadlock) is run again by the adapter, so `work` may run more than once and must
   * act only through `tx`: hash passwords, sign tokens and do any other slow or asynchronous work
   * before or after.
   */
  write<T>(work: (tx: LedgerTx) => Promise<T>): Promise<T>;
  /**
   * Runs `work` on one consistent snapshot of committed data: every read inside sees the same
   * state, whatever other processes commit meanwhile. Reports and any answer built from several
   * reads use it.
   */
  read<T>(work: (reads: LedgerReads) => Promise<T>): Promise<T>;
  /** True when the database answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export type { Permissions };
