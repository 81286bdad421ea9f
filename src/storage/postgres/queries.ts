/**
 * Statements on a `pg` pool or one pool client. Every statement is sent as a named prepared
 * statement (parsed and planned once per connection); lists are passed as arrays (`= ANY($1)`),
 * so the set of statement texts stays small and fixed.
 */
import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';

export type Param = string | number | boolean | null | readonly (string | null)[];

/** A pool or a client: both run queries. */
export interface PgExecutor {
  query<R extends QueryResultRow = QueryResultRow>(config: QueryConfig<Param[]>): Promise<QueryResult<R>>;
}

const statementNames = new Map<string, string>();

function nameOf(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `ledger_${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** A statement that only reads (possibly locking what it reads). */
function isRead(sql: string): boolean {
  return /^\s*SELECT\b/i.test(sql);
}

export class PgQueries {
  /**
   * `locking` is true inside a write transaction: reads that decide a rule then lock what they
   * read (see LedgerTx in the port). `beforeStatement`, if given, runs before every statement with
   * parameters, told whether it only reads (a write transaction then writes what it keeps pending,
   * and makes sure a job that writes has a savepoint).
   */
  constructor(private readonly executor: PgExecutor, readonly locking: boolean,
    private readonly beforeStatement?: (sql: string, read: boolean) => Promise<void> | undefined) {}

  async all<T extends QueryResultRow>(sql: string, ...params: Param[]): Promise<T[]> {
    if (this.beforeStatement) await this.beforeStatement(sql, isRead(sql));
    return (await this.executor.query<T>({ name: nameOf(sql), text: sql, values: params })).rows;
  }

  /**
   * A read planned for its parameters every time (an unnamed statement), for a query whose best
   * plan depends on the values: a cached generic plan guesses their selectivity.
   */
  async allPlannedEachTime<T extends QueryResultRow>(sql: string, ...params: Param[]): Promise<T[]> {
    if (this.beforeStatement) await this.beforeStatement(sql, isRead(sql));
    return (await this.executor.query<T>({ text: sql, values: params })).rows;
  }

  async get<T extends QueryResultRow>(sql: string, ...params: Param[]): Promise<T | undefined> {
    return (await this.all<T>(sql, ...params))[0];
  }

  /** Runs a statement; returns the number of rows it changed. */
  async run(sql: string, ...params: Param[]): Promise<number> {
    if (this.beforeStatement) await this.beforeStatement(sql, isRead(sql));
    return (await this.executor.query({ name: nameOf(sql), text: sql, values: params })).rowCount ?? 0;
  }

  /** A statement without parameters, sent as a simple query (transaction control). */
  async command(sql: string): Promise<void> {
    await this.executor.query({ text: sql });
  }

  /** Statements without parameters in one simple query (one round trip); answers the last one's rows. */
  async script<T extends QueryResultRow>(sql: string): Promise<T[]> {
    const result = (await this.executor.query<T>({ text: sql })) as QueryResult<T> | QueryResult<T>[];
    return (Array.isArray(result) ? result[result.length - 1]! : result).rows;
  }

  /** UPDATE of the given columns of one row by id. */
  async update(table: string, id: string, changes: Record<string, unknown>): Promise<void> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (entries.length === 0) return;
    const sets = entries.map(([column], index) => `${column} = $${index + 1}`).join(', ');
    await this.run(`UPDATE ${table} SET ${sets} WHERE id = $${entries.length + 1}`, ...entries.map(([, value]) => value as Param), id);
  }
}
