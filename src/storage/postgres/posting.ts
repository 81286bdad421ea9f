/**
 * Writes of the books: currencies, accounts, periods, settings, and posting an entry with its
 * lines and every maintained total. Totals are added by the database itself (`numeric` is exact
 * at any size), as atomic upserts, so concurrent posts on several servers lose and double
 * nothing; the `amount` domain refuses any total past 2^127 - 1.
 */
import { toDecimalString } from '../../domain/money/amount.js';
import type { LedgerWrites } from '../../service/ports/ledger-store.js';
import { entryDebitTotal, entryTotalsByAccount } from '../shared/paging.js';
import type { PgQueries } from './queries.js';

/**
 * The currency's total is added first, on its own: it is the one row every post in the currency
 * touches, so posts (and group-commit batches of other servers) queue on it before they hold any
 * other totals row, which keeps the lock order the same everywhere.
 */
const ADD_CURRENCY_TOTAL = `INSERT INTO currency_totals (currency_id, debit_total) VALUES ($1, $2)
  ON CONFLICT (currency_id) DO UPDATE SET debit_total = currency_totals.debit_total + excluded.debit_total`;

/** The entry, its lines in order, and the per-account totals (all time, per period, per day): one round trip. */
const INSERT_ENTRY = `WITH entry AS (
  INSERT INTO journal_entries (id, entry_date, description, reference, metadata, period_id, entry_type, reverses_id,
    created_by, posted_at, currency_id)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
  RETURNING seq
), lines AS (
  INSERT INTO journal_lines (id, entry_seq, account_id, parent_account_id, entry_date, debit_amount, credit_amount, description)
  SELECT line.id, entry.seq, line.account_id, account.parent_id, $2, line.debit_amount, line.credit_amount, line.description
  FROM entry
  CROSS JOIN unnest($12::text[], $13::text[], $14::numeric[], $15::numeric[], $16::text[])
    WITH ORDINALITY AS line(id, account_id, debit_amount, credit_amount, description, position)
  JOIN accounts account ON account.id = line.account_id
  ORDER BY line.position
), sums AS (
  SELECT * FROM unnest($17::text[], $18::numeric[], $19::numeric[]) AS sums(account_id, debit_total, credit_total)
), balances AS (
  INSERT INTO account_balances (account_id, debit_total, credit_total)
  SELECT account_id, debit_total, credit_total FROM sums
  ON CONFLICT (account_id) DO UPDATE SET debit_total = account_balances.debit_total + excluded.debit_total,
    credit_total = account_balances.credit_total + excluded.credit_total
), period_totals AS (
  INSERT INTO account_period_totals (account_id, period_id, debit_total, credit_total)
  SELECT account_id, $6, debit_total, credit_total FROM sums
  ON CONFLICT (account_id, period_id) DO UPDATE SET debit_total = account_period_totals.debit_total + excluded.debit_total,
    credit_total = account_period_totals.credit_total + excluded.credit_total
), daily_totals AS (
  INSERT INTO account_daily_totals (account_id, entry_date, debit_total, credit_total)
  SELECT account_id, $2, debit_total, credit_total FROM sums
  ON CONFLICT (account_id, entry_date) DO UPDATE SET debit_total = account_daily_totals.debit_total + excluded.debit_total,
    credit_total = account_daily_totals.credit_total + excluded.credit_total
)
SELECT seq FROM entry`;

export function postingWrites(q: PgQueries) {
  return {
    async insertCurrency(currency) {
      await q.run(`INSERT INTO currencies (id, code, name, symbol, asset_scale, asset_type, caip19_id, created_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, currency.id, currency.code, currency.name, currency.symbol,
      currency.asset_scale, currency.asset_type, currency.caip19_id, currency.created_at);
    },

    async updateCurrency(id, changes) {
      await q.update('currencies', id, changes);
    },

    async insertAccount(account) {
      await q.run(`INSERT INTO accounts (id, account_number, name, currency_id, account_type, normal_balance,
        has_subledger, parent_id, entity_id, xbrl_tag, is_active, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      account.id, account.account_number, account.name, account.currency_id, account.account_type,
      account.normal_balance, account.has_subledger, account.parent_id, account.entity_id, account.xbrl_tag,
      account.is_active, account.created_at);
    },

    async updateAccount(id, changes) {
      await q.update('accounts', id, changes);
    },

    async insertPeriod(period) {
      await q.run(`INSERT INTO periods (id, name, start_date, end_date, status, closed_at, closed_by, closing_entry_id, created_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, period.id, period.name, period.start_date, period.end_date, period.status,
      period.closed_at, period.closed_by, period.closing_entry_id, period.created_at);
    },

    async updatePeriod(id, changes) {
      await q.update('periods', id, changes);
    },

    async insertEntry(entry) {
      // Past 2^127 - 1 the amount domain refuses the new total; the adapter turns that into currencyTotalOverflow().
      await q.run(ADD_CURRENCY_TOTAL, entry.currency_id, toDecimalString(entryDebitTotal(entry.lines)));
      const sums = [...entryTotalsByAccount(entry.lines)];
      await q.run(INSERT_ENTRY,
        entry.id, entry.entry_date, entry.description, entry.reference,
        entry.metadata === null ? null : JSON.stringify(entry.metadata), entry.period_id, entry.entry_type,
        entry.reverses_id, entry.created_by, entry.posted_at, entry.currency_id,
        entry.lines.map((line) => line.id), entry.lines.map((line) => line.account_id),
        entry.lines.map((line) => toDecimalString(line.debit_amount)), entry.lines.map((line) => toDecimalString(line.credit_amount)),
        entry.lines.map((line) => line.description),
        sums.map(([accountId]) => accountId), sums.map(([, sum]) => toDecimalString(sum.debits)),
        sums.map(([, sum]) => toDecimalString(sum.credits)));
    },

    async setSetting(key, value) {
      await q.run('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value);
    },

    async setSettingIfAbsent(key, value) {
      await q.run('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', key, value);
    },
  } satisfies Partial<LedgerWrites>;
}
