/**
 * Writes of the books: currencies, accounts, periods, settings, and posting an entry with its
 * lines and every maintained total. Totals are added by the database itself (`numeric` is exact
 * at any size) as atomic upserts, so concurrent posts on several servers lose and double nothing,
 * and the `amount` domain refuses any total past 2^127 - 1.
 *
 * A write job's entries add to its totals in memory (PendingTotals); the job writes them once, as
 * one statement, when it ends (or before it reads a total). PostgreSQL keeps every version of a row
 * updated within a transaction, and each further update of the row walks them all: a job that
 * posts many entries to the same accounts (an import, `ledger copy`) would slow down with every
 * entry if it updated the totals rows entry by entry.
 */
import { currencyTotalOverflow } from '../../domain/errors.js';
import { MAX_AMOUNT, parseStoredAmount, toDecimalString } from '../../domain/money/amount.js';
import type { JournalEntry } from '../../domain/types.js';
import { entryHash, GENESIS_HASH } from '../../service/entry-hash.js';
import type { ChainLink, LedgerWrites } from '../../service/ports/ledger-store.js';
import { entryDebitTotal, entryTotalsByAccount } from '../shared/paging.js';
import type { PgQueries } from './queries.js';

interface Sums {
  debits: bigint;
  credits: bigint;
}

const KEY_SEPARATOR = '\u0000';

function addTo(map: Map<string, Sums>, key: string, sums: Sums): void {
  const sum = map.get(key);
  if (sum) {
    sum.debits += sums.debits;
    sum.credits += sums.credits;
  } else {
    map.set(key, { debits: sums.debits, credits: sums.credits });
  }
}

/** Sorted, so that every writer touches totals rows in the same order (no lock-order deadlocks). */
function sorted<T>(map: Map<string, T>): [string, T][] {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What the current write job's entries add to the maintained totals, not yet written. */
export class PendingTotals {
  private readonly currencies = new Map<string, bigint>();
  private readonly accounts = new Map<string, Sums>();
  private readonly periods = new Map<string, Sums>();
  private readonly days = new Map<string, Sums>();
  /**
   * Each currency's stored debit total as the job locked it (FOR UPDATE) at its first entry in
   * the currency, plus what the job has written since. The row stays locked until the
   * transaction ends, so this plus the pending delta is exactly the total the entry adds to.
   */
  readonly lockedCurrencyTotals = new Map<string, bigint>();
  /** Each currency's chain head: as locked, then the hash of the job's last entry in it. */
  readonly chainHeads = new Map<string, string>();
  /** Hashes of the job's entries, written with the totals. */
  private readonly hashes: { id: string; previousHash: string; hash: string }[] = [];

  /** A new job (or a job run again) starts with nothing pending and no lock. */
  reset(): void {
    this.currencies.clear();
    this.accounts.clear();
    this.periods.clear();
    this.days.clear();
    this.hashes.length = 0;
    this.lockedCurrencyTotals.clear();
    this.chainHeads.clear();
  }

  currencyTotal(currencyId: string): bigint {
    return this.lockedCurrencyTotals.get(currencyId)! + (this.currencies.get(currencyId) ?? 0n);
  }

  /**
   * Adds a checked entry: chains it after its currency's head (locked) and adds its debit total
   * (`debits`) and its account sums to what the job will write. Answers its chain link.
   */
  add(entry: JournalEntry, debits: bigint): ChainLink {
    const previousHash = this.chainHeads.get(entry.currency_id)!;
    const hash = entryHash(entry, previousHash);
    this.hashes.push({ id: entry.id, previousHash, hash });
    this.chainHeads.set(entry.currency_id, hash);
    this.currencies.set(entry.currency_id, (this.currencies.get(entry.currency_id) ?? 0n) + debits);
    for (const [accountId, sums] of entryTotalsByAccount(entry.lines)) {
      addTo(this.accounts, accountId, sums);
      addTo(this.periods, accountId + KEY_SEPARATOR + entry.period_id, sums);
      addTo(this.days, accountId + KEY_SEPARATOR + entry.entry_date, sums);
    }
    return { previous_hash: previousHash, hash };
  }

  /** Writes everything pending in one statement, currency totals first, then every account's. */
  async write(q: PgQueries): Promise<void> {
    if (this.currencies.size === 0) return;
    const currencies = sorted(this.currencies);
    const accounts = sorted(this.accounts);
    const split = ([key, sums]: [string, Sums]) => {
      const [accountId, second] = key.split(KEY_SEPARATOR) as [string, string];
      return [accountId, second, sums] as const;
    };
    const periods = sorted(this.periods).map(split);
    const days = sorted(this.days).map(split);
    await q.run(WRITE_TOTALS,
      currencies.map(([id]) => id), currencies.map(([, debits]) => toDecimalString(debits)),
      currencies.map(([id]) => this.chainHeads.get(id)!), this.hashes.map((row) => row.id), this.hashes.map((row) => row.hash),
      this.hashes.map((row) => row.previousHash),
      accounts.map(([id]) => id), accounts.map(([, s]) => toDecimalString(s.debits)), accounts.map(([, s]) => toDecimalString(s.credits)),
      periods.map(([id]) => id), periods.map(([, period]) => period), periods.map(([, , s]) => toDecimalString(s.debits)),
      periods.map(([, , s]) => toDecimalString(s.credits)),
      days.map(([id]) => id), days.map(([, day]) => day), days.map(([, , s]) => toDecimalString(s.debits)),
      days.map(([, , s]) => toDecimalString(s.credits)));
    for (const [currencyId, debits] of currencies) {
      this.lockedCurrencyTotals.set(currencyId, this.lockedCurrencyTotals.get(currencyId)! + debits);
    }
    this.currencies.clear();
    this.accounts.clear();
    this.periods.clear();
    this.days.clear();
    this.hashes.length = 0;
  }
}

const WRITE_TOTALS = `WITH currencies AS (
  UPDATE currency_totals AS total SET debit_total = total.debit_total + delta.debits, chain_hash = delta.chain_hash
  FROM unnest($1::text[], $2::numeric[], $3::text[]) AS delta(currency_id, debits, chain_hash)
  WHERE total.currency_id = delta.currency_id
), hashes AS (
  INSERT INTO entry_hashes (entry_seq, previous_hash, hash)
  SELECT entry.seq, hashed.previous_hash, hashed.hash
  FROM unnest($4::text[], $5::text[], $6::text[]) AS hashed(id, hash, previous_hash) JOIN journal_entries entry ON entry.id = hashed.id
), balances AS (
  INSERT INTO account_balances (account_id, debit_total, credit_total)
  SELECT * FROM unnest($7::text[], $8::numeric[], $9::numeric[])
  ON CONFLICT (account_id) DO UPDATE SET debit_total = account_balances.debit_total + excluded.debit_total,
    credit_total = account_balances.credit_total + excluded.credit_total
), period_totals AS (
  INSERT INTO account_period_totals (account_id, period_id, debit_total, credit_total)
  SELECT * FROM unnest($10::text[], $11::text[], $12::numeric[], $13::numeric[])
  ON CONFLICT (account_id, period_id) DO UPDATE SET debit_total = account_period_totals.debit_total + excluded.debit_total,
    credit_total = account_period_totals.credit_total + excluded.credit_total
)
INSERT INTO account_daily_totals (account_id, entry_date, debit_total, credit_total)
SELECT * FROM unnest($14::text[], $15::text[], $16::numeric[], $17::numeric[])
ON CONFLICT (account_id, entry_date) DO UPDATE SET debit_total = account_daily_totals.debit_total + excluded.debit_total,
  credit_total = account_daily_totals.credit_total + excluded.credit_total`;

const INSERT_ENTRY = `entry AS (
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
)`;

/** The entry and its lines in order: one round trip. */
const INSERT_ENTRY_ONLY = `WITH ${INSERT_ENTRY} SELECT NULL::text AS currency_total, NULL::text AS chain_hash`;

/**
 * The same, for a job's first entry in a currency: it also locks the currency's total (creating
 * the row at zero the first time) and answers it. The currency total is the one row every post in
 * the currency touches, so posts queue on it before they hold any other totals row: the lock order
 * is the same everywhere.
 */
const INSERT_ENTRY_LOCKING_CURRENCY = `WITH created AS (
  INSERT INTO currency_totals (currency_id, debit_total) VALUES ($11, 0) ON CONFLICT (currency_id) DO NOTHING RETURNING debit_total
), locked AS (
  SELECT debit_total, chain_hash FROM currency_totals WHERE currency_id = $11 FOR UPDATE
), ${INSERT_ENTRY}
SELECT coalesce((SELECT debit_total FROM created), (SELECT debit_total FROM locked))::text AS currency_total,
  (SELECT chain_hash FROM locked) AS chain_hash`;

/** The currency's total, locked: for the rare case where another process created its row during our statement. */
const LOCK_CURRENCY_TOTAL = 'SELECT debit_total::text AS currency_total, chain_hash FROM currency_totals WHERE currency_id = $1 FOR UPDATE';

function entryParams(entry: JournalEntry) {
  return [
    entry.id, entry.entry_date, entry.description, entry.reference,
    entry.metadata === null ? null : JSON.stringify(entry.metadata), entry.period_id, entry.entry_type,
    entry.reverses_id, entry.created_by, entry.posted_at, entry.currency_id,
    entry.lines.map((line) => line.id), entry.lines.map((line) => line.account_id),
    entry.lines.map((line) => toDecimalString(line.debit_amount)), entry.lines.map((line) => toDecimalString(line.credit_amount)),
    entry.lines.map((line) => line.description),
  ];
}

export function postingWrites(q: PgQueries, pending: PendingTotals) {
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
      const locked = pending.lockedCurrencyTotals.has(entry.currency_id);
      type Head = { currency_total: string | null; chain_hash: string | null };
      const row = await q.get<Head>(locked ? INSERT_ENTRY_ONLY : INSERT_ENTRY_LOCKING_CURRENCY, ...entryParams(entry));
      if (!locked) {
        const stored = row!.currency_total === null ? (await q.get<Head>(LOCK_CURRENCY_TOTAL, entry.currency_id))! : row!;
        pending.lockedCurrencyTotals.set(entry.currency_id, parseStoredAmount(stored.currency_total!));
        pending.chainHeads.set(entry.currency_id, stored.chain_hash ?? GENESIS_HASH);
      }
      // Exact: the currency's row is locked, so no other transaction can add to it or to its chain
      // meanwhile. A refused entry fails its job, which rolls back to its savepoint (the entry row with it).
      const debits = entryDebitTotal(entry.lines);
      if (pending.currencyTotal(entry.currency_id) + debits > MAX_AMOUNT) throw currencyTotalOverflow();
      return pending.add(entry, debits);
    },

    async setSetting(key, value) {
      await q.run('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value);
    },

    async setSettingIfAbsent(key, value) {
      await q.run('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', key, value);
    },
  } satisfies Partial<LedgerWrites>;
}
