/**
 * Writes of the books: currencies, accounts, periods, settings, and posting an entry with its
 * lines and every maintained total. SQLite has no 128-bit arithmetic, so totals are decimal TEXT
 * read, added in bigint and written back, inside the (exclusive) write transaction, once per row
 * and transaction (pending-writes.ts).
 */
import { currencyTotalOverflow } from '../../domain/errors.js';
import { MAX_AMOUNT, toDecimalString } from '../../domain/money/amount.js';
import { entryHash, GENESIS_HASH } from '../../service/entry-hash.js';
import type { AccountChanges, CurrencyChanges, LedgerWrites, PeriodChanges } from '../../service/ports/ledger-store.js';
import { entryDebitTotal, entryTotalsByAccount } from '../shared/paging.js';
import { entrySearchWords } from '../../domain/journal/search-words.js';
import { amountKey, wordsText } from './entry-search.js';
import { NEXT_EVENT_SEQ } from './events.js';
import type { AccountCache } from '../shared/account-cache.js';
import type { PeriodMemo } from '../shared/period-memo.js';
import type { PendingWrites } from './pending-writes.js';
import type { SqliteQueries } from './queries.js';
import type { Account, Currency, JournalEntry, Period } from '../../domain/types.js';
import type { EntryPlace } from '../../service/ports/books-store.js';

const INSERT_ENTRY = `INSERT INTO journal_entries (id, entry_date, description, reference, metadata, period_id,
  entry_type, reverses_id, created_by, posted_at, currency_id, override_reason, hash_version, credential_type, credential_id,
  request_id, previous_hash, hash, debit_key, entry_number, event_seq)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(entry_number), 0) + 1 FROM journal_entries),
    ${NEXT_EVENT_SEQ})
  RETURNING seq, entry_number`;

/**
 * A line goes after its entry's earlier lines, keyed (entry_seq, seq) (migration 16). Its seq, its
 * place in posting order, is one more than the table's last row's: the entry was numbered after
 * every other, so that row holds the highest seq, and finding it is one step down the key.
 */
const INSERT_LINE = `INSERT INTO journal_lines (entry_seq, seq, id, account_id, parent_account_id, entry_date, debit_amount,
  credit_amount, description) VALUES (?, coalesce((SELECT seq FROM journal_lines ORDER BY entry_seq DESC, seq DESC LIMIT 1), 0) + 1,
  ?, ?, (SELECT parent_id FROM accounts WHERE id = ?), ?, ?, ?, ?)`;

export abstract class SqliteBooksWrites implements Partial<LedgerWrites> {
  declare readonly q: SqliteQueries;
  declare readonly pending: PendingWrites;
  /** What the transaction remembers of accounts and periods: forgotten when one changes. */
  declare readonly accounts: AccountCache;
  declare readonly periods: PeriodMemo;

  async insertCurrency(currency: Currency): Promise<void> {
    this.q.run(`INSERT INTO currencies (id, code, name, symbol, asset_scale, asset_type, caip19_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, currency.id, currency.code, currency.name, currency.symbol,
    currency.asset_scale, currency.asset_type, currency.caip19_id, currency.created_at);
  }

  async updateCurrency(id: string, changes: CurrencyChanges): Promise<void> {
    this.q.update('currencies', id, changes);
  }

  async insertAccount(account: Account): Promise<void> {
    this.accounts.clear();
    this.q.run(`INSERT INTO accounts (id, account_number, name, currency_id, account_type, normal_balance,
      has_subledger, parent_id, entity_id, xbrl_tag, is_active, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    account.id, account.account_number, account.name, account.currency_id, account.account_type,
    account.normal_balance, account.has_subledger ? 1 : 0, account.parent_id, account.entity_id, account.xbrl_tag,
    account.is_active ? 1 : 0, account.created_at);
  }

  async updateAccount(id: string, changes: AccountChanges): Promise<void> {
    this.accounts.clear();
    this.q.update('accounts', id, changes);
  }

  async insertPeriod(period: Period): Promise<void> {
    this.periods.clear();
    this.q.run(`INSERT INTO periods (id, name, start_date, end_date, status, closed_at, closed_by, closing_entry_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, period.id, period.name, period.start_date, period.end_date, period.status,
    period.closed_at, period.closed_by, period.closing_entry_id, period.created_at);
  }

  async updatePeriod(id: string, changes: PeriodChanges): Promise<void> {
    this.periods.clear();
    this.q.update('periods', id, changes);
  }

  async deletePeriod(id: string): Promise<void> {
    this.periods.clear();
    this.q.run('DELETE FROM periods WHERE id = ?', id);
  }

  async deleteAccount(id: string): Promise<void> {
    this.accounts.clear();
    this.q.run('DELETE FROM accounts WHERE id = ?', id);
  }

  async insertEntry(entry: JournalEntry): Promise<EntryPlace> {
    // The write transaction is exclusive, so the total and chain head known here are the ones
    // this entry adds to. The totals and the entry's words are written before the transaction commits (pending-writes.ts).
    const currency = this.pending.currency(entry.currency_id);
    const debits = entryDebitTotal(entry.lines);
    const currencyTotal = currency.total + debits;
    if (currencyTotal > MAX_AMOUNT) throw currencyTotalOverflow();
    const previousHash = currency.head ?? GENESIS_HASH;
    const hash = entryHash(entry, previousHash);
    // The next number (and event number, events.ts) is one more than the highest committed or posted
    // earlier in this (exclusive) transaction; a job rolled back to its savepoint takes its numbers with it.
    const { seq: entrySeq, entry_number: entryNumber } = this.q.get<{ seq: number; entry_number: number }>(INSERT_ENTRY,
      entry.id, entry.entry_date, entry.description, entry.reference,
      entry.metadata === null ? null : JSON.stringify(entry.metadata), entry.period_id, entry.entry_type,
      entry.reverses_id, entry.created_by, entry.posted_at, entry.currency_id, entry.override_reason, entry.hash_version,
      entry.credential_type, entry.credential_id, entry.request_id, previousHash, hash, amountKey(debits))!;
    for (const line of entry.lines) {
      this.q.run(INSERT_LINE, entrySeq, line.id, line.account_id, line.account_id, entry.entry_date,
        toDecimalString(line.debit_amount), toDecimalString(line.credit_amount), line.description);
    }
    this.pending.addEntry(entry.currency_id, { total: currencyTotal, head: hash }, entry.period_id, entry.entry_date,
      entryTotalsByAccount(entry.lines), [entrySeq, wordsText(entrySearchWords(entry))]);
    return { previous_hash: previousHash, hash, entry_number: entryNumber };
  }

  async setSetting(key: string, value: string): Promise<void> {
    this.q.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value);
  }

  async deleteSetting(key: string): Promise<void> {
    this.q.run('DELETE FROM settings WHERE key = ?', key);
  }

  async setSettingIfAbsent(key: string, value: string): Promise<void> {
    this.q.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', key, value);
  }
}
