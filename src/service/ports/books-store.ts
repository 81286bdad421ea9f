/**
 * The storage port's books concern: currencies, accounts, periods, posted entries and their lines,
 * the maintained totals and settings. Composed into LedgerReads and LedgerWrites
 * (ledger-store.ts).
 */
import type { AmountMinor } from '../../domain/money/amount.js';
import type {
  Account, AccountType, Currency, EntryType, JournalEntry, JournalEntryView, JournalLineView, NormalBalance, Period, Totals,
} from '../../domain/types.js';
import type { PageRequest, StorePage } from './store-pages.js';

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

export interface BooksReads {
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
}

/** What an update of a currency, an account or a period may change. */
export type CurrencyChanges = Partial<Pick<Currency, 'name' | 'symbol'>>;
export type AccountChanges = Partial<Pick<Account, 'name' | 'is_active' | 'xbrl_tag'>>;
export type PeriodChanges = Partial<Pick<Period, 'status' | 'closed_at' | 'closed_by' | 'closing_entry_id'>>;

export interface BooksWrites {
  insertCurrency(currency: Currency): Promise<void>;
  updateCurrency(id: string, changes: CurrencyChanges): Promise<void>;

  insertAccount(account: Account): Promise<void>;
  updateAccount(id: string, changes: AccountChanges): Promise<void>;

  insertPeriod(period: Period): Promise<void>;
  updatePeriod(id: string, changes: PeriodChanges): Promise<void>;
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
}
