/**
 * Writes of the books: currencies, accounts, periods, settings, and posting an entry. A posted
 * entry waits in the transaction's WriteBuffer, which writes it with its lines, chain link and
 * every maintained total (write-buffer.ts). Totals are added by the database itself (`numeric` is
 * exact at any size) as atomic upserts, so concurrent posts on several servers lose and double
 * nothing, and the `amount` domain refuses any total past 2^127 - 1.
 */
import { currencyTotalOverflow } from '../../domain/errors.js';
import { MAX_AMOUNT, parseStoredAmount } from '../../domain/money/amount.js';
import { GENESIS_HASH } from '../../service/entry-hash.js';
import type { AccountChanges, CurrencyChanges, LedgerWrites, PeriodChanges } from '../../service/ports/ledger-store.js';
import { entryDebitTotal } from '../shared/paging.js';
import type { PgQueries } from './queries.js';
import type { CurrencyState } from './write-buffer.js';
import type { WriteTransaction } from './write-transaction.js';
import type { Account, Currency, JournalEntry, Period } from '../../domain/types.js';
import type { EntryPlace } from '../../service/ports/books-store.js';

/** Locks the currency's total for the rest of the transaction (creating its row the first time) and answers it. */
async function lockCurrency(transaction: WriteTransaction, currencyId: string): Promise<CurrencyState> {
  type Locked = { debit_total: string; chain_hash: string | null };
  let row = await transaction.locks.get<Locked>(LOCK_CURRENCY_TOTAL, currencyId);
  if (!row) {
    // A write of the job (its savepoint first): the currency's first entry ever.
    await transaction.q.run('INSERT INTO currency_totals (currency_id, debit_total) VALUES ($1, 0) ON CONFLICT (currency_id) DO NOTHING',
      currencyId);
    row = (await transaction.locks.get<Locked>(LOCK_CURRENCY_TOTAL, currencyId))!;
  }
  return { total: parseStoredAmount(row.debit_total), head: row.chain_hash ?? GENESIS_HASH };
}

/**
 * The currency's total is the one row every post in the currency touches, so posts queue on it
 * before they hold any other totals row: the lock order is the same everywhere.
 */
const LOCK_CURRENCY_TOTAL = 'SELECT debit_total::text AS debit_total, chain_hash FROM currency_totals WHERE currency_id = $1 FOR UPDATE';

/** The last entry number given, locked until the transaction ends (numbers follow commit order, without gaps). */
const LOCK_ENTRY_NUMBERS = 'SELECT last_number::text AS last, last_event::text AS last_event FROM entry_numbers FOR UPDATE';

/**
 * Holds the numbers' row (entry and event numbers) until the transaction ends, once per transaction:
 * numbers then follow commit order without gaps, whichever server gives them.
 */
export async function lockNumbers(transaction: WriteTransaction): Promise<void> {
  if (transaction.buffer.lastNumber !== undefined) return;
  const row = (await transaction.locks.get<{ last: string; last_event: string }>(LOCK_ENTRY_NUMBERS))!;
  transaction.buffer.lockedNumbers(Number(row.last), Number(row.last_event));
}

export abstract class PostgresBooksWrites implements Partial<LedgerWrites> {
  declare readonly q: PgQueries;
  declare readonly transaction: WriteTransaction;

  async insertCurrency(currency: Currency): Promise<void> {
    await this.q.run(`INSERT INTO currencies (id, code, name, symbol, asset_scale, asset_type, caip19_id, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, currency.id, currency.code, currency.name, currency.symbol,
    currency.asset_scale, currency.asset_type, currency.caip19_id, currency.created_at);
  }

  async updateCurrency(id: string, changes: CurrencyChanges): Promise<void> {
    await this.q.update('currencies', id, changes);
  }

  async insertAccount(account: Account): Promise<void> {
    this.transaction.forget();
    await this.q.run(`INSERT INTO accounts (id, account_number, name, currency_id, account_type, normal_balance,
      has_subledger, parent_id, entity_id, xbrl_tag, is_active, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    account.id, account.account_number, account.name, account.currency_id, account.account_type,
    account.normal_balance, account.has_subledger, account.parent_id, account.entity_id, account.xbrl_tag,
    account.is_active, account.created_at);
  }

  async updateAccount(id: string, changes: AccountChanges): Promise<void> {
    this.transaction.forget();
    await this.q.update('accounts', id, changes);
  }

  async insertPeriod(period: Period): Promise<void> {
    this.transaction.forget();
    await this.q.run(`INSERT INTO periods (id, name, start_date, end_date, status, closed_at, closed_by, closing_entry_id, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, period.id, period.name, period.start_date, period.end_date, period.status,
    period.closed_at, period.closed_by, period.closing_entry_id, period.created_at);
  }

  async updatePeriod(id: string, changes: PeriodChanges): Promise<void> {
    this.transaction.forget();
    await this.q.update('periods', id, changes);
  }

  async deletePeriod(id: string): Promise<void> {
    this.transaction.forget();
    await this.q.run('DELETE FROM periods WHERE id = $1', id);
  }

  async deleteAccount(id: string): Promise<void> {
    this.transaction.forget();
    await this.q.run('DELETE FROM accounts WHERE id = $1', id);
  }

  async insertEntry(entry: JournalEntry): Promise<EntryPlace> {
    const { buffer } = this.transaction;
    // The numbers' row first, then the currency's total: one lock order for every post.
    await lockNumbers(this.transaction);
    let currency = buffer.currency(entry.currency_id);
    if (!currency) {
      currency = await lockCurrency(this.transaction, entry.currency_id);
      buffer.locked(entry.currency_id, currency);
    }
    // Exact: the currency's row is locked, so no other transaction can add to it or to its chain
    // meanwhile. A refused entry fails its job, and what the job added is forgotten.
    const debits = entryDebitTotal(entry.lines);
    if (currency.total + debits > MAX_AMOUNT) throw currencyTotalOverflow();
    const link = buffer.addEntry(entry, debits);
    // A reversal is written at once: the database refuses a second reversal of an entry (a
    // unique constraint), and the refusal must reach the job that posts it.
    if (buffer.full || entry.reverses_id !== null) await this.transaction.flush();
    return link;
  }

  async setSetting(key: string, value: string): Promise<void> {
    await this.q.run('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value);
  }

  async deleteSetting(key: string): Promise<void> {
    await this.q.run('DELETE FROM settings WHERE key = $1', key);
  }

  async setSettingIfAbsent(key: string, value: string): Promise<void> {
    await this.q.run('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', key, value);
  }
}
