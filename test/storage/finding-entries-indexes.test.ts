/**
 * Every index of the books (entries, lines, maintained totals), the audit log and the search is
 * kept because a query needs it, and each one's plan here shows that query using it, on both
 * stores (docs/benchmarks.md, "The indexes and the queries that need them", lists them with these
 * tests' names). An index added without a case here, or a case left for an index dropped, fails the
 * first test. Timings on a million-line ledger belong to the bench (bench/), not here.
 * Also: a ledger posted before the search existed is searchable once migrated.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseDatabaseLocation } from '../../src/app/database-location.js';
import { queryWords } from '../../src/domain/journal/search-words.js';
import { auditLogQuery } from '../../src/storage/shared/audit-log.js';
import { UNSEALED_SINCE } from '../../src/storage/postgres/audit-log.js';
import { BACKFILL_BATCH_SQL } from '../../src/storage/postgres/entry-search.js';
import type { JournalEntry } from '../../src/domain/types.js';
import type { AuditLogFilter } from '../../src/service/ports/ledger-store.js';
import { credit, debit, EntryFixtures, insertBooks, standardBooks } from './contract/fixtures.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { openStoreAt, openTestStore, type TestStore } from '../helpers/test-store.js';
import { testBackend } from '../helpers/test-location.js';

const ENTRIES = 3000;
const books = standardBooks();

/** The planner's plan of a statement, as one text. */
async function planOf(location: string, sql: string, params: readonly unknown[]): Promise<string> {
  const parsed = parseDatabaseLocation(location);
  if (parsed.kind === 'sqlite') {
    const rows = await rawQuery<{ detail: string }>(location, `EXPLAIN QUERY PLAN ${sql.replace(/\$(\d+)(::\w+)?/g, '$$$1')}`, params);
    return rows.map((row) => row.detail).join('\n');
  }
  const client = new pg.Client({ connectionString: parsed.url });
  await client.connect();
  try {
    await client.query('ANALYZE');
    // A few thousand rows fit in a few pages, which PostgreSQL rightly reads whole; on a large
    // ledger the index is the cheaper path. Ruling out whole-table reads asks whether one exists.
    await client.query('SET enable_seqscan = off');
    const rows = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [...params])).rows;
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

function bookOf(fixtures: EntryFixtures, index: number): JournalEntry {
  const day = String((index % 28) + 1).padStart(2, '0');
  return fixtures.entry({
    date: `2026-01-${day}`, period: books.january, description: `Sale number ${index} to customer ${index % 97}`,
    reference: `INV-${index}`, lines: [debit(books.cash, index + 1, `item ${index}`), credit(books.sales, index + 1)],
  });
}

const sqlite = () => testBackend() === 'sqlite';

/** A PostgreSQL plan's scan of the index: by index, index only, or through a bitmap. */
const pgUses = (name: string) => new RegExp(`(using|Bitmap Index Scan on) ${name}\\b`);

/** The tables whose every index must be needed by a query: the books, the maintained totals, the audit log, the search. */
const REVIEWED_TABLES = {
  sqlite: ['journal_entries', 'journal_lines', 'account_balances', 'account_period_totals', 'account_daily_totals', 'currency_totals',
    'audit_log', 'audit_seals', 'audit_unsealed', 'entry_words'],
  postgres: ['journal_entries', 'journal_lines', 'account_balances', 'account_period_totals', 'account_daily_totals', 'currency_totals',
    'audit_log', 'audit_seals', 'entry_search'],
} as const;

/**
 * An index and the query it is kept for. `index` is the name the store gives it, except for
 * SQLite's own unnamed ones: a key of a table without row ids is "<table> primary key", a UNIQUE
 * column's "<table> unique (<columns>)". `uses` is what its plan shows when the index serves it.
 */
interface IndexCase {
  index: string;
  query: string;
  sql: string;
  params: readonly unknown[];
  uses: RegExp;
}

/** The audit log's page query as each adapter sends it (PostgreSQL limits each source of the UNION ALL itself). */
const auditPlan = (filter: AuditLogFilter) => {
  const { sql, params } = auditLogQuery(filter, { limit: 50 }, (position) => `$${position}`,
    { limitEachSource: testBackend() === 'postgres' });
  return { sql, params };
};

/** The same statement and plan on both stores; `index` and `uses` name what each store calls it. */
const LEDGER_CASES = (store: 'sqlite' | 'postgres'): IndexCase[] => {
  const named = (sqliteName: string, postgresName: string) => (store === 'sqlite' ? sqliteName : postgresName);
  const using = (name: string) => (store === 'sqlite' ? new RegExp(`USING (COVERING )?INDEX ${name}\\b`) : pgUses(name));
  const byName = (name: string) => ({ index: name, uses: using(name) });
  const entryIdIndex = named('sqlite_autoindex_journal_entries_1', 'journal_entries_id_key');
  const reversesIndex = named('sqlite_autoindex_journal_entries_2', 'journal_entries_reverses_id_key');
  const lineIdIndex = named('sqlite_autoindex_journal_lines_1', 'journal_lines_id_key');
  const sealIndex = named('sqlite_autoindex_audit_seals_1', 'audit_seals_occurred_at_id_key');
  return [
    {
      index: named('journal_entries unique (id)', 'journal_entries_id_key'), uses: using(entryIdIndex),
      query: 'an entry by its id (GET /journal-entries/{id}; the target of reverses_id)',
      sql: 'SELECT e.seq FROM journal_entries e WHERE e.id = $1', params: ['entry-17'],
    },
    {
      index: named('journal_entries unique (reverses_id)', 'journal_entries_reverses_id_key'), uses: using(reversesIndex),
      query: "an entry's reversal (reversed_by_id of every entry read; at most one reversal per entry)",
      sql: 'SELECT r.id FROM journal_entries r WHERE r.reverses_id = $1', params: ['entry-17'],
    },
    {
      ...byName('journal_entries_date'), query: 'the journal newest first (GET /journal-entries)',
      sql: 'SELECT e.id FROM journal_entries e ORDER BY e.entry_date DESC, e.seq DESC LIMIT 51', params: [],
    },
    {
      ...byName('journal_entries_period'), query: "a period's entries (GET /journal-entries?period_id=; a period with entries is kept)",
      sql: 'SELECT e.id FROM journal_entries e WHERE e.period_id = $1 ORDER BY e.entry_date, e.seq LIMIT 51', params: [books.january.id],
    },
    {
      ...byName('journal_entries_closing'), query: "a closed period's closing entry (the income statement leaves it out)",
      sql: `SELECT l.account_id, l.debit_amount, l.credit_amount FROM journal_entries e JOIN journal_lines l ON l.entry_seq = e.seq
        WHERE e.entry_type = 'closing' AND e.period_id = $1`, params: [books.january.id],
    },
    {
      ...byName('journal_entries_reference'), query: 'entries by reference (GET /journal-entries?reference=)',
      sql: 'SELECT e.id FROM journal_entries e WHERE e.reference = $1 ORDER BY e.entry_date, e.seq LIMIT 51', params: ['INV-17'],
    },
    {
      ...byName('journal_entries_type'), query: 'entries by type (GET /journal-entries?entry_type=reversal)',
      sql: 'SELECT e.id FROM journal_entries e WHERE e.entry_type = $1 ORDER BY e.entry_date, e.seq LIMIT 51', params: ['reversal'],
    },
    {
      ...byName('journal_entries_number'), query: 'an entry by its number (GET /journal-entries?entry_number=, q=#n; numbers are unique)',
      sql: 'SELECT e.id FROM journal_entries e WHERE e.entry_number = $1::bigint', params: [17],
    },
    {
      ...byName('journal_entries_event'), query: 'the change feed: posts after a seq (GET /api/v1/events, storage/shared/events.ts)',
      sql: 'SELECT e.id FROM journal_entries e WHERE e.event_seq > $1 ORDER BY e.event_seq LIMIT 101', params: [17],
    },
    store === 'sqlite' ? {
      ...byName('journal_entries_debit'), query: 'entries by amount (GET /journal-entries?min_amount=&max_amount=)',
      sql: 'SELECT e.id FROM journal_entries e WHERE e.debit_key BETWEEN $1 AND $2 ORDER BY e.entry_date, e.seq LIMIT 51',
      params: ['17'.padStart(39, '0'), '20'.padStart(39, '0')],
    } : {
      ...byName('journal_entries_debit'), query: 'entries by amount (GET /journal-entries?min_amount=&max_amount=)',
      sql: `SELECT e.id FROM journal_entries e WHERE e.debit_total >= $1::numeric AND e.debit_total <= $2::numeric
        ORDER BY e.entry_date, e.seq LIMIT 51`, params: ['17', '20'],
    },
    store === 'sqlite' ? {
      index: 'journal_lines primary key', uses: /SEARCH l USING PRIMARY KEY \(entry_seq=\?\)/,
      query: "the lines of a page of entries, one range of the key each",
      sql: 'SELECT l.id FROM journal_lines l WHERE l.entry_seq IN ($1, $2) ORDER BY l.entry_seq, l.seq', params: [17, 18],
    } : {
      ...byName('journal_lines_pkey'), query: "the lines of a page of entries, one range of the key each",
      sql: 'SELECT l.id FROM journal_lines l WHERE l.entry_seq = ANY($1::bigint[]) ORDER BY l.entry_seq, l.seq', params: [['17', '18']],
    },
    {
      index: named('journal_lines unique (id)', 'journal_lines_id_key'), uses: using(lineIdIndex),
      query: "a reconciliation's lines by id (and the target of every reference to a line: bank matches, marks, reconciled lines)",
      sql: `SELECT l.debit_amount, l.credit_amount FROM reconciled_lines r JOIN journal_lines l ON l.id = r.journal_line_id
        WHERE r.account_id = $1`, params: [books.cash.id],
    },
    {
      ...byName('journal_lines_account'), query: "an account's general ledger page (and its aged balances, bank matching, entries by account)",
      sql: `SELECT l.id FROM journal_lines l WHERE l.account_id = $1 AND l.entry_date >= $2
        ORDER BY l.entry_date, l.seq LIMIT 51`, params: [books.cash.id, '2026-01-10'],
    },
    {
      ...byName('journal_lines_parent'), query: "a control account's general ledger page (its sub-accounts' lines)",
      sql: `SELECT l.id FROM journal_lines l WHERE l.parent_account_id = $1 AND l.entry_date >= $2
        ORDER BY l.entry_date, l.seq LIMIT 51`, params: [books.bank.id, '2026-01-10'],
    },
    store === 'sqlite' ? {
      index: 'account_balances primary key', uses: /SEARCH account_balances USING PRIMARY KEY \(account_id=\?\)/,
      query: "an account's balance (GET /accounts/{id}/balance; posting's writes)",
      sql: 'SELECT debit_total, credit_total FROM account_balances WHERE account_id IN ($1)', params: [books.cash.id],
    } : {
      ...byName('account_balances_pkey'), query: "an account's balance (GET /accounts/{id}/balance; posting's writes)",
      sql: 'SELECT debit_total, credit_total FROM account_balances WHERE true AND account_id = ANY($1::text[])', params: [[books.cash.id]],
    },
    store === 'sqlite' ? {
      index: 'account_period_totals primary key', uses: /SEARCH account_period_totals USING PRIMARY KEY \(account_id=\? AND period_id=\?\)/,
      query: "posting's writes of an account's period total (and reports' totals of given accounts)",
      sql: 'SELECT debit_total, credit_total FROM account_period_totals WHERE account_id = $1 AND period_id = $2',
      params: [books.cash.id, books.january.id],
    } : {
      index: 'account_period_totals_pkey', uses: /Conflict Arbiter Indexes: account_period_totals_pkey/,
      query: "posting's writes of an account's period total (and reports' totals of given accounts)",
      sql: `INSERT INTO account_period_totals (account_id, period_id, debit_total, credit_total)
        SELECT * FROM unnest($1::text[], $2::text[], $3::numeric[], $4::numeric[])
        ON CONFLICT (account_id, period_id) DO UPDATE SET debit_total = account_period_totals.debit_total + excluded.debit_total`,
      params: [[books.cash.id], [books.january.id], ['1'], ['0']],
    },
    store === 'sqlite' ? {
      index: 'account_daily_totals primary key', uses: /SEARCH account_daily_totals USING PRIMARY KEY \(account_id=\? AND entry_date>\? AND entry_date<\?\)/,
      query: "an account's daily totals over a range (income statement by month; posting's writes)",
      sql: 'SELECT entry_date, debit_total FROM account_daily_totals WHERE account_id IN ($1) AND entry_date > $2 AND entry_date < $3',
      params: [books.cash.id, '2026-01-01', '2026-02-01'],
    } : {
      ...byName('account_daily_totals_pkey'), query: "an account's daily totals over a range (income statement by month; posting's writes)",
      sql: 'SELECT entry_date, debit_total FROM account_daily_totals WHERE account_id = ANY($1::text[]) AND entry_date > $2 AND entry_date < $3',
      params: [[books.cash.id], '2026-01-01', '2026-02-01'],
    },
    {
      ...byName('account_daily_totals_date'), query: "every account's totals of the days before a date in its period (trial balance as of a date)",
      sql: 'SELECT account_id, debit_total, credit_total FROM account_daily_totals WHERE entry_date > $1 AND entry_date < $2',
      params: ['2026-01-01', '2026-01-15'],
    },
    store === 'sqlite' ? {
      index: 'currency_totals primary key', uses: /SEARCH currency_totals USING PRIMARY KEY \(currency_id=\?\)/,
      query: "a currency's debit total and chain head, read by every post (locked, on PostgreSQL)",
      sql: 'SELECT debit_total, chain_hash FROM currency_totals WHERE currency_id = $1', params: [books.usd.id],
    } : {
      ...byName('currency_totals_pkey'), query: "a currency's debit total and chain head, read by every post (locked, on PostgreSQL)",
      sql: 'SELECT debit_total, chain_hash FROM currency_totals WHERE currency_id = $1 FOR UPDATE', params: [books.usd.id],
    },
    store === 'sqlite' ? {
      index: 'audit_log primary key', uses: /SEARCH audit_log USING PRIMARY KEY \(occurred_at>\? AND occurred_at<\?\)/,
      query: "the audit log's days (GET /audit-log?start_date=&end_date=), in log order",
      ...auditPlan({ start_date: '2026-01-01', end_date: '2026-01-31' }),
    } : {
      ...byName('audit_log_pkey'), query: "the audit log's days (GET /audit-log?start_date=&end_date=), in log order",
      ...auditPlan({ start_date: '2026-01-01', end_date: '2026-01-31' }),
    },
    { ...byName('audit_log_actor'), query: "an actor's records (GET /audit-log?actor_id=)", ...auditPlan({ actor_id: 'user-1' }) },
    { ...byName('audit_log_action'), query: 'records of an action (GET /audit-log?action=)', ...auditPlan({ action: 'account.update' }) },
    { ...byName('audit_log_target'), query: "a target's records (GET /audit-log?target_id=)", ...auditPlan({ target_id: 'account-1' }) },
    {
      ...byName('journal_entries_audit'), query: 'the posts in the audit log, read from their entries (GET /audit-log, any filter but an actor)',
      ...auditPlan({ action: 'journal_entry.create' }),
    },
    {
      ...byName('journal_entries_audit_actor'), query: "an actor's posts in the audit log, read from their entries (GET /audit-log?actor_id=)",
      ...auditPlan({ actor_id: 'user-1' }),
    },
    {
      index: named('audit_seals unique (occurred_at, id)', 'audit_seals_occurred_at_id_key'), uses: using(sealIndex),
      query: "each audit record's hash, its seal's (every audit log page; one seal per record)", ...auditPlan({ actor_id: 'user-1' }),
    },
  ];
};

const SQLITE_ONLY: IndexCase[] = [
  {
    index: 'audit_unsealed primary key', uses: /SEARCH audit_unsealed USING PRIMARY KEY \(\(occurred_at,id\)<\(\?,\?\)\)/,
    query: 'the sealer: the records it sealed leave the list of those to seal',
    sql: 'DELETE FROM audit_unsealed WHERE (occurred_at, id) <= ($1, $2)', params: ['2026-01-01T00:00:00.000Z', 'record-1'],
  },
  {
    index: 'entry_words', uses: /SCAN entry_words VIRTUAL TABLE INDEX/,
    query: 'entries by words (GET /journal-entries?q=), the full-text index',
    sql: 'SELECT e.id FROM journal_entries e WHERE e.seq IN (SELECT rowid FROM entry_words WHERE entry_words MATCH $1) ORDER BY e.entry_date, e.seq LIMIT 51',
    params: ['"custom"* AND "12"*'],
  },
];

const POSTGRES_ONLY: IndexCase[] = [
  {
    index: 'journal_entries_pkey', uses: pgUses('journal_entries_pkey'),
    query: 'entries in posting order (ledger verify, ledger copy; the entry of every line joined)',
    sql: 'SELECT e.id FROM journal_entries e WHERE e.seq > $1::bigint ORDER BY e.seq LIMIT 201', params: ['1500'],
  },
  {
    index: 'account_period_totals_period', uses: pgUses('account_period_totals_period'),
    query: "every account's totals of a period (trial balance of a period)",
    sql: 'SELECT account_id, debit_total, credit_total FROM account_period_totals WHERE period_id = $1', params: [books.january.id],
  },
  {
    index: 'audit_log_tx', uses: pgUses('audit_log_tx'),
    query: 'the sealer: the records of transactions since the last seal\'s horizon',
    sql: UNSEALED_SINCE, params: ['0', 1000],
  },
  {
    index: 'audit_seals_pkey', uses: /Index Scan Backward using audit_seals_pkey on/,
    query: "the sealer: the chain's last seal (and the chain in order, GET /audit-log/chain)",
    sql: 'SELECT position, hash FROM audit_seals ORDER BY position DESC LIMIT 1', params: [],
  },
  {
    index: 'entry_search_words', uses: pgUses('entry_search_words'),
    query: 'entries by rare words (GET /journal-entries?q=), the words\' inverted index',
    sql: 'SELECT entry_seq FROM entry_search WHERE words @@ $1::tsquery', params: ["'custom':* & '1234':*"],
  },
  {
    index: 'entry_search_pkey', uses: pgUses('entry_search_pkey'),
    query: 'entries by common words (GET /journal-entries?q=): the date index walked, each entry\'s words looked up',
    sql: `SELECT e.id FROM journal_entries e WHERE e.seq IN (SELECT entry_seq FROM entry_search WHERE words @@ $1::tsquery)
      ORDER BY e.entry_date, e.seq LIMIT 51`, params: ["'sale':*"],
  },
];

const CASES = { sqlite: [...LEDGER_CASES('sqlite'), ...SQLITE_ONLY], postgres: [...LEDGER_CASES('postgres'), ...POSTGRES_ONLY] };

/** Every index of the reviewed tables, named as the cases name them. */
async function indexesOf(location: string): Promise<string[]> {
  if (sqlite()) {
    const names: string[] = [];
    for (const table of REVIEWED_TABLES.sqlite) {
      for (const index of await rawQuery<{ name: string; origin: string }>(location, `SELECT name, origin FROM pragma_index_list('${table}')`)) {
        const columns = (await rawQuery<{ name: string }>(location, `SELECT name FROM pragma_index_info('${index.name}')`)).map((c) => c.name);
        names.push(index.origin === 'pk' ? `${table} primary key`
          : index.name.startsWith('sqlite_autoindex_') ? `${table} unique (${columns.join(', ')})` : index.name);
      }
      // An FTS5 table is an index of its own (its shadow tables hold it).
      if (table === 'entry_words') names.push('entry_words');
    }
    return names.sort();
  }
  const rows = await rawQuery<{ indexname: string }>(location,
    'SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ANY($1::text[])', [REVIEWED_TABLES.postgres]);
  return rows.map((row) => row.indexname).sort();
}

describe('every index of the books, the audit log and the search is used by the query it is kept for', () => {
  let current: TestStore;
  beforeAll(async () => {
    current = await openTestStore();
    const fixtures = new EntryFixtures();
    await current.store.write(async (tx) => {
      await insertBooks(tx, books);
      for (let index = 0; index < ENTRIES; index += 1) await tx.insertEntry(bookOf(fixtures, index));
    });
  });
  afterAll(async () => { await current.close(); });

  const cases = CASES[testBackend()];

  it('has a case for every index of those tables, and no case for an index that is not there', async () => {
    expect(await indexesOf(current.location)).toEqual(cases.map((entry) => entry.index).sort());
  });

  it.each(cases.map((entry) => [entry.index, entry.query, entry] as const))('%s serves %s', async (_index, _query, entry) => {
    const plan = await planOf(current.location, entry.sql, entry.params);
    // SHOW_PLANS=1 prints each plan, to see what the planner chose when a case fails or a query changes.
    if (process.env.SHOW_PLANS) console.log(`${entry.index}\n${plan}`);
    expect(plan).toMatch(entry.uses);
    expect(plan).not.toMatch(sqlite() ? /^SCAN (e|l|journal_entries|journal_lines|audit_log)$/m : /Seq Scan/);
  });

  it.runIf(testBackend() === 'postgres')('backfills each batch from its cursor, not from the first line (PostgreSQL)', async () => {
    // Without the lines' own bound the lines' index was read from the start for every batch.
    const plan = await planOf(current.location, BACKFILL_BATCH_SQL, ['1500', 1000]);
    expect(plan).toMatch(/Index Cond: \(\w*\.?entry_seq > /);
    expect(plan).not.toMatch(/Seq Scan/);
  });
});

describe('finding entries in a ledger from before the search', () => {
  let current: TestStore;
  beforeEach(async () => {
    current = await openTestStore();
    const fixtures = new EntryFixtures();
    await current.store.write(async (tx) => {
      await insertBooks(tx, books);
      for (let index = 0; index < ENTRIES; index += 1) await tx.insertEntry(bookOf(fixtures, index));
    });
  });
  afterEach(async () => { await current.close(); });

  it('makes the entries of a ledger from before the search findable when it migrates', async () => {
    // The store of beforeEach stays open, as another server on the database would.
    const { location } = current;
    // The amounts are columns of the entries since migration 15 (SQLite) / 16 (PostgreSQL); the words are rebuilt here.
    const [words, version] = sqlite() ? ['entry_words', 9] : ['entry_search', 11];
    await rawQuery(location, `DROP TABLE ${words}`);
    await rawQuery(location, 'DROP INDEX journal_entries_reference');
    await rawQuery(location, 'DROP INDEX journal_entries_type');
    await rawQuery(location, `DELETE FROM schema_migrations WHERE version = ${version}`);
    const reopened = await openStoreAt(testBackend(), location);
    try {
      const found = await reopened.listEntries({ words: queryWords('customer 35 item 1005') }, 'asc', { limit: 10 });
      expect(found.items.map((entry) => entry.description)).toEqual(['Sale number 1005 to customer 35']);
      const byAmount = await reopened.listEntries({ min_amount: 2999n }, 'asc', { limit: 10 });
      expect(byAmount.items.map((entry) => entry.reference)).toEqual(['INV-2998', 'INV-2999']);
    } finally {
      await reopened.close();
    }
  });
});
