/** Prepared statements of one better-sqlite3 connection, each prepared once and reused. */
import type Database from 'better-sqlite3';

export type Param = string | number | bigint | null;

export class SqliteQueries {
  private readonly cache = new Map<string, Database.Statement>();
  constructor(readonly db: Database.Database) {}

  statement(sql: string): Database.Statement {
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
