/**
 * Copies a SQLite ledger into an empty PostgreSQL database, table by table, row for row (same ids,
 * same sequence numbers, same maintained totals), for the reports benchmark: building 1,000,000
 * lines through the service on PostgreSQL takes several minutes here (about a millisecond per entry,
 * see docs/benchmarks.md), the copy well under one.
 *
 * The PostgreSQL schema is created by `ledger init` and mirrors the SQLite one column for column;
 * the column list and types are read from PostgreSQL's catalog, so a column missing on either side
 * fails loudly. Booleans (SQLite 0/1) become boolean, decimal TEXT amounts numeric. Rows go in by
 * `INSERT ... SELECT FROM unnest(arrays)` in chunks, parents before children; the identity sequences
 * are moved past the copied rows; then VACUUM ANALYZE, as autovacuum would after such a load.
 * Afterwards every table's row count is compared, and every maintained total against the lines.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { initLedger } from '../src/app/open-ledger.js';
import { fmt, log } from './lib.js';
import { checkTotals } from './postgres.js';
import { backfillEntrySearch } from '../src/storage/postgres/entry-search.js';

/** Parents before children (foreign keys); accounts and entries are ordered so that self-references come first. */
const TABLES: { name: string; order: string }[] = [
  { name: 'settings', order: 'key' },
  { name: 'currencies', order: 'created_at, id' },
  { name: 'currency_totals', order: 'currency_id' },
  { name: 'accounts', order: 'parent_id IS NOT NULL, created_at, id' },
  { name: 'account_balances', order: 'account_id' },
  { name: 'periods', order: 'start_date' },
  { name: 'account_period_totals', order: 'account_id, period_id' },
  { name: 'journal_entries', order: 'seq' },
  { name: 'journal_lines', order: 'entry_seq, seq' },
  { name: 'account_daily_totals', order: 'account_id, entry_date' },
  { name: 'users', order: 'created_at, id' },
  { name: 'api_keys', order: 'created_at, id' },
  { name: 'idempotency_keys', order: 'principal_id, key' },
  { name: 'refresh_tokens', order: 'created_at, id' },
  { name: 'login_failures', order: 'failed_at, key' },
  { name: 'exchange_rates', order: 'currency_id, rate_date' },
  { name: 'reconciliations', order: 'created_at, id' },
  { name: 'bank_statements', order: 'imported_at, id' },
  { name: 'bank_lines', order: 'seq' },
  { name: 'bank_line_matches', order: 'bank_line_id, position' },
  { name: 'reconciliation_marks', order: 'reconciliation_id, journal_line_id' },
  { name: 'reconciled_lines', order: 'reconciliation_id, journal_line_id' },
  { name: 'bank_rules', order: 'seq' },
  { name: 'events', order: 'seq' },
  { name: 'webhook_endpoints', order: 'created_at, id' },
  { name: 'webhook_deliveries', order: 'seq' },
];

/**
 * Tables left out on purpose: the reports read none of them. `entry_search` is rebuilt from the
 * copied entries (below); `catalog_versions` is kept by PostgreSQL's own triggers; the audit log
 * and its seals are not copied (PostgreSQL's rows carry a transaction id SQLite has no column for;
 * `ledger copy` moves them through the service when a whole ledger must move). `entry_numbers`
 * (PostgreSQL only: one row, the last entry number and event number given) is set from the copied
 * entries and events, as posting would have left it.
 */
const NOT_COPIED = new Set(['entry_search', 'catalog_versions', 'audit_log', 'audit_seals', 'entry_numbers']);

const CHUNK = 10_000;

/** Columns SQLite keeps in another form: an entry's amount is sortable zero-padded text there, numeric here. */
const SQLITE_COLUMN: Record<string, string> = { 'journal_entries.debit_total': 'debit_key' };

export async function copySqliteLedger(sqlitePath: string, url: string): Promise<{ seconds: number; rows: number }> {
  const started = performance.now();
  await initLedger(url);
  const source = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let total = 0;
  try {
    const catalog = await client.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> 'schema_migrations' ORDER BY table_name, ordinal_position`);
    const pgTables = new Set(catalog.rows.map((row) => row.table_name));
    const missing = [...pgTables].filter((name) => !NOT_COPIED.has(name) && !TABLES.some((t) => t.name === name));
    if (missing.length > 0) throw new Error(`copy: PostgreSQL tables this copy does not know: ${missing.join(', ')}`);
    await client.query('BEGIN');
    for (const table of TABLES) {
      const columns = catalog.rows.filter((row) => row.table_name === table.name);
      if (columns.length === 0) throw new Error(`copy: no table ${table.name} in PostgreSQL`);
      const names = columns.map((c) => c.column_name);
      const casts = columns.map((c, i) => `$${i + 1}::${c.data_type === 'numeric' ? 'numeric' : c.data_type}[]`);
      const insert = `INSERT INTO ${table.name} (${names.join(', ')}) SELECT * FROM unnest(${casts.join(', ')})`;
      const select = source.prepare(`SELECT ${names.map((name) => SQLITE_COLUMN[`${table.name}.${name}`] ?? name).join(', ')}
        FROM ${table.name} ORDER BY ${table.order}`).raw(true);
      const booleans = columns.map((c) => c.data_type === 'boolean');
      let arrays: unknown[][] = names.map(() => []);
      let count = 0;
      const flush = async () => {
        if (arrays[0]!.length === 0) return;
        await client.query(insert, arrays);
        arrays = names.map(() => []);
      };
      for (const row of select.iterate() as IterableIterator<unknown[]>) {
        for (let i = 0; i < row.length; i += 1) {
          const value = row[i];
          arrays[i]!.push(value === null ? null : booleans[i] ? value === 1 : String(value));
        }
        count += 1;
        if (arrays[0]!.length >= CHUNK) await flush();
      }
      await flush();
      const copied = Number((await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table.name}`)).rows[0]!.n);
      if (copied !== count) throw new Error(`copy: ${table.name} has ${copied} rows in PostgreSQL, ${count} in SQLite`);
      total += count;
    }
    // Every identity column past the copied rows (the tables whose seq PostgreSQL numbers itself).
    for (const table of TABLES.filter((t) => catalog.rows.some((row) => row.table_name === t.name && row.column_name === 'seq'))) {
      await client.query(`SELECT setval(sequence, (SELECT coalesce(max(seq), 0) + 1 FROM ${table.name}), false)
        FROM (SELECT pg_get_serial_sequence('${table.name}', 'seq') AS sequence) s WHERE sequence IS NOT NULL`);
    }
    await client.query(`UPDATE entry_numbers SET last_number = (SELECT coalesce(max(entry_number), 0) FROM journal_entries),
      last_event = greatest((SELECT coalesce(max(event_seq), 0) FROM journal_entries), (SELECT coalesce(max(seq), 0) FROM events))`);
    // The words that find entries are kept differently by each store (SQLite: FTS5), so they are
    // rebuilt from the copied entries, as migration 11 does for an existing ledger.
    await backfillEntrySearch(client);
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
    source.close();
  }
  const books = await checkTotals(url);
  if (books.balance_mismatches + books.period_mismatches + books.daily_mismatches !== 0 || books.line_debits !== books.line_credits
    || books.currency_total !== books.line_debits) {
    throw new Error(`copy: the copied totals do not match the lines: ${JSON.stringify(books)}`);
  }
  const seconds = (performance.now() - started) / 1000;
  log(`copied ${fmt(total)} rows (${fmt(books.lines)} journal lines) into PostgreSQL in ${seconds.toFixed(1)} s; totals checked against the lines`);
  return { seconds, rows: total };
}
