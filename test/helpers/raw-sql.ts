/**
 * SQL sent straight to a test ledger's database, around the service and its store: for tests that
 * check what is stored (no plaintext secrets) or what the database itself refuses (edits to posted
 * rows). The tables and columns are the same on both backends, so one statement serves both;
 * parameters are written PostgreSQL's way, `$1`, `$2`, ..., which SQLite reads as named ones.
 * Each call opens its own connection and closes it, like any other client of the database.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { parseDatabaseLocation } from '../../src/app/database-location.js';

export type Row = Record<string, unknown>;

/** Runs one statement and returns its rows (none for a statement that returns no data). */
export async function rawQuery<T = Row>(location: string, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const parsed = parseDatabaseLocation(location);
  if (parsed.kind === 'postgres') {
    const client = new pg.Client({ connectionString: parsed.url });
    await client.connect();
    try {
      return (await client.query(sql, [...params])).rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new Database(parsed.path, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    const statement = db.prepare(sql);
    // `$1` is a named parameter to SQLite, bound from an object keyed by the number.
    const bound = params.length === 0 ? [] : [Object.fromEntries(params.map((value, index) => [String(index + 1), value]))];
    if (!statement.reader) {
      statement.run(...bound);
      return [];
    }
    return statement.all(...bound) as T[];
  } finally {
    db.close();
  }
}

/** Every table of the ledger's schema, each as an identifier ready to put into a statement. */
export async function listTables(location: string): Promise<string[]> {
  if (parseDatabaseLocation(location).kind === 'postgres') {
    const rows = await rawQuery<{ table_schema: string; table_name: string }>(location, `
      SELECT table_schema, table_name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
      ORDER BY table_schema, table_name`);
    return rows.map((row) => `${pg.escapeIdentifier(row.table_schema)}.${pg.escapeIdentifier(row.table_name)}`);
  }
  // Stored tables only, as on PostgreSQL: a virtual table (the FTS5 index, which cannot be scanned)
  // keeps its data in shadow tables of its own, and those are listed.
  const rows = await rawQuery<{ name: string }>(location,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name");
  return rows.map((row) => `"${row.name.replaceAll('"', '""')}"`);
}

/**
 * The table and columns of the unique constraint a failed statement broke, read from either
 * driver's error; undefined when the error is not a unique violation.
 */
export function uniqueViolation(error: unknown): { table: string; columns: string[] } | undefined {
  const failure = error as { code?: string; message?: string; table?: string; detail?: string };
  if (failure?.code === 'SQLITE_CONSTRAINT_UNIQUE') {
    // "UNIQUE constraint failed: journal_entries.reverses_id[, journal_entries.other]"
    const qualified = (failure.message ?? '').replace(/^.*UNIQUE constraint failed: /, '').split(', ');
    const table = qualified[0]?.split('.')[0] ?? '';
    return { table, columns: qualified.map((name) => name.split('.')[1] ?? name) };
  }
  if (failure?.code === '23505') {
    // detail: "Key (reverses_id)=(0193...) already exists."
    const columns = /^Key \(([^)]*)\)=/.exec(failure.detail ?? '')?.[1]?.split(', ') ?? [];
    return { table: failure.table ?? '', columns };
  }
  return undefined;
}

/** The error a statement fails with; the test fails when it succeeds. */
export async function failureOf(statement: Promise<unknown>): Promise<Error> {
  try {
    await statement;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the statement succeeded');
}
