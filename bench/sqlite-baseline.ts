/**
 * The storage limit: a bare better-sqlite3 loop writing the same rows as the SQLite adapter
 * (src/storage/sqlite/posting.ts, pending-writes.ts) for a two-line entry, with no application
 * work between the statements (no validation, no hashing: the hashes are fixed text of their real
 * length). Per entry: one journal_entries row (with its chain link, amount key and who posted it:
 * the entry is its own audit record, so a post writes no audit_log, audit_unsealed or audit_seals
 * row) and two journal_lines rows. Per transaction, as the adapter writes them before COMMIT: each
 * touched account_balances, account_period_totals and account_daily_totals row read and written
 * once, the currency_totals row and the entries' words (entry_words, FTS5). Keep this in step with
 * the adapter when it changes. The
 * schema is created by `ledger init`, with the adapter's pragmas (WAL, foreign_keys=ON). What is
 * left is SQLite plus the driver.
 *
 * Cases (a)-(d) are the plain storage limit. (e) adds the adapter's group-commit shape: many
 * entries per transaction, each under SAVEPOINT/RELEASE issued with exec(). (f) is (e) with
 * PRAGMA temp_store = MEMORY: once a savepoint's sub-journal outgrows SQLite's in-memory spill
 * threshold (64 KiB) it moves to a temporary file (/var/tmp/etilqs_*), and every later page
 * journaled in that transaction becomes a pwrite() system call. (g) is the bulk import's shape:
 * the --bulk-lines lines as one transaction, on days spread over the period: the ceiling of
 * `ledger journal-entries import` with what each entry stores today.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { uuidv7 } from 'uuidv7';
import { type BenchOptions, fmt, ledgerCli, log, OtherCpu } from './lib.js';

export interface BaselineCase {
  label: string;
  synchronous: 'FULL' | 'NORMAL';
  /** Entries per transaction. */
  batch: number;
  /** Wrap each entry in SAVEPOINT/RELEASE issued with exec(), as the adapter's group commit does. */
  savepoints?: boolean;
  /** PRAGMA temp_store = MEMORY (keeps savepoint sub-journals off temporary files). */
  tempStoreMemory?: boolean;
  /** The bulk import's shape: --bulk-lines lines (all in one batch), dated over the year instead of one day. */
  bulk?: boolean;
}

export interface BaselineResult {
  label: string;
  synchronous: 'FULL' | 'NORMAL';
  batch: number;
  entries: number;
  seconds: number;
  entriesPerSecond: number;
  /** The bulk import's shape (case g). */
  bulk: boolean;
  /** Journal lines per second: two per entry. */
  linesPerSecond: number;
  commitsPerSecond: number;
  /** CPU used by other processes during the loop, in cores. */
  otherCpu: number | undefined;
}

const AMOUNT = 12_345n;
const AMOUNT_KEY = AMOUNT.toString().padStart(39, '0');
const ENTRY_DATE = '2026-03-15';
const YEAR_START = Date.UTC(2026, 0, 1);
/** A SHA-256 hash as the adapter stores it: 64 hex digits. */
const HASH = 'ab'.repeat(32);

export function baselineCases(options: BenchOptions): BaselineCase[] {
  return [
    { label: '(a) 1 entry / tx, FULL', synchronous: 'FULL', batch: 1 },
    { label: '(b) 1 entry / tx, NORMAL', synchronous: 'NORMAL', batch: 1 },
    { label: `(c) ${options.batch} entries / tx, FULL`, synchronous: 'FULL', batch: options.batch },
    { label: `(d) ${options.batch} entries / tx, NORMAL`, synchronous: 'NORMAL', batch: options.batch },
    { label: `(e) ${options.batch} entries / tx + savepoint each, FULL`, synchronous: 'FULL', batch: options.batch,
      savepoints: true },
    { label: `(f) as (e) + temp_store=MEMORY, FULL`, synchronous: 'FULL', batch: options.batch,
      savepoints: true, tempStoreMemory: true },
    { label: `(g) ${fmt(options.bulkLines)} lines in 1 tx (the import's shape), FULL`, synchronous: 'FULL',
      batch: options.bulkLines / 2, bulk: true },
  ];
}

export function runBaseline(options: BenchOptions, dir: string, spec: BaselineCase, index: number): BaselineResult {
  const path = join(dir, `sqlite-baseline-${index}.db`);
  ledgerCli(path, ['init']);
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${spec.synchronous}`);
    db.pragma('foreign_keys = ON');
    if (spec.tempStoreMemory) db.pragma('temp_store = MEMORY');

    const now = new Date().toISOString();
    const currencyId = uuidv7();
    const periodId = uuidv7();
    const debitAccount = uuidv7();
    const creditAccount = uuidv7();
    db.transaction(() => {
      db.prepare(`INSERT INTO currencies (id, code, name, symbol, asset_scale, asset_type, caip19_id, created_at)
        VALUES (?, 'USD', 'US dollar', '$', 2, 'fiat', 'swift:0/iso4217:USD', ?)`).run(currencyId, now);
      const account = db.prepare(`INSERT INTO accounts (id, account_number, name, currency_id, account_type, normal_balance,
        has_subledger, parent_id, entity_id, xbrl_tag, is_active, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, NULL, NULL, NULL, 1, ?)`);
      account.run(debitAccount, '1000', 'Cash', currencyId, 'asset', 'debit', now);
      account.run(creditAccount, '4000', 'Sales', currencyId, 'revenue', 'credit', now);
      db.prepare(`INSERT INTO periods (id, name, start_date, end_date, status, closed_at, closed_by, closing_entry_id, created_at)
        VALUES (?, 'FY2026', '2026-01-01', '2026-12-31', 'open', NULL, NULL, NULL, ?)`).run(periodId, now);
    }).immediate();

    // The adapter's statements, verbatim in effect.
    const insertEntry = db.prepare(`INSERT INTO journal_entries (id, entry_date, description, reference, metadata, period_id,
      entry_type, reverses_id, created_by, posted_at, currency_id, override_reason, hash_version, credential_type, credential_id,
      request_id, previous_hash, hash, debit_key, entry_number)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 2, 'api_key', ?, ?, ?, ?, ?,
        (SELECT coalesce(max(entry_number), 0) + 1 FROM journal_entries))`);
    const insertLine = db.prepare(`INSERT INTO journal_lines (entry_seq, seq, id, account_id, parent_account_id, entry_date, debit_amount,
      credit_amount, description) VALUES (?, coalesce((SELECT seq FROM journal_lines ORDER BY entry_seq DESC, seq DESC LIMIT 1), 0) + 1,
      ?, ?, (SELECT parent_id FROM accounts WHERE id = ?), ?, ?, ?, ?)`);
    const insertWords = db.prepare('INSERT INTO entry_words (rowid, words) VALUES (?, ?)');
    const totalsTable = (table: string, keys: string[]) => {
      const where = keys.map((key) => `${key} = ?`).join(' AND ');
      return {
        name: table,
        get: db.prepare(`SELECT debit_total, credit_total FROM ${table} WHERE ${where}`),
        update: db.prepare(`UPDATE ${table} SET debit_total = ?, credit_total = ? WHERE ${where}`),
        insert: db.prepare(`INSERT INTO ${table} (${keys.join(', ')}, debit_total, credit_total) VALUES (${keys.map(() => '?').join(', ')}, ?, ?)`),
      };
    };
    const balances = totalsTable('account_balances', ['account_id']);
    const periodTotals = totalsTable('account_period_totals', ['account_id', 'period_id']);
    const dailyTotals = totalsTable('account_daily_totals', ['account_id', 'entry_date']);
    const getCurrencyTotal = db.prepare('SELECT debit_total FROM currency_totals WHERE currency_id = ?');
    const upsertCurrencyTotal = db.prepare(`INSERT INTO currency_totals (currency_id, debit_total, chain_hash) VALUES (?, ?, ?)
      ON CONFLICT (currency_id) DO UPDATE SET debit_total = excluded.debit_total, chain_hash = excluded.chain_hash`);
    const actorId = uuidv7();
    const credentialId = uuidv7();

    type Totals = { debit_total: string; credit_total: string } | undefined;
    type Table = ReturnType<typeof totalsTable>;
    /** A transaction's sums per totals row, written once before COMMIT (the adapter's pending writes). */
    let pending = new Map<string, { table: Table; keys: string[]; debits: bigint; credits: bigint }>();
    let words: [number | bigint, string][] = [];
    let debitTotal = 0n;
    const add = (table: Table, keys: string[], debits: bigint, credits: bigint) => {
      const key = `${table.name}\u0000${keys.join('\u0000')}`;
      const row = pending.get(key);
      if (row) {
        row.debits += debits;
        row.credits += credits;
      } else {
        pending.set(key, { table, keys, debits, credits });
      }
    };
    const writePending = () => {
      for (const key of [...pending.keys()].sort()) {
        const { table, keys, debits, credits } = pending.get(key)!;
        const row = table.get.get(...keys) as Totals;
        if (row) table.update.run((BigInt(row.debit_total) + debits).toString(), (BigInt(row.credit_total) + credits).toString(), ...keys);
        else table.insert.run(...keys, debits.toString(), credits.toString());
      }
      const current = getCurrencyTotal.get(currencyId) as { debit_total: string } | undefined;
      upsertCurrencyTotal.run(currencyId, ((current ? BigInt(current.debit_total) : 0n) + debitTotal).toString(), HASH);
      for (const row of words) insertWords.run(...row);
      pending = new Map();
      words = [];
      debitTotal = 0n;
    };
    const writeEntry = (index: number) => {
      const postedAt = new Date().toISOString();
      const entryDate = spec.bulk ? new Date(YEAR_START + (index % 365) * 86_400_000).toISOString().slice(0, 10) : ENTRY_DATE;
      const entryId = uuidv7();
      const seq = insertEntry.run(entryId, entryDate, `bench sale ${index}`, null, null, periodId, 'standard', null, actorId,
        postedAt, currencyId, credentialId, uuidv7(), HASH, HASH, AMOUNT_KEY).lastInsertRowid;
      insertLine.run(seq, uuidv7(), debitAccount, debitAccount, entryDate, AMOUNT.toString(), '0', null);
      insertLine.run(seq, uuidv7(), creditAccount, creditAccount, entryDate, '0', AMOUNT.toString(), null);
      words.push([seq, `bench sale ${index}`]);
      for (const [account, debits, credits] of [[debitAccount, AMOUNT, 0n], [creditAccount, 0n, AMOUNT]] as const) {
        add(balances, [account], debits, credits);
        add(periodTotals, [account, periodId], debits, credits);
        add(dailyTotals, [account, entryDate], debits, credits);
      }
      debitTotal += AMOUNT;
    };
    const writeBatch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        if (spec.savepoints) {
          db.exec('SAVEPOINT job');
          writeEntry(i);
          db.exec('RELEASE job');
        } else {
          writeEntry(i);
        }
      }
      writePending();
    });

    const others = new OtherCpu([]);
    const deadline = performance.now() + options.maxSeconds * 1000;
    const start = performance.now();
    let written = 0;
    let commits = 0;
    const entries = spec.bulk ? options.bulkLines / 2 : options.entries;
    while (written < entries && performance.now() < deadline) {
      const to = Math.min(entries, written + spec.batch);
      writeBatch.immediate(written, to);
      written = to;
      commits++;
    }
    const seconds = (performance.now() - start) / 1000;
    const otherCpu = others.cores();

    // Fail loudly if the rows are not what was meant to be written.
    const rows = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const count = rows('journal_entries');
    const lines = rows('journal_lines');
    const balance = balances.get.get(debitAccount) as Totals;
    const expected = (BigInt(written) * AMOUNT).toString();
    const audit = ['audit_log', 'audit_unsealed', 'audit_seals'].map(rows);
    if (count !== written || lines !== 2 * written || balance?.debit_total !== expected || audit.some((n) => n !== 0)) {
      throw new Error(`VERIFICATION FAILED (${spec.label}): ${count} entries, ${lines} lines, balance ${balance?.debit_total}, `
        + `audit records, unsealed keys and seals ${audit.join(', ')}; expected ${written}, ${2 * written}, ${expected}, none`);
    }
    if (written < entries) log(`${spec.label}: time limit reached after ${written} entries`);
    log(`${spec.label}: ${written} entries in ${seconds.toFixed(2)} s`);
    return {
      label: spec.label, synchronous: spec.synchronous, batch: spec.batch, bulk: spec.bulk === true, entries: written, seconds,
      entriesPerSecond: written / seconds, linesPerSecond: (2 * written) / seconds, commitsPerSecond: commits / seconds, otherCpu,
    };
  } finally {
    db.close();
  }
}
