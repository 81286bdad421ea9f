/**
 * Copying a whole ledger from one store into an empty one (`ledger copy`), for moving the books
 * between SQLite and PostgreSQL. It talks only to the storage port, so any pair of adapters works.
 *
 * The source is read on one snapshot (`source.read`), so a ledger that is being written meanwhile
 * still copies as one consistent state. The target is written in one transaction
 * (`target.write`): the copy appears whole or not at all. Entries keep their ids, their lines'
 * ids and their posting order, and each goes through `insertEntry`, which rebuilds every
 * maintained total on the target; before committing, the target's totals are compared with the
 * source's.
 *
 * Users keep their password hashes and service accounts their API key hashes, and the settings
 * are copied with the secrets among them, so passwords, API keys and list cursors keep working on
 * the target. The audit log is copied record for record: the books' history moves with them (the
 * copy itself is not a change of the books and adds no record). Sessions (refresh tokens, and so
 * the access tokens of their logins), idempotency keys and failed-login records are not copied:
 * they are short-lived, and users simply log in again.
 */
import { isPostingRecord } from '../domain/audit.js';
import { LedgerError, validationError } from '../domain/errors.js';
import type { Account, JournalEntry, JournalEntryView, Totals } from '../domain/types.js';
import { copyBanking } from './copy-banking.js';
import type { LedgerReads, LedgerStore, LedgerTx, PageRequest, StorePage } from './ports/ledger-store.js';

export interface CopySummary {
  currencies: number;
  accounts: number;
  periods: number;
  entries: number;
  lines: number;
  users: number;
  api_keys: number;
  settings: number;
  audit_records: number;
  bank_statements: number;
  bank_lines: number;
  bank_rules: number;
  reconciliations: number;
  exchange_rates: number;
}

/** Called after each page of entries written to the target, with the count so far and the whole. */
export type CopyProgress = (copiedEntries: number, totalEntries: number) => void;

const PAGE_SIZE = 500;

export async function copyLedger(source: LedgerStore, target: LedgerStore, onProgress?: CopyProgress): Promise<CopySummary> {
  // The snapshot is taken outside the write, so a write the target's adapter runs again (after
  // losing a race) copies the very same state.
  return source.read((reads) => target.write(async (tx) => {
    await assertEmpty(tx);
    const currencies = await copyCurrencies(reads, tx);
    const accounts = await copyAccounts(reads, tx);
    const periods = await copyPeriods(reads, tx);
    const { entries, lines, posts } = await copyEntries(reads, tx, onProgress);
    // A period points at its closing entry, so it gets the pointer once the entry is there.
    for (const [periodId, closingEntryId] of periods.closingEntries) {
      await tx.updatePeriod(periodId, { closing_entry_id: closingEntryId });
    }
    await assertSameTotals(reads, tx);
    const users = await copyUsers(reads, tx);
    const apiKeys = await copyApiKeys(reads, tx);
    const settings = await copySettings(reads, tx);
    const banking = await copyBanking(reads, tx);
    const exchangeRates = await copyExchangeRates(reads, tx);
    // The log's records: the table's, copied, and the posts, which came with their entries.
    const auditRecords = (await copyAuditLog(reads, tx)) + posts;
    return { currencies, accounts, periods: periods.count, entries, lines, users, api_keys: apiKeys, settings, audit_records: auditRecords,
      ...banking, exchange_rates: exchangeRates };
  }, { alone: true }));
}

/** Every item of a keyset-paged listing, one page at a time. */
async function* pages<T>(list: (page: PageRequest) => Promise<StorePage<T>>): AsyncGenerator<T[]> {
  let page = await list({ limit: PAGE_SIZE });
  yield page.items;
  while (page.next !== undefined) {
    page = await list({ limit: PAGE_SIZE, after: page.next });
    yield page.items;
  }
}

/** Refuses a target that holds anything of a ledger: a copy never merges two sets of books. */
async function assertEmpty(tx: LedgerTx): Promise<void> {
  const found: string[] = [];
  if ((await tx.listCurrencies({ limit: 1 })).items.length > 0) found.push('currencies');
  if ((await tx.listAccounts({}, { limit: 1 })).items.length > 0) found.push('accounts');
  if ((await tx.listPeriods({ limit: 1 })).items.length > 0) found.push('periods');
  if ((await tx.countEntries()) > 0) found.push('journal entries');
  if ((await tx.countUsers()) > 0) found.push('users');
  if ((await tx.allSettings()).size > 0) found.push('settings');
  if ((await tx.listAuditLog({}, { limit: 1 })).items.length > 0) found.push('audit records');
  if (found.length === 1 && found[0] === 'settings') {
    // The secrets that the first `ledger serve` (or any other command) on a database stores there.
    throw validationError('The target database is not empty: it holds settings, stored by a command or server that already ran on it. '
      + 'Nothing was copied.', 'to', 'Copy into a database that is new or was only `ledger init`ed, then start `ledger serve` on it');
  }
  if (found.length > 0) {
    throw validationError(`The target database is not empty: it holds ${found.join(', ')}. Nothing was copied.`, 'to',
      'Copy into a new SQLite file, or a PostgreSQL database that is new or was only `ledger init`ed');
  }
}

async function copyCurrencies(reads: LedgerReads, tx: LedgerTx): Promise<number> {
  let count = 0;
  for await (const currencies of pages((page) => reads.listCurrencies(page))) {
    for (const currency of currencies) await tx.insertCurrency(currency);
    count += currencies.length;
  }
  return count;
}

/** Accounts ordered so that every control account comes before its sub-accounts. */
export function parentsFirst(accounts: readonly Account[]): Account[] {
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const ordered: Account[] = [];
  const placed = new Set<string>();
  const place = (account: Account) => {
    if (placed.has(account.id)) return;
    placed.add(account.id);
    const parent = account.parent_id === null ? undefined : byId.get(account.parent_id);
    if (parent) place(parent);
    ordered.push(account);
  };
  accounts.forEach(place);
  return ordered;
}

async function copyAccounts(reads: LedgerReads, tx: LedgerTx): Promise<number> {
  const accounts = parentsFirst(await reads.allAccounts());
  for (const account of accounts) await tx.insertAccount(account);
  return accounts.length;
}

/**
 * Periods with their status and who closed them when. A closing entry id is set only after the
 * entries are in (`closingEntries`: period id to entry id).
 */
async function copyPeriods(reads: LedgerReads, tx: LedgerTx): Promise<{ count: number; closingEntries: Map<string, string> }> {
  const closingEntries = new Map<string, string>();
  let count = 0;
  for await (const periods of pages((page) => reads.listPeriods(page))) {
    for (const period of periods) {
      await tx.insertPeriod({ ...period, closing_entry_id: null });
      if (period.closing_entry_id !== null) closingEntries.set(period.id, period.closing_entry_id);
    }
    count += periods.length;
  }
  return { count, closingEntries };
}

/** The entry as the port stores it: without the account names a reader sees on each line. */
function storedEntry(view: JournalEntryView): JournalEntry {
  return {
    ...view,
    lines: view.lines.map(({ id, account_id, debit_amount, credit_amount, description }) =>
      ({ id, account_id, debit_amount, credit_amount, description })),
  };
}

/**
 * Entries in posting order, so a reversal always follows the entry it reverses; each keeps who
 * posted it, and so its audit record (`posts`: how many are records of the log).
 */
async function copyEntries(reads: LedgerReads, tx: LedgerTx, onProgress?: CopyProgress): Promise<{ entries: number; lines: number; posts: number }> {
  const total = await reads.countEntries();
  let entries = 0;
  let lines = 0;
  let posts = 0;
  for await (const page of pages((request) => reads.listEntriesInPostingOrder(request))) {
    for (const entry of page) {
      await tx.insertEntry(storedEntry(entry));
      lines += entry.lines.length;
      if (isPostingRecord(entry)) posts += 1;
    }
    entries += page.length;
    if (page.length > 0) onProgress?.(entries, total);
  }
  return { entries, lines, posts };
}

function sameTotals(a: ReadonlyMap<string, Totals>, b: ReadonlyMap<string, Totals>): boolean {
  if (a.size !== b.size) return false;
  for (const [accountId, totals] of a) {
    const other = b.get(accountId);
    if (other === undefined || other.debit_total !== totals.debit_total || other.credit_total !== totals.credit_total) return false;
  }
  return true;
}

/**
 * The totals the target rebuilt while inserting must be the source's: every account's all-time
 * debits and credits, and every currency's debit total. A difference is a bug, and rolls the copy back.
 */
async function assertSameTotals(reads: LedgerReads, tx: LedgerTx): Promise<void> {
  const accountsMatch = sameTotals(await reads.accountTotals({}), await tx.accountTotals({}));
  const sourceCurrencies = await reads.allCurrencyDebitTotals();
  const targetCurrencies = await tx.allCurrencyDebitTotals();
  const currenciesMatch = sourceCurrencies.size === targetCurrencies.size
    && [...sourceCurrencies].every(([currencyId, total]) => targetCurrencies.get(currencyId) === total);
  if (!accountsMatch || !currenciesMatch) {
    throw new LedgerError('INTERNAL_ERROR', 'The copied totals differ from the source\'s; nothing was copied');
  }
}

async function copyUsers(reads: LedgerReads, tx: LedgerTx): Promise<number> {
  let count = 0;
  for await (const users of pages((page) => reads.listStoredUsers(page))) {
    for (const user of users) await tx.insertUser(user);
    count += users.length;
  }
  return count;
}

async function copyApiKeys(reads: LedgerReads, tx: LedgerTx): Promise<number> {
  const keys = await reads.allApiKeys();
  for (const key of keys) await tx.insertApiKey(key);
  return keys.length;
}

/** Each rate keeps its id and its created_at and updated_at. */
async function copyExchangeRates(reads: LedgerReads, tx: LedgerTx): Promise<number> {
  let count = 0;
  for await (const rates of pages((page) => reads.listExchangeRates({}, page))) {
    for (const rate of rates) await tx.upsertExchangeRate(rate);
    count += rates.length;
  }
  return count;
}

/** Oldest first, as the records were written. Posts are records on their entries, which are copied with them. */
async function copyAuditLog(reads: LedgerReads, tx: LedgerTx): Promise<number> {
  let count = 0;
  for await (const records of pages((page) => reads.listAuditLog({ order: 'asc', recorded_only: true }, page))) {
    for (const record of records) await tx.insertAuditRecord(record);
    count += records.length;
  }
  return count;
}

async function copySettings(reads: LedgerReads, tx: LedgerTx): Promise<number> {
  const settings = await reads.allSettings();
  for (const [key, value] of settings) await tx.setSetting(key, value);
  return settings.size;
}
