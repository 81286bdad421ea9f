/**
 * What `ledger doctor` asks a SQLite ledger file (app/doctor.ts words the verdicts): its journal
 * mode and migrations, read through a read-only connection that changes nothing.
 */
import Database from 'better-sqlite3';
import { MIGRATIONS } from './schema.js';

export interface SqliteDiagnosis {
  journalMode: string;
  /** Migration versions recorded; undefined when the file has no ledger schema. */
  applied: number[] | undefined;
  known: number[];
}

export function diagnoseSqlite(path: string): SqliteDiagnosis {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const journalMode = String(db.pragma('journal_mode', { simple: true }));
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
    const applied = hasTable ? (db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[]) : undefined;
    return { journalMode, applied, known: MIGRATIONS.map((migration) => migration.version) };
  } finally {
    db.close();
  }
}
