/**
 * The SQLite adapter of the LedgerStore port (better-sqlite3).
 *
 * Two connections: reads outside a transaction use a reader connection that sees only committed
 * data (WAL snapshot); writes use the writer connection. Writes are queued and committed in
 * groups: every job queued in the same event-loop turn runs inside one `BEGIN IMMEDIATE`
 * transaction, each under its own savepoint, so a rejected job rolls back only itself and one
 * fsync serves many requests (durable `synchronous=FULL` at high throughput).
 */
import Database from 'better-sqlite3';
import { LedgerError } from '../../domain/errors.js';
import { asAmount, toDecimalString } from '../../domain/money/amount.js';
import type { Account, Currency, JournalEntry, JournalEntryView, Period, Totals } from '../../domain/types.js';
import type {
  AccountFilter, EntryFilter, IdempotencyRecord, Keyset, LedgerReads, LedgerStore, LedgerTx, NewUserRecord,
  DateRange, LineScope, PageRequest, RefreshTokenRecord, SortOrder, StorePage, StoredUser, TotalsQuery,
} from '../../service/ports/ledger-store.js';
import { MIGRATIONS } from './migrations.js';
import {
  type AccountLineRow, type AccountRow, type CurrencyRow, type EntryRow, type LineRow, type PeriodRow, type UserRow,
  entryTypeOf, toAccount, toAccountLine, toCurrency, toLine, toPeriod, toUser,
} from './rows.js';

type Sqlite = Database.Database;
type Param = string | number | bigint | null;

export interface SqliteStoreOptions {
  path: string;
  /** FULL (default) fsyncs every commit; NORMAL trades the last commits on power loss for speed. */
  synchronous?: 'FULL' | 'NORMAL';
  busyTimeoutMs?: number;
}

/** Creates the database file if needed and brings its schema up to date. */
export function migrateSqlite(path: string): void {
  const db = new Database(path);
  try {
    configure(db, 'FULL', 10_000);
    migrate(db);
  } finally {
    db.close();
  }
}

function configure(db: Sqlite, synchronous: string, busyTimeoutMs: number): void {
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('foreign_keys = ON');
  // Each queued write runs under a savepoint; past 64 KiB SQLite would spill the savepoint journal
  // to temporary files, a third of the write throughput. Temporary data stays in memory.
  db.pragma('temp_store = MEMORY');
}

function migrate(db: Sqlite): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  const apply = db.transaction((migration: (typeof MIGRATIONS)[number]) => {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
      .run(migration.version, migration.name, new Date().toISOString());
  });
  for (const migration of MIGRATIONS) {
    if (!applied.has(migration.version)) apply.immediate(migration);
  }
}

export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const busyTimeoutMs = options.busyTimeoutMs ?? 10_000;
  const writer = new Database(options.path, { fileMustExist: true });
  configure(writer, options.synchronous ?? 'FULL', busyTimeoutMs);
  migrate(writer);
  const reader = new Database(options.path, { fileMustExist: true, readonly: true });
  reader.pragma(`busy_timeout = ${busyTimeoutMs}`);
  return new SqliteStore(writer, reader);
}

const MAX_JOBS_PER_COMMIT = 512;

interface WriteJob {
  work: (tx: LedgerTx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

const DUPLICATE_MESSAGES: Record<string, string> = {
  'currencies.code': 'A currency with this code already exists',
  'currencies.caip19_id': 'A currency with this CAIP-19 id already exists',
  'accounts.account_number': 'An account with this account number already exists',
  'users.email': 'A user with this e-mail address already exists',
};

/** Turns driver errors into ledger errors; anything unknown passes through (a bug: 500). */
function translateError(error: unknown): unknown {
  if (error instanceof LedgerError) return error;
  const code = (error as { code?: string }).code;
  const message = (error as { message?: string }).message ?? '';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const column = /UNIQUE constraint failed: \w+\.(\w+)/.exec(message)?.[1];
    const field = column === 'reverses_id' ? undefined : column;
    if (column === 'reverses_id') {
      return new LedgerError('REVERSAL_NOT_ALLOWED', 'The entry was already reversed', {
        suggestion: 'Post a new entry to correct it further',
      });
    }
    const what = DUPLICATE_MESSAGES[/UNIQUE constraint failed: (\w+\.\w+)/.exec(message)?.[1] ?? ''];
    return new LedgerError('DUPLICATE', what ?? `${field ?? 'value'} is already taken`, {
      field, suggestion: `Choose a different ${field ?? 'value'}`,
    });
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new Error(`database is busy: ${message}`);
  }
  return error;
}

class Statements {
  private readonly cache = new Map<string, Database.Statement>();
  constructor(protected readonly db: Sqlite) {}

  protected _stmt(sql: string): Database.Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }

  protected _all<T>(sql: string, ...params: Param[]): T[] {
    return this._stmt(sql).all(...params) as T[];
  }

  protected _get<T>(sql: string, ...params: Param[]): T | undefined {
    return this._stmt(sql).get(...params) as T | undefined;
  }

  protected _run(sql: string, ...params: Param[]): Database.RunResult {
    return this._stmt(sql).run(...params);
  }
}

function placeholders(count: number): string {
  return new Array(count).fill('?').join(', ');
}

function page<T>(rows: T[], limit: number, keyOf: (row: T) => Keyset): StorePage<T> {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return { items, next: hasMore ? keyOf(items[items.length - 1]!) : undefined };
}

const ENTRY_COLUMNS = `e.seq, e.id, e.entry_date, e.description, e.reference, e.metadata, e.period_id, e.entry_type,
  e.reverses_id, (SELECT r.id FROM journal_entries r WHERE r.reverses_id = e.id) AS reversed_by_id,
  e.created_by, e.posted_at, e.currency_id`;

const LINE_COLUMNS = `l.seq, l.id, l.entry_seq, l.account_id, a.account_number, a.name AS account_name,
  l.debit_amount, l.credit_amount, l.description`;

class SqliteReads extends Statements implements LedgerReads {
  async getCurrency(id: string): Promise<Currency | undefined> {
    const row = this._get<CurrencyRow>('SELECT * FROM currencies WHERE id = ?', id);
    return row && toCurrency(row);
  }

  async listCurrencies(request: PageRequest): Promise<StorePage<Currency>> {
    const after = request.after?.[0] ?? '';
    const rows = this._all<CurrencyRow>('SELECT * FROM currencies WHERE code > ? ORDER BY code LIMIT ?', after, request.limit + 1);
    return page(rows.map(toCurrency), request.limit, (c) => [c.code]);
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const row = this._get<AccountRow>('SELECT * FROM accounts WHERE id = ?', id);
    return row && toAccount(row);
  }

  async getAccounts(ids: readonly string[]): Promise<Map<string, Account>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = this._all<AccountRow>(`SELECT * FROM accounts WHERE id IN (${placeholders(unique.length)})`, ...unique);
    return new Map(rows.map((row) => [row.id, toAccount(row)]));
  }

  async listAccounts(filter: AccountFilter, request: PageRequest): Promise<StorePage<Account>> {
    const where = ['account_number > ?'];
    const params: Param[] = [String(request.after?.[0] ?? '')];
    if (filter.account_type !== undefined) { where.push('account_type = ?'); params.push(filter.account_type); }
    if (filter.currency_id !== undefined) { where.push('currency_id = ?'); params.push(filter.currency_id); }
    if (filter.is_active !== undefined) { where.push('is_active = ?'); params.push(filter.is_active ? 1 : 0); }
    if (filter.parent_id !== undefined) { where.push('parent_id = ?'); params.push(filter.parent_id); }
    const rows = this._all<AccountRow>(
      `SELECT * FROM accounts WHERE ${where.join(' AND ')} ORDER BY account_number LIMIT ?`, ...params, request.limit + 1);
    return page(rows.map(toAccount), request.limit, (a) => [a.account_number]);
  }

  async listSubAccounts(parentId: string): Promise<Account[]> {
    return this._all<AccountRow>('SELECT * FROM accounts WHERE parent_id = ? ORDER BY account_number', parentId).map(toAccount);
  }

  async allAccounts(): Promise<Account[]> {
    return this._all<AccountRow>('SELECT * FROM accounts ORDER BY account_number').map(toAccount);
  }

  async accountTotals(query: TotalsQuery): Promise<Map<string, Totals>> {
    const ids = query.account_ids;
    if (ids !== undefined && ids.length === 0) return new Map();
    const accountFilter = ids === undefined ? '' : ` AND account_id IN (${placeholders(ids.length)})`;
    const idParams = ids ?? [];
    let rows: TotalsRow[];
    if (query.period_id !== undefined) {
      rows = this._all<TotalsRow>(`SELECT account_id, debit_total, credit_total FROM account_period_totals
        WHERE period_id = ?${accountFilter}`, query.period_id, ...idParams);
    } else if (query.before_date !== undefined) {
      // Whole periods that ended before the date, then the days of the date's own period before it.
      const lastEnd = this._get<{ end_date: string | null }>(
        'SELECT MAX(end_date) AS end_date FROM periods WHERE end_date < ?', query.before_date)?.end_date ?? '';
      rows = [
        ...this._all<TotalsRow>(`SELECT account_id, debit_total, credit_total FROM account_period_totals
          WHERE period_id IN (SELECT id FROM periods WHERE end_date <= ?)${accountFilter}`, lastEnd, ...idParams),
        ...this._all<TotalsRow>(`SELECT account_id, debit_total, credit_total FROM account_daily_totals
          WHERE entry_date > ? AND entry_date < ?${accountFilter}`, lastEnd, query.before_date, ...idParams),
      ];
    } else {
      rows = this._all<TotalsRow>(`SELECT account_id, debit_total, credit_total FROM account_balances
        WHERE 1 = 1${accountFilter}`, ...idParams);
    }
    return sumByAccount(rows);
  }

  async closingTotals(scope: { period_id?: string | undefined; range?: DateRange | undefined }): Promise<Map<string, Totals>> {
    const where = ["e.entry_type = 'closing'"];
    const params: Param[] = [];
    if (scope.period_id !== undefined) { where.push('e.period_id = ?'); params.push(scope.period_id); }
    if (scope.range?.start_date !== undefined) { where.push('e.entry_date >= ?'); params.push(scope.range.start_date); }
    if (scope.range?.end_date !== undefined) { where.push('e.entry_date <= ?'); params.push(scope.range.end_date); }
    const rows = this._all<TotalsRow>(`SELECT l.account_id, l.debit_amount AS debit_total, l.credit_amount AS credit_total
      FROM journal_entries e JOIN journal_lines l ON l.entry_seq = e.seq WHERE ${where.join(' AND ')}`, ...params);
    return sumByAccount(rows);
  }

  async listAccountLines(scope: LineScope, range: DateRange, order: SortOrder, request: PageRequest) {
    const [scopeColumn, scopeId] = 'account_id' in scope ? ['l.account_id', scope.account_id] : ['l.parent_account_id', scope.parent_id];
    const where = [`${scopeColumn} = ?`];
    const params: Param[] = [scopeId];
    if (range.start_date !== undefined) { where.push('l.entry_date >= ?'); params.push(range.start_date); }
    if (range.end_date !== undefined) { where.push('l.entry_date <= ?'); params.push(range.end_date); }
    if (request.after !== undefined) {
      where.push(`(l.entry_date, l.seq) ${order === 'asc' ? '>' : '<'} (?, ?)`);
      params.push(String(request.after[0]), Number(request.after[1]));
    }
    const direction = order === 'asc' ? 'ASC' : 'DESC';
    const rows = this._all<AccountLineRow>(
      `SELECT ${LINE_COLUMNS}, e.id AS journal_entry_id, l.entry_date, e.description AS entry_description, e.reference
       FROM journal_lines l
       JOIN accounts a ON a.id = l.account_id
       JOIN journal_entries e ON e.seq = l.entry_seq
       WHERE ${where.join(' AND ')}
       ORDER BY l.entry_date ${direction}, l.seq ${direction} LIMIT ?`, ...params, request.limit + 1);
    return mapPage(page(rows, request.limit, (row) => [row.entry_date, row.seq]), toAccountLine);
  }

  async getPeriod(id: string): Promise<Period | undefined> {
    const row = this._get<PeriodRow>('SELECT * FROM periods WHERE id = ?', id);
    return row && toPeriod(row);
  }

  async findPeriodContaining(date: string): Promise<Period | undefined> {
    const row = this._get<PeriodRow>(
      'SELECT * FROM periods WHERE start_date <= ? ORDER BY start_date DESC LIMIT 1', date);
    return row && row.end_date >= date ? toPeriod(row) : undefined;
  }

  async findOverlappingPeriods(startDate: string, endDate: string): Promise<Period[]> {
    return this._all<PeriodRow>('SELECT * FROM periods WHERE start_date <= ? AND end_date >= ? ORDER BY start_date',
      endDate, startDate).map(toPeriod);
  }

  async listPeriods(request: PageRequest): Promise<StorePage<Period>> {
    const rows = this._all<PeriodRow>('SELECT * FROM periods WHERE start_date > ? ORDER BY start_date LIMIT ?',
      String(request.after?.[0] ?? ''), request.limit + 1);
    return page(rows.map(toPeriod), request.limit, (p) => [p.start_date]);
  }

  async getEntry(id: string): Promise<JournalEntryView | undefined> {
    const row = this._get<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM journal_entries e WHERE e.id = ?`, id);
    return row && this._withLines([row])[0];
  }

  async listEntries(filter: EntryFilter, order: SortOrder, request: PageRequest): Promise<StorePage<JournalEntryView>> {
    const where: string[] = [];
    const params: Param[] = [];
    if (request.after !== undefined) {
      where.push(`(e.entry_date, e.seq) ${order === 'asc' ? '>' : '<'} (?, ?)`);
      params.push(String(request.after[0]), Number(request.after[1]));
    }
    if (filter.period_id !== undefined) { where.push('e.period_id = ?'); params.push(filter.period_id); }
    if (filter.start_date !== undefined) { where.push('e.entry_date >= ?'); params.push(filter.start_date); }
    if (filter.end_date !== undefined) { where.push('e.entry_date <= ?'); params.push(filter.end_date); }
    if (filter.lines !== undefined) {
      const [column, id] = 'account_id' in filter.lines ? ['account_id', filter.lines.account_id] : ['parent_account_id', filter.lines.parent_id];
      where.push(`e.seq IN (SELECT l.entry_seq FROM journal_lines l WHERE l.${column} = ?)`);
      params.push(id);
    }
    const direction = order === 'asc' ? 'ASC' : 'DESC';
    const rows = this._all<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM journal_entries e ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY e.entry_date ${direction}, e.seq ${direction} LIMIT ?`, ...params, request.limit + 1);
    const result = page(rows, request.limit, (row) => [row.entry_date, row.seq]);
    return { items: this._withLines(result.items), next: result.next };
  }

  protected _withLines(rows: EntryRow[]): JournalEntryView[] {
    if (rows.length === 0) return [];
    const lines = this._all<LineRow>(
      `SELECT ${LINE_COLUMNS} FROM journal_lines l JOIN accounts a ON a.id = l.account_id
       WHERE l.entry_seq IN (${placeholders(rows.length)}) ORDER BY l.seq`, ...rows.map((row) => row.seq));
    const byEntry = new Map<number, LineRow[]>();
    for (const line of lines) {
      const list = byEntry.get(line.entry_seq);
      if (list) list.push(line);
      else byEntry.set(line.entry_seq, [line]);
    }
    return rows.map((row) => ({
      id: row.id,
      entry_date: row.entry_date,
      description: row.description,
      reference: row.reference,
      metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
      period_id: row.period_id,
      entry_type: entryTypeOf(row.entry_type),
      reverses_id: row.reverses_id,
      reversed_by_id: row.reversed_by_id,
      created_by: row.created_by,
      posted_at: row.posted_at,
      currency_id: row.currency_id,
      lines: (byEntry.get(row.seq) ?? []).map(toLine),
    }));
  }

  async currencyDebitTotal(currencyId: string): Promise<bigint> {
    const row = this._get<{ debit_total: string }>('SELECT debit_total FROM currency_totals WHERE currency_id = ?', currencyId);
    return row ? BigInt(row.debit_total) : 0n;
  }

  async getSetting(key: string): Promise<string | undefined> {
    return this._get<{ value: string }>('SELECT value FROM settings WHERE key = ?', key)?.value;
  }

  async getUser(id: string): Promise<StoredUser | undefined> {
    const row = this._get<UserRow>('SELECT * FROM users WHERE id = ?', id);
    return row && toUser(row);
  }

  async findUserByEmail(email: string): Promise<StoredUser | undefined> {
    const row = this._get<UserRow>('SELECT * FROM users WHERE email = ?', email);
    return row && toUser(row);
  }

  async findUserByApiKeyHash(keyHash: string): Promise<StoredUser | undefined> {
    const row = this._get<UserRow>(
      'SELECT u.* FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?', keyHash);
    return row && toUser(row);
  }

  async listUsers(request: PageRequest) {
    const rows = this._all<UserRow>('SELECT * FROM users WHERE id > ? ORDER BY id LIMIT ?',
      String(request.after?.[0] ?? ''), request.limit + 1);
    return mapPage(page(rows, request.limit, (u) => [u.id]), (row) => {
      const { password_hash: _hash, ...user } = toUser(row);
      return user;
    });
  }

  async countUsers(): Promise<number> {
    return this._get<{ count: number }>('SELECT COUNT(*) AS count FROM users')!.count;
  }

  async countActiveAdmins(): Promise<number> {
    return this._get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM users WHERE is_active = 1 AND json_extract(permissions, '$.admin') = 1")!.count;
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    return this._get<RefreshTokenRecord>('SELECT * FROM refresh_tokens WHERE token_hash = ?', tokenHash);
  }

  async getIdempotencyRecord(principalId: string, key: string): Promise<IdempotencyRecord | undefined> {
    return this._get<IdempotencyRecord>(
      'SELECT request_hash, status_code, response_body, created_at FROM idempotency_keys WHERE principal_id = ? AND key = ?',
      principalId, key);
  }
}

interface TotalsRow {
  account_id: string;
  debit_total: string;
  credit_total: string;
}

function sumByAccount(rows: readonly TotalsRow[]): Map<string, Totals> {
  const sums = new Map<string, { debits: bigint; credits: bigint }>();
  for (const row of rows) {
    const sum = sums.get(row.account_id);
    if (sum) {
      sum.debits += BigInt(row.debit_total);
      sum.credits += BigInt(row.credit_total);
    } else {
      sums.set(row.account_id, { debits: BigInt(row.debit_total), credits: BigInt(row.credit_total) });
    }
  }
  const totals = new Map<string, Totals>();
  for (const [accountId, sum] of sums) {
    totals.set(accountId, { debit_total: asAmount(sum.debits), credit_total: asAmount(sum.credits) });
  }
  return totals;
}

function mapPage<A, B>(source: StorePage<A>, map: (item: A) => B): StorePage<B> {
  return { items: source.items.map(map), next: source.next };
}

class SqliteTx extends SqliteReads implements LedgerTx {
  async insertCurrency(currency: Currency): Promise<void> {
    this._run(`INSERT INTO currencies (id, code, name, symbol, asset_scale, asset_type, caip19_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, currency.id, currency.code, currency.name, currency.symbol,
    currency.asset_scale, currency.asset_type, currency.caip19_id, currency.created_at);
  }

  async updateCurrency(id: string, changes: Partial<Pick<Currency, 'name' | 'symbol'>>): Promise<void> {
    this._update('currencies', id, changes);
  }

  async insertAccount(account: Account): Promise<void> {
    this._run(`INSERT INTO accounts (id, account_number, name, currency_id, account_type, normal_balance,
      has_subledger, parent_id, entity_id, xbrl_tag, is_active, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    account.id, account.account_number, account.name, account.currency_id, account.account_type,
    account.normal_balance, account.has_subledger ? 1 : 0, account.parent_id, account.entity_id, account.xbrl_tag,
    account.is_active ? 1 : 0, account.created_at);
  }

  async updateAccount(id: string, changes: Partial<Pick<Account, 'name' | 'is_active' | 'xbrl_tag'>>): Promise<void> {
    this._update('accounts', id, changes);
  }

  async insertPeriod(period: Period): Promise<void> {
    this._run(`INSERT INTO periods (id, name, start_date, end_date, status, closed_at, closed_by, closing_entry_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, period.id, period.name, period.start_date, period.end_date, period.status,
    period.closed_at, period.closed_by, period.closing_entry_id, period.created_at);
  }

  async updatePeriod(id: string, changes: Partial<Pick<Period, 'status' | 'closed_at' | 'closed_by' | 'closing_entry_id'>>) {
    this._update('periods', id, changes);
  }

  async insertEntry(entry: JournalEntry, currencyDebitTotal: bigint): Promise<void> {
    const result = this._run(`INSERT INTO journal_entries (id, entry_date, description, reference, metadata, period_id,
      entry_type, reverses_id, created_by, posted_at, currency_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    entry.id, entry.entry_date, entry.description, entry.reference,
    entry.metadata === null ? null : JSON.stringify(entry.metadata), entry.period_id, entry.entry_type,
    entry.reverses_id, entry.created_by, entry.posted_at, entry.currency_id);
    const entrySeq = result.lastInsertRowid;
    const perAccount = new Map<string, { debits: bigint; credits: bigint }>();
    for (const line of entry.lines) {
      this._run(`INSERT INTO journal_lines (id, entry_seq, account_id, parent_account_id, entry_date, debit_amount,
        credit_amount, description) VALUES (?, ?, ?, (SELECT parent_id FROM accounts WHERE id = ?), ?, ?, ?, ?)`,
      line.id, entrySeq, line.account_id, line.account_id, entry.entry_date,
      toDecimalString(line.debit_amount), toDecimalString(line.credit_amount), line.description);
      const sums = perAccount.get(line.account_id) ?? { debits: 0n, credits: 0n };
      sums.debits += line.debit_amount;
      sums.credits += line.credit_amount;
      perAccount.set(line.account_id, sums);
    }
    for (const [accountId, sums] of perAccount) {
      this._addTotals('account_balances', 'account_id = ?', [accountId], sums,
        'INSERT INTO account_balances (account_id, debit_total, credit_total) VALUES (?, ?, ?)');
      this._addTotals('account_period_totals', 'account_id = ? AND period_id = ?', [accountId, entry.period_id], sums,
        'INSERT INTO account_period_totals (account_id, period_id, debit_total, credit_total) VALUES (?, ?, ?, ?)');
      this._addTotals('account_daily_totals', 'account_id = ? AND entry_date = ?', [accountId, entry.entry_date], sums,
        'INSERT INTO account_daily_totals (account_id, entry_date, debit_total, credit_total) VALUES (?, ?, ?, ?)');
    }
    this._run(`INSERT INTO currency_totals (currency_id, debit_total) VALUES (?, ?)
      ON CONFLICT (currency_id) DO UPDATE SET debit_total = excluded.debit_total`, entry.currency_id, currencyDebitTotal.toString());
  }

  /** Read-modify-write of a totals row; exact bigint arithmetic, run inside the write transaction. */
  private _addTotals(table: string, where: string, keys: Param[], sums: { debits: bigint; credits: bigint },
    insertSql: string): void {
    const row = this._get<{ debit_total: string; credit_total: string }>(
      `SELECT debit_total, credit_total FROM ${table} WHERE ${where}`, ...keys);
    if (row) {
      this._run(`UPDATE ${table} SET debit_total = ?, credit_total = ? WHERE ${where}`,
        (BigInt(row.debit_total) + sums.debits).toString(), (BigInt(row.credit_total) + sums.credits).toString(), ...keys);
    } else {
      this._run(insertSql, ...keys, sums.debits.toString(), sums.credits.toString());
    }
  }

  async setSetting(key: string, value: string): Promise<void> {
    this._run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      key, value);
  }

  async insertUser(user: NewUserRecord): Promise<void> {
    this._run(`INSERT INTO users (id, name, email, user_type, password_hash, permissions, is_active, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, user.id, user.name, user.email, user.user_type, user.password_hash,
    JSON.stringify(user.permissions), user.is_active ? 1 : 0, user.created_at);
  }

  async updateUser(id: string, changes: Partial<Pick<StoredUser, 'name' | 'permissions' | 'is_active' | 'password_hash'>>) {
    const { permissions, ...rest } = changes;
    this._update('users', id, permissions === undefined ? rest : { ...rest, permissions: JSON.stringify(permissions) });
  }

  async insertApiKey(key: { id: string; user_id: string; key_hash: string; created_at: string }): Promise<void> {
    this._run('INSERT INTO api_keys (id, user_id, key_hash, created_at) VALUES (?, ?, ?, ?)',
      key.id, key.user_id, key.key_hash, key.created_at);
  }

  async insertRefreshToken(token: RefreshTokenRecord): Promise<void> {
    this._run(`INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at, revoked_at, replaced_by)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, token.id, token.user_id, token.family_id, token.token_hash, token.created_at,
    token.expires_at, token.revoked_at, token.replaced_by);
  }

  async revokeRefreshToken(id: string, revokedAt: string, replacedBy: string | null): Promise<void> {
    this._run('UPDATE refresh_tokens SET revoked_at = ?, replaced_by = ? WHERE id = ? AND revoked_at IS NULL', revokedAt, replacedBy, id);
  }

  async revokeRefreshFamily(familyId: string, revokedAt: string): Promise<void> {
    this._run('UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL', revokedAt, familyId);
  }

  async reserveIdempotencyKey(principalId: string, key: string, requestHash: string, createdAt: string) {
    const result = this._run(`INSERT INTO idempotency_keys (principal_id, key, request_hash, created_at)
      VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, principalId, key, requestHash, createdAt);
    return result.changes === 1;
  }

  async completeIdempotencyKey(principalId: string, key: string, statusCode: number, responseBody: string) {
    this._run('UPDATE idempotency_keys SET status_code = ?, response_body = ? WHERE principal_id = ? AND key = ?',
      statusCode, responseBody, principalId, key);
  }

  async releaseIdempotencyKey(principalId: string, key: string): Promise<void> {
    this._run('DELETE FROM idempotency_keys WHERE principal_id = ? AND key = ? AND status_code IS NULL', principalId, key);
  }

  async deleteIdempotencyKeysBefore(createdBefore: string): Promise<void> {
    this._run('DELETE FROM idempotency_keys WHERE created_at < ?', createdBefore);
  }

  private _update(table: string, id: string, changes: Record<string, unknown>): void {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (entries.length === 0) return;
    const values = entries.map(([, value]) => (typeof value === 'boolean' ? (value ? 1 : 0) : (value as Param)));
    this._run(`UPDATE ${table} SET ${entries.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ?`, ...values, id);
  }
}

export class SqliteStore extends SqliteReads implements LedgerStore {
  private readonly writeSide: SqliteTx;
  private readonly queue: WriteJob[] = [];
  private flushing = false;
  private scheduled = false;

  /** Transaction control runs for every queued job, so its statements are prepared once. */
  private readonly control: Record<'begin' | 'savepoint' | 'release' | 'rollbackTo' | 'commit', Database.Statement>;

  constructor(private readonly writer: Sqlite, private readonly reader: Sqlite) {
    super(reader);
    this.writeSide = new SqliteTx(writer);
    this.control = {
      begin: writer.prepare('BEGIN IMMEDIATE'),
      savepoint: writer.prepare('SAVEPOINT job'),
      release: writer.prepare('RELEASE job'),
      rollbackTo: writer.prepare('ROLLBACK TO job'),
      commit: writer.prepare('COMMIT'),
    };
  }

  write<T>(work: (tx: LedgerTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    const batch = this.queue.splice(0, MAX_JOBS_PER_COMMIT);
    try {
      await this.commitBatch(batch);
    } catch (error) {
      // The transaction failed as a whole (busy past the timeout, disk full, I/O error):
      // nothing of the batch was committed and every job of it is told so.
      if (this.writer.inTransaction) {
        try { this.writer.exec('ROLLBACK'); } catch { /* the connection already rolled back */ }
      }
      const failure = translateError(error);
      for (const job of batch) job.reject(failure);
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) this.schedule();
    }
  }

  /** Runs each job under its own savepoint in one transaction; settles the jobs after COMMIT. */
  private async commitBatch(batch: readonly WriteJob[]): Promise<void> {
    this.control.begin.run();
    const outcomes: { ok: boolean; value: unknown }[] = [];
    for (const job of batch) {
      this.control.savepoint.run();
      try {
        const value = await job.work(this.writeSide);
        this.control.release.run();
        outcomes.push({ ok: true, value });
      } catch (error) {
        // Some errors make SQLite roll back the whole transaction; then the batch fails.
        if (!this.writer.inTransaction) throw error;
        this.control.rollbackTo.run();
        this.control.release.run();
        outcomes.push({ ok: false, value: translateError(error) });
      }
    }
    this.control.commit.run();
    batch.forEach((job, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.value);
    });
  }

  async ping(): Promise<boolean> {
    return (this.reader.prepare('SELECT 1 AS one').get() as { one: number } | undefined)?.one === 1;
  }

  async close(): Promise<void> {
    while (this.flushing || this.scheduled || this.queue.length > 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.reader.close();
    this.writer.close();
  }
}
