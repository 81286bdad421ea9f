/** Prepared statements of one better-sqlite3 connection, each prepared once and reused. */
import type Database from 'better-sqlite3';

export type Param = string | number | bigint | null;

export class SqliteQueries {
  /**
   * `beforeStatement`, if given, runs before every statement (a write transaction writes what it
   * keeps pending first when the statement touches a pending table); `cache` is shared by the
   * runners of one connection.
   */
  constructor(readonly db: Database.Database, private readonly beforeStatement?: (sql: string) => void,
    private readonly cache = new Map<string, Database.Statement>()) {}

  /** A runner on the same connection and statements that calls `before` before every statement. */
  withHook(before: (sql: string) => void): SqliteQueries {
    return new SqliteQueries(this.db, before, this.cache);
  }

  statement(sql: string): Database.Statement {
    this.beforeStatement?.(sql);
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }

  all<T>(sql: string, ...params: Param[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  get<T>(sql: string, ...params: Param[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  run(sql: string, ...params: Param[]): Database.RunResult {
    return this.statement(sql).run(...params);
  }

  /** UPDATE of the given columns of one row by id; booleans are stored as 0/1. */
  update(table: string, id: string, changes: Record<string, unknown>): void {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (entries.length === 0) return;
    const values = entries.map(([, value]) => (typeof value === 'boolean' ? (value ? 1 : 0) : (value as Param)));
    this.run(`UPDATE ${table} SET ${entries.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ?`, ...values, id);
  }
}

export function placeholders(count: number): string {
  return new Array(count).fill('?').join(', ');
}
