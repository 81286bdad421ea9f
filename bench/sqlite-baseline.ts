/**
 * The storage limit: a bare better-sqlite3 loop writing the same rows as the SQLite adapter
 * (src/storage/sqlite/sqlite-store.ts, SqliteTx.insertEntry) for a two-line entry: one
 * journal_entries row, two journal_lines rows, read-modify-write of account_balances,
 * account_period_totals and account_daily_totals for both accounts and of currency_totals (its
 * read stands for the service's bound check, whose result insertEntry writes). Keep this in step
 * with insertEntry when it changes. The schema is created by `ledger init`, with the adapter's pragmas (WAL, foreign_keys=ON). No HTTP and no validation
 * reads: what is left is SQLite plus the driver.
 *
 * Cases (a)-(d) are the plain storage limit. (e) adds the adapter's group-commit shape: many
 * entries per transaction, each under SAVEPOINT/RELEASE issued with exec(). (f) is (e) with
 * PRAGMA temp_store = MEMORY: once a savepoint's sub-journal outgrows SQLite's in-memory spill
 * threshold (64 KiB) it moves to a temporary file (/var/tmp/etilqs_*), and every later page
 * journaled in that transaction becomes a pwrite() system call.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { uuidv7 } from 'uuidv7';
import { type BenchOptions, ledgerCli, log, OtherCpu } from './lib.js';

export interface BaselineCase {
  label: string;
  synchronous: 'FULL' | 'NORMAL';
  /** Entries per transaction. */
  batch: number;
  /** Wrap each entry in SAVEPOINT/RELEASE issued with exec(), as the adapter's group commit does. */
  savepoints?: boolean;
  /** PRAGMA temp_store = MEMORY (keeps savepoint sub-journals off temporary files). */
  tempStoreMemory?: boolean;
}

export interface BaselineResult {
  label: string;
  synchronous: 'FULL' | 'NORMAL';
  batch: number;
  entries: number;
  seconds: number;
  entriesPerSecond: number;
  commitsPerSecond: number;
  /** CPU used by other processes during the loop, in cores. */
  otherCpu: number | undefined;
}

const AMOUNT = 12_345n;
const ENTRY_DATE = '2026-03-15';

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
      entry_type, reverses_id, created_by, posted_at, currency_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertLine = db.prepare(`INSERT INTO journal_lines (id, entry_seq, account_id, parent_account_id, entry_date, debit_amount,
      credit_amount, description) VALUES (?, ?, ?, (SELECT parent_id FROM accounts WHERE id = ?), ?, ?, ?, ?)`);
    const getBalance = db.prepare('SELECT debit_total, credit_total FROM account_balances WHERE account_id = ?');
    const updBalance = db.prepare('UPDATE account_balances SET debit_total = ?, credit_total = ? WHERE account_id = ?');
    const insBalance = db.prepare('INSERT INTO account_balances (account_id, debit_total, credit_total) VALUES (?, ?, ?)');
    const getPeriodTotals = db.prepare(
      'SELECT debit_total, credit_total FROM account_period_totals WHERE account_id = ? AND period_id = ?');
    const updPeriodTotals = db.prepare(
      'UPDATE account_period_totals SET debit_total = ?, credit_total = ? WHERE account_id = ? AND period_id = ?');
    const insPeriodTotals = db.prepare(
      'INSERT INTO account_period_totals (account_id, period_id, debit_total, credit_total) VALUES (?, ?, ?, ?)');
    const getDailyTotals = db.prepare(
      'SELECT debit_total, credit_total FROM account_daily_totals WHERE account_id = ? AND entry_date = ?');
    const updDailyTotals = db.prepare(
      'UPDATE account_daily_totals SET debit_total = ?, credit_total = ? WHERE account_id = ? AND entry_date = ?');
    const insDailyTotals = db.prepare(
      'INSERT INTO account_daily_totals (account_id, entry_date, debit_total, credit_total) VALUES (?, ?, ?, ?)');
    const getCurrencyTotal = db.prepare('SELECT debit_total FROM currency_totals WHERE currency_id = ?');
    const upsertCurrencyTotal = db.prepare(`INSERT INTO currency_totals (currency_id, debit_total) VALUES (?, ?)
      ON CONFLICT (currency_id) DO UPDATE SET debit_total = excluded.debit_total`);

    type Totals = { debit_total: string; credit_total: string } | undefined;
    const addTotals = (accountId: string, debits: bigint, credits: bigint) => {
      const row = getBalance.get(accountId) as Totals;
      if (row) {
        updBalance.run((BigInt(row.debit_total) + debits).toString(), (BigInt(row.credit_total) + credits).toString(), accountId);
      } else {
        insBalance.run(accountId, debits.toString(), credits.toString());
      }
      const prow = getPeriodTotals.get(accountId, periodId) as Totals;
      if (prow) {
        updPeriodTotals.run((BigInt(prow.debit_total) + debits).toString(), (BigInt(prow.credit_total) + credits).toString(),
          accountId, periodId);
      } else {
        insPeriodTotals.run(accountId, periodId, debits.toString(), credits.toString());
      }
      const drow = getDailyTotals.get(accountId, ENTRY_DATE) as Totals;
      if (drow) {
        updDailyTotals.run((BigInt(drow.debit_total) + debits).toString(), (BigInt(drow.credit_total) + credits).toString(),
          accountId, ENTRY_DATE);
      } else {
        insDailyTotals.run(accountId, ENTRY_DATE, debits.toString(), credits.toString());
      }
    };
    const writeEntry = (index: number) => {
      const postedAt = new Date().toISOString();
      const seq = insertEntry.run(uuidv7(), ENTRY_DATE, `bench sale ${index}`, null, null, periodId, 'standard', null, null,
        postedAt, currencyId).lastInsertRowid;
      insertLine.run(uuidv7(), seq, debitAccount, debitAccount, ENTRY_DATE, AMOUNT.toString(), '0', null);
      insertLine.run(uuidv7(), seq, creditAccount, creditAccount, ENTRY_DATE, '0', AMOUNT.toString(), null);
      addTotals(debitAccount, AMOUNT, 0n);
      addTotals(creditAccount, 0n, AMOUNT);
      const current = getCurrencyTotal.get(currencyId) as { debit_total: string } | undefined;
      upsertCurrencyTotal.run(currencyId, ((current ? BigInt(current.debit_total) : 0n) + AMOUNT).toString());
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
    });

    const others = new OtherCpu([]);
    const deadline = performance.now() + options.maxSeconds * 1000;
    const start = performance.now();
    let written = 0;
    let commits = 0;
    while (written < options.entries && performance.now() < deadline) {
      const to = Math.min(options.entries, written + spec.batch);
      writeBatch.immediate(written, to);
      written = to;
      commits++;
    }
    const seconds = (performance.now() - start) / 1000;
    const otherCpu = others.cores();

    // Fail loudly if the rows are not what was meant to be written.
    const count = (db.prepare('SELECT COUNT(*) AS n FROM journal_entries').get() as { n: number }).n;
    const lines = (db.prepare('SELECT COUNT(*) AS n FROM journal_lines').get() as { n: number }).n;
    const balance = getBalance.get(debitAccount) as Totals;
    const expected = (BigInt(written) * AMOUNT).toString();
    if (count !== written || lines !== 2 * written || balance?.debit_total !== expected) {
      throw new Error(`VERIFICATION FAILED (${spec.label}): ${count} entries, ${lines} lines, balance ${balance?.debit_total}; `
        + `expected ${written}, ${2 * written}, ${expected}`);
    }
    if (written < options.entries) log(`${spec.label}: time limit reached after ${written} entries`);
    log(`${spec.label}: ${written} entries in ${seconds.toFixed(2)} s`);
    return {
      label: spec.label, synchronous: spec.synchronous, batch: spec.batch, entries: written, seconds,
      entriesPerSecond: written / seconds, commitsPerSecond: commits / seconds, otherCpu,
    };
  } finally {
    db.close();
  }
}
