import type Database from 'better-sqlite3';
import { backfillEntrySearch } from './entry-search.js';
import { chainOf, type StoredEntryRow, type StoredLineRow } from '../shared/chain-backfill.js';

/**
 * The SQLite schema, applied in order and recorded in `schema_migrations`. Amounts are decimal
 * TEXT (exact for the whole signed 128-bit range); sums are never computed by SQLite's 64-bit
 * SUM but kept as maintained totals updated in the posting transaction.
 */
export interface SqliteMigration {
  version: number;
  name: string;
  sql: string;
  /** Data the new schema needs, computed in JavaScript, in the migration's transaction. */
  backfill?: (db: Database.Database) => void;
  /**
   * The migration rebuilds a table that other tables' foreign keys refer to (create the new
   * shape, copy, drop the old, rename: SQLite's way of changing a table's key). Dropping the old
   * table would fail the references, so it runs with foreign keys off (a pragma that cannot change
   * inside a transaction) and checks every reference with `foreign_key_check` before committing.
   */
  rebuildsReferencedTable?: true;
}

export const MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: 'core ledger',
    sql: `
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE currencies (
  id          TEXT PRIMARY KEY,
  code        TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name        TEXT NOT NULL,
  symbol      TEXT NOT NULL,
  asset_scale INTEGER NOT NULL CHECK (asset_scale BETWEEN 0 AND 38),
  asset_type  TEXT NOT NULL CHECK (asset_type IN ('fiat', 'crypto')),
  caip19_id   TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL
) STRICT;

-- Sum of every debit ever posted in a currency. Keeping it within 2^127 - 1 bounds every
-- balance and report total in that currency, so no report can overflow.
CREATE TABLE currency_totals (
  currency_id TEXT PRIMARY KEY REFERENCES currencies(id),
  debit_total TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE accounts (
  id             TEXT PRIMARY KEY,
  account_number TEXT NOT NULL UNIQUE,
  name           TEXT NOT NULL,
  currency_id    TEXT NOT NULL REFERENCES currencies(id),
  account_type   TEXT NOT NULL CHECK (account_type IN ('asset', 'liability', 'equity', 'revenue', 'expense')),
  normal_balance TEXT NOT NULL CHECK (normal_balance IN ('debit', 'credit')),
  has_subledger  INTEGER NOT NULL CHECK (has_subledger IN (0, 1)),
  parent_id      TEXT REFERENCES accounts(id),
  entity_id      TEXT,
  xbrl_tag       TEXT,
  is_active      INTEGER NOT NULL CHECK (is_active IN (0, 1)),
  created_at     TEXT NOT NULL
) STRICT;
CREATE INDEX accounts_parent ON accounts(parent_id, account_number);

-- All-time gross totals per account, maintained by the posting transaction.
CREATE TABLE account_balances (
  account_id   TEXT PRIMARY KEY REFERENCES accounts(id),
  debit_total  TEXT NOT NULL,
  credit_total TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE periods (
  id               TEXT PRIMARY KEY,
  name             TEXT NOT NULL,
  start_date       TEXT NOT NULL UNIQUE,
  end_date         TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('open', 'closed')),
  closed_at        TEXT,
  closed_by        TEXT,
  closing_entry_id TEXT,
  created_at       TEXT NOT NULL,
  CHECK (start_date <= end_date)
) STRICT;

-- Per-period gross totals per account, maintained by the posting transaction.
CREATE TABLE account_period_totals (
  account_id   TEXT NOT NULL REFERENCES accounts(id),
  period_id    TEXT NOT NULL REFERENCES periods(id),
  debit_total  TEXT NOT NULL,
  credit_total TEXT NOT NULL,
  PRIMARY KEY (account_id, period_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE journal_entries (
  seq         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  entry_date  TEXT NOT NULL,
  description TEXT NOT NULL,
  reference   TEXT,
  metadata    TEXT,
  period_id   TEXT NOT NULL REFERENCES periods(id),
  entry_type  TEXT NOT NULL CHECK (entry_type IN ('standard', 'reversal', 'closing')),
  -- UNIQUE: an entry can be reversed at most once, enforced by the database itself.
  reverses_id TEXT UNIQUE REFERENCES journal_entries(id),
  created_by  TEXT,
  posted_at   TEXT NOT NULL,
  currency_id TEXT NOT NULL REFERENCES currencies(id)
) STRICT;
CREATE INDEX journal_entries_date ON journal_entries(entry_date, seq);
CREATE INDEX journal_entries_period ON journal_entries(period_id, entry_date, seq);

-- entry_date and the account's parent are copied onto each line (both are immutable) so that an
-- account's or a control account's lines in date order are one index range: no sort, no join.
CREATE TABLE journal_lines (
  seq               INTEGER PRIMARY KEY,
  id                TEXT NOT NULL UNIQUE,
  entry_seq         INTEGER NOT NULL REFERENCES journal_entries(seq),
  account_id        TEXT NOT NULL REFERENCES accounts(id),
  parent_account_id TEXT REFERENCES accounts(id),
  entry_date        TEXT NOT NULL,
  debit_amount      TEXT NOT NULL,
  credit_amount     TEXT NOT NULL,
  description       TEXT
) STRICT;
CREATE INDEX journal_lines_account ON journal_lines(account_id, entry_date, seq);
CREATE INDEX journal_lines_parent ON journal_lines(parent_account_id, entry_date, seq) WHERE parent_account_id IS NOT NULL;
CREATE INDEX journal_lines_entry ON journal_lines(entry_seq);

-- Per-day gross totals per account, maintained by the posting transaction. With the per-period
-- totals they answer "balance before date X" without reading lines: whole periods before X from
-- account_period_totals, the rest of X's period from here.
CREATE TABLE account_daily_totals (
  account_id   TEXT NOT NULL REFERENCES accounts(id),
  entry_date   TEXT NOT NULL,
  debit_total  TEXT NOT NULL,
  credit_total TEXT NOT NULL,
  PRIMARY KEY (account_id, entry_date)
) STRICT, WITHOUT ROWID;
CREATE INDEX account_daily_totals_date ON account_daily_totals(entry_date);

-- Posted history is immutable: corrections are reversals, never edits.
CREATE TRIGGER journal_entries_no_update BEFORE UPDATE ON journal_entries
BEGIN SELECT RAISE(ABORT, 'journal entries are immutable'); END;
CREATE TRIGGER journal_entries_no_delete BEFORE DELETE ON journal_entries
BEGIN SELECT RAISE(ABORT, 'journal entries are immutable'); END;
CREATE TRIGGER journal_lines_no_update BEFORE UPDATE ON journal_lines
BEGIN SELECT RAISE(ABORT, 'journal lines are immutable'); END;
CREATE TRIGGER journal_lines_no_delete BEFORE DELETE ON journal_lines
BEGIN SELECT RAISE(ABORT, 'journal lines are immutable'); END;

CREATE TABLE users (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  email         TEXT UNIQUE COLLATE NOCASE,
  user_type     TEXT NOT NULL CHECK (user_type IN ('human', 'service')),
  password_hash TEXT,
  permissions   TEXT NOT NULL,
  is_active     INTEGER NOT NULL CHECK (is_active IN (0, 1)),
  created_at    TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES users(id),
  key_hash   TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE idempotency_keys (
  principal_id    TEXT NOT NULL,
  key             TEXT NOT NULL,
  request_hash    TEXT NOT NULL,
  status_code     INTEGER,
  response_body   TEXT,
  created_at      TEXT NOT NULL,
  PRIMARY KEY (principal_id, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
`,
  },
  {
    version: 2,
    name: 'refresh tokens',
    sql: `
-- Refresh tokens are opaque and stored hashed. Rotation links each token to its successor; a
-- family is every token descended from one login, revoked together when a used token is replayed.
CREATE TABLE refresh_tokens (
  id          TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users(id),
  family_id   TEXT NOT NULL,
  token_hash  TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  revoked_at  TEXT,
  replaced_by TEXT
) STRICT;
CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);
`,
  },
  {
    version: 3,
    name: 'closing entries index',
    sql: `
-- The income statement subtracts closing entries; they are few (one per closed period), so a
-- partial index finds them without reading every entry.
CREATE INDEX journal_entries_closing ON journal_entries(period_id, entry_date) WHERE entry_type = 'closing';
`,
  },
  {
    version: 4,
    name: 'failed logins',
    sql: `
-- Failed logins are counted in the database so that every server process on the same database
-- throttles the same attempts.
CREATE TABLE login_failures (
  key       TEXT NOT NULL,
  failed_at TEXT NOT NULL
) STRICT;
CREATE INDEX login_failures_key ON login_failures(key, failed_at);
CREATE INDEX login_failures_time ON login_failures(failed_at);
`,
  },
  {
    version: 5,
    name: 'audit log',
    sql: `
-- Every change, login and logout, written in the transaction of the change itself. Keyed by its
-- place in the log, (occurred_at, id): the table is the time index, and each filter's index
-- (which carries the key) is already in log order. changes is JSON; a record's hash is its
-- seal's (audit_seals, version 7).
CREATE TABLE audit_log (
  occurred_at     TEXT NOT NULL,
  id              TEXT NOT NULL,
  actor_id        TEXT,
  credential_type TEXT CHECK (credential_type IN ('api_key', 'session')),
  credential_id   TEXT,
  request_id      TEXT,
  action          TEXT NOT NULL,
  target_type     TEXT,
  target_id       TEXT,
  changes         TEXT,
  PRIMARY KEY (occurred_at, id)
) STRICT, WITHOUT ROWID;
CREATE INDEX audit_log_actor ON audit_log(actor_id) WHERE actor_id IS NOT NULL;
CREATE INDEX audit_log_action ON audit_log(action);
CREATE INDEX audit_log_target ON audit_log(target_id) WHERE target_id IS NOT NULL;

-- The log is append-only, like posted history.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit records are immutable'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit records are immutable'); END;
`,
  },
  {
    version: 6,
    name: 'entry hash chain',
    sql: `
-- Each currency's entries form a SHA-256 chain in posting order (service/entry-hash.ts); the hash
-- of the currency's last entry is kept on its totals row, which every post in it already writes.
ALTER TABLE currency_totals ADD COLUMN chain_hash TEXT;
CREATE TABLE entry_hashes (
  entry_seq     INTEGER PRIMARY KEY REFERENCES journal_entries(seq),
  previous_hash TEXT NOT NULL,
  hash          TEXT NOT NULL
) STRICT;
CREATE TRIGGER entry_hashes_no_update BEFORE UPDATE ON entry_hashes
BEGIN SELECT RAISE(ABORT, 'entry hashes are immutable'); END;
CREATE TRIGGER entry_hashes_no_delete BEFORE DELETE ON entry_hashes
BEGIN SELECT RAISE(ABORT, 'entry hashes are immutable'); END;
`,
    backfill(db) {
      const entries = db.prepare(`SELECT seq, id, entry_date, description, reference, metadata, period_id, entry_type,
        reverses_id, created_by, posted_at, currency_id FROM journal_entries ORDER BY seq`).all() as StoredEntryRow[];
      const lines = db.prepare('SELECT entry_seq, id, account_id, debit_amount, credit_amount, description FROM journal_lines ORDER BY seq')
        .all() as StoredLineRow[];
      const { hashes, heads } = chainOf(entries, lines);
      const insert = db.prepare('INSERT INTO entry_hashes (entry_seq, previous_hash, hash) VALUES (?, ?, ?)');
      for (const { seq, previousHash, hash } of hashes) insert.run(seq, previousHash, hash);
      const head = db.prepare('UPDATE currency_totals SET chain_hash = ? WHERE currency_id = ?');
      for (const [currencyId, hash] of heads) head.run(hash, currencyId);
    },
  },
  {
    version: 7,
    name: 'audit chain',
    sql: `
-- The audit log is one SHA-256 chain, sealed right after its records commit (docs/audit.md): a
-- seal is appended per record, in sealing order (position), and never changed.
CREATE TABLE audit_seals (
  position      INTEGER PRIMARY KEY,
  occurred_at   TEXT NOT NULL,
  id            TEXT NOT NULL,
  previous_hash TEXT NOT NULL,
  hash          TEXT NOT NULL,
  UNIQUE (occurred_at, id)
) STRICT;
CREATE TRIGGER audit_seals_no_update BEFORE UPDATE ON audit_seals
BEGIN SELECT RAISE(ABORT, 'audit seals are immutable'); END;
CREATE TRIGGER audit_seals_no_delete BEFORE DELETE ON audit_seals
BEGIN SELECT RAISE(ABORT, 'audit seals are immutable'); END;
`,
  },
  {
    version: 8,
    name: 'unsealed audit records',
    sql: `
-- The records still to seal, kept by triggers: the sealer reads these few instead of looking for
-- unsealed records across the whole log.
CREATE TABLE audit_unsealed (
  occurred_at TEXT NOT NULL,
  id          TEXT NOT NULL,
  PRIMARY KEY (occurred_at, id)
) STRICT, WITHOUT ROWID;
INSERT INTO audit_unsealed (occurred_at, id)
  SELECT occurred_at, id FROM audit_log a
  WHERE NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.occurred_at = a.occurred_at AND s.id = a.id);
CREATE TRIGGER audit_log_to_seal AFTER INSERT ON audit_log
BEGIN INSERT INTO audit_unsealed (occurred_at, id) VALUES (NEW.occurred_at, NEW.id); END;
CREATE TRIGGER audit_seals_sealed AFTER INSERT ON audit_seals
BEGIN DELETE FROM audit_unsealed WHERE occurred_at = NEW.occurred_at AND id = NEW.id; END;
`,
  },
  {
    version: 9,
    name: 'finding entries',
    sql: `
-- GET /journal-entries?q=: each entry's words (domain/journal/search-words.ts) under its seq.
-- Contentless: only the index is kept, as the words are derived and entries never change.
CREATE VIRTUAL TABLE entry_words USING fts5(words, content = '', tokenize = 'unicode61 remove_diacritics 0');
-- min_amount/max_amount: an entry's amount is the sum of its debits, as sortable text.
CREATE TABLE entry_amounts (
  entry_seq INTEGER PRIMARY KEY REFERENCES journal_entries(seq),
  debit_key TEXT NOT NULL
) STRICT;
CREATE INDEX entry_amounts_debit ON entry_amounts(debit_key);
CREATE INDEX journal_entries_reference ON journal_entries(reference, entry_date, seq) WHERE reference IS NOT NULL;
CREATE INDEX journal_entries_type ON journal_entries(entry_type, entry_date, seq);
`,
    backfill: backfillEntrySearch,
  },
  {
    version: 10,
    name: 'unsealed audit records listed by the adapter',
    sql: `
-- audit_unsealed is kept by the adapter's own statements (audit-log.ts) from now on. A trigger runs
-- as a nested statement with a statement journal of its own: inside a large transaction on a large
-- file it cost about 0.24 ms a record (a 5,000-entry batch took 2.4 s instead of 0.9 s), and about
-- 9 µs a record in a group of posts.
DROP TRIGGER audit_log_to_seal;
DROP TRIGGER audit_seals_sealed;
`,
  },
  {
    version: 11,
    name: 'credentials version',
    sql: `
-- A number that every change of a user or an API key moves on: a server remembers the API keys it
-- has checked and, before a write acts under one, compares this number with the one it checked at
-- (service/auth/credential-cache.ts). Users and keys change rarely, so row triggers cost nothing here.
CREATE TABLE catalog_versions (
  name    TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) STRICT;
INSERT INTO catalog_versions (name, version) VALUES ('credentials', 0);
CREATE TRIGGER users_inserted_version AFTER INSERT ON users
BEGIN UPDATE catalog_versions SET version = version + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER users_updated_version AFTER UPDATE ON users
BEGIN UPDATE catalog_versions SET version = version + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER users_deleted_version AFTER DELETE ON users
BEGIN UPDATE catalog_versions SET version = version + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER api_keys_inserted_version AFTER INSERT ON api_keys
BEGIN UPDATE catalog_versions SET version = version + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER api_keys_updated_version AFTER UPDATE ON api_keys
BEGIN UPDATE catalog_versions SET version = version + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER api_keys_deleted_version AFTER DELETE ON api_keys
BEGIN UPDATE catalog_versions SET version = version + 1 WHERE name = 'credentials'; END;
`,
  },
  {
    version: 12,
    name: 'bank statements and reconciliation',
    sql: `
-- Reconciliations of a bank or card account against a statement balance (docs/banking.md). Open
-- while being worked on; once finished, permanent.
CREATE TABLE reconciliations (
  id                TEXT PRIMARY KEY,
  account_id        TEXT NOT NULL REFERENCES accounts(id),
  statement_date    TEXT NOT NULL,
  statement_balance TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('open', 'finished')),
  created_at        TEXT NOT NULL,
  created_by        TEXT,
  finished_at       TEXT,
  finished_by       TEXT,
  finished_report   TEXT
) STRICT;
CREATE UNIQUE INDEX reconciliations_one_open ON reconciliations(account_id) WHERE status = 'open';
CREATE INDEX reconciliations_account ON reconciliations(account_id, statement_date);
CREATE TRIGGER reconciliations_finished BEFORE UPDATE ON reconciliations WHEN OLD.status = 'finished'
BEGIN SELECT RAISE(ABORT, 'a finished reconciliation is permanent'); END;
CREATE TRIGGER reconciliations_no_delete BEFORE DELETE ON reconciliations
BEGIN SELECT RAISE(ABORT, 'reconciliations are permanent'); END;

-- An imported statement file: immutable, one per file (SHA-256) per account.
CREATE TABLE bank_statements (
  id              TEXT PRIMARY KEY,
  account_id      TEXT NOT NULL REFERENCES accounts(id),
  format          TEXT NOT NULL CHECK (format IN ('csv', 'ofx', 'camt053')),
  file_sha256     TEXT NOT NULL,
  imported_at     TEXT NOT NULL,
  imported_by     TEXT,
  start_date      TEXT,
  end_date        TEXT,
  opening_balance TEXT,
  closing_balance TEXT,
  line_count      INTEGER NOT NULL,
  new_count       INTEGER NOT NULL,
  duplicate_count INTEGER NOT NULL,
  UNIQUE (account_id, file_sha256)
) STRICT;
CREATE INDEX bank_statements_order ON bank_statements(imported_at, id);
CREATE TRIGGER bank_statements_no_update BEFORE UPDATE ON bank_statements
BEGIN SELECT RAISE(ABORT, 'bank statements are immutable'); END;
CREATE TRIGGER bank_statements_no_delete BEFORE DELETE ON bank_statements
BEGIN SELECT RAISE(ABORT, 'bank statements are immutable'); END;

-- A statement's transaction: its facts never change; its status does (unmatched, matched,
-- excluded) until a finished reconciliation locks it. One line per fingerprint per account, so
-- overlapping downloads import each transaction once.
CREATE TABLE bank_lines (
  seq               INTEGER PRIMARY KEY,
  id                TEXT NOT NULL UNIQUE,
  statement_id      TEXT NOT NULL REFERENCES bank_statements(id),
  account_id        TEXT NOT NULL REFERENCES accounts(id),
  posted_date       TEXT NOT NULL,
  amount            TEXT NOT NULL,
  description       TEXT NOT NULL,
  external_id       TEXT,
  fingerprint       TEXT NOT NULL,
  line_number       INTEGER NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('unmatched', 'matched', 'excluded')),
  excluded_reason   TEXT,
  reconciliation_id TEXT REFERENCES reconciliations(id),
  UNIQUE (account_id, fingerprint)
) STRICT;
CREATE INDEX bank_lines_account ON bank_lines(account_id, posted_date, seq);
CREATE INDEX bank_lines_status ON bank_lines(status, posted_date, seq);
CREATE INDEX bank_lines_statement ON bank_lines(statement_id, posted_date, seq);
CREATE TRIGGER bank_lines_facts BEFORE UPDATE OF id, statement_id, account_id, posted_date, amount, description, external_id,
  fingerprint, line_number ON bank_lines
BEGIN SELECT RAISE(ABORT, 'a bank line''s facts are immutable'); END;
CREATE TRIGGER bank_lines_locked BEFORE UPDATE ON bank_lines WHEN OLD.reconciliation_id IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'a reconciled bank line is locked'); END;
CREATE TRIGGER bank_lines_no_delete BEFORE DELETE ON bank_lines
BEGIN SELECT RAISE(ABORT, 'bank lines are kept'); END;

-- Which journal lines (on the bank account) a matched bank line stands for: each journal line
-- belongs to at most one bank line.
CREATE TABLE bank_line_matches (
  journal_line_id  TEXT PRIMARY KEY REFERENCES journal_lines(id),
  bank_line_id     TEXT NOT NULL REFERENCES bank_lines(id),
  journal_entry_id TEXT NOT NULL,
  position         INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX bank_line_matches_bank_line ON bank_line_matches(bank_line_id, position);

-- Rules that suggest how to post a line; their conditions are JSON (docs/banking.md).
CREATE TABLE bank_rules (
  seq                INTEGER PRIMARY KEY,
  id                 TEXT NOT NULL UNIQUE,
  name               TEXT NOT NULL,
  priority           INTEGER NOT NULL,
  account_id         TEXT REFERENCES accounts(id),
  match              TEXT NOT NULL,
  counter_account_id TEXT NOT NULL REFERENCES accounts(id),
  description        TEXT,
  created_at         TEXT NOT NULL
) STRICT;

-- Lines marked cleared in an open reconciliation (an opening balance, say).
CREATE TABLE reconciliation_marks (
  reconciliation_id TEXT NOT NULL REFERENCES reconciliations(id),
  journal_line_id   TEXT NOT NULL REFERENCES journal_lines(id),
  PRIMARY KEY (reconciliation_id, journal_line_id)
) STRICT, WITHOUT ROWID;

-- Journal lines a finished reconciliation cleared: reconciled for good, once.
CREATE TABLE reconciled_lines (
  journal_line_id   TEXT PRIMARY KEY REFERENCES journal_lines(id),
  reconciliation_id TEXT NOT NULL REFERENCES reconciliations(id),
  account_id        TEXT NOT NULL REFERENCES accounts(id)
) STRICT, WITHOUT ROWID;
CREATE INDEX reconciled_lines_reconciliation ON reconciled_lines(reconciliation_id);
CREATE INDEX reconciled_lines_account ON reconciled_lines(account_id);
CREATE TRIGGER reconciled_lines_no_update BEFORE UPDATE ON reconciled_lines
BEGIN SELECT RAISE(ABORT, 'reconciled lines are permanent'); END;
CREATE TRIGGER reconciled_lines_no_delete BEFORE DELETE ON reconciled_lines
BEGIN SELECT RAISE(ABORT, 'reconciled lines are permanent'); END;
`,
  },
  {
    version: 13,
    name: 'entry numbers and override reasons',
    sql: `
-- Every entry's number in posting order across the ledger (1, 2, ... without gaps: the posting
-- transaction is exclusive and a rolled-back post takes no number), and why an entry dated on or
-- before the lock date was posted anyway. Entries already posted are numbered in posting order;
-- the immutability trigger steps aside for this one statement of the migration's transaction.
ALTER TABLE journal_entries ADD COLUMN entry_number INTEGER;
ALTER TABLE journal_entries ADD COLUMN override_reason TEXT;
DROP TRIGGER journal_entries_no_update;
UPDATE journal_entries SET entry_number = numbered.n
  FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM journal_entries) AS numbered
  WHERE numbered.seq = journal_entries.seq;
CREATE TRIGGER journal_entries_no_update BEFORE UPDATE ON journal_entries
BEGIN SELECT RAISE(ABORT, 'journal entries are immutable'); END;
CREATE UNIQUE INDEX journal_entries_number ON journal_entries(entry_number);
`,
  },
  {
    version: 14,
    name: 'exchange rates',
    sql: `
-- The value of one major unit of a currency in the base currency from a day on, as canonical
-- decimal text (domain/currencies/exchange-rate.ts): one rate per currency and day, replaced in
-- place. The unique key is also the index a report's "latest rate on or before" reads.
CREATE TABLE exchange_rates (
  id          TEXT PRIMARY KEY,
  currency_id TEXT NOT NULL REFERENCES currencies(id),
  rate_date   TEXT NOT NULL,
  rate        TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  UNIQUE (currency_id, rate_date)
) STRICT;
CREATE INDEX exchange_rates_by_date ON exchange_rates(rate_date, currency_id);
`,
  },
  {
    version: 15,
    name: 'chain link and amount on the entry',
    sql: `
-- An entry's place in its currency's hash chain and its amount (the sum of its debits, as the
-- sortable text of entry-search.ts) are columns of the entry, not rows of tables of their own: a
-- post writes two rows fewer. Entries already posted take theirs from the old tables; the
-- immutability trigger steps aside for these statements of the migration's transaction.
ALTER TABLE journal_entries ADD COLUMN previous_hash TEXT;
ALTER TABLE journal_entries ADD COLUMN hash TEXT;
ALTER TABLE journal_entries ADD COLUMN debit_key TEXT;
DROP TRIGGER journal_entries_no_update;
UPDATE journal_entries SET previous_hash = h.previous_hash, hash = h.hash
  FROM entry_hashes h WHERE h.entry_seq = journal_entries.seq;
UPDATE journal_entries SET debit_key = a.debit_key
  FROM entry_amounts a WHERE a.entry_seq = journal_entries.seq;
CREATE TRIGGER journal_entries_no_update BEFORE UPDATE ON journal_entries
BEGIN SELECT RAISE(ABORT, 'journal entries are immutable'); END;
DROP TABLE entry_hashes;
DROP TABLE entry_amounts;
CREATE INDEX journal_entries_debit ON journal_entries(debit_key);
`,
  },
  {
    version: 16,
    name: 'lines stored with their entry',
    rebuildsReferencedTable: true,
    sql: `
-- An entry's lines are one range of the table, keyed by (entry_seq, seq) without a row id: reading
-- an entry's lines is one seek, and the lines need no index of their entry. seq stays each line's
-- place in posting order (the general ledger's cursor), one more than the last line's: every entry
-- is numbered after all others, so the table's last row holds the highest seq. Lines already posted
-- keep that order (renumbered 1, 2, ... in it, which on a ledger made by the adapter changes nothing).
-- The line id keeps its unique index: bank matches and reconciliations refer to lines by id.
CREATE TABLE journal_lines_by_entry (
  entry_seq         INTEGER NOT NULL REFERENCES journal_entries(seq),
  seq               INTEGER NOT NULL,
  id                TEXT NOT NULL UNIQUE,
  account_id        TEXT NOT NULL REFERENCES accounts(id),
  parent_account_id TEXT REFERENCES accounts(id),
  entry_date        TEXT NOT NULL,
  debit_amount      TEXT NOT NULL,
  credit_amount     TEXT NOT NULL,
  description       TEXT,
  PRIMARY KEY (entry_seq, seq)
) STRICT, WITHOUT ROWID;
INSERT INTO journal_lines_by_entry (entry_seq, seq, id, account_id, parent_account_id, entry_date, debit_amount, credit_amount, description)
  SELECT entry_seq, row_number() OVER (ORDER BY entry_seq, seq), id, account_id, parent_account_id, entry_date, debit_amount,
    credit_amount, description
  FROM journal_lines ORDER BY entry_seq, seq;
DROP TABLE journal_lines;
ALTER TABLE journal_lines_by_entry RENAME TO journal_lines;
CREATE INDEX journal_lines_account ON journal_lines(account_id, entry_date, seq);
CREATE INDEX journal_lines_parent ON journal_lines(parent_account_id, entry_date, seq) WHERE parent_account_id IS NOT NULL;
CREATE TRIGGER journal_lines_no_update BEFORE UPDATE ON journal_lines
BEGIN SELECT RAISE(ABORT, 'journal lines are immutable'); END;
CREATE TRIGGER journal_lines_no_delete BEFORE DELETE ON journal_lines
BEGIN SELECT RAISE(ABORT, 'journal lines are immutable'); END;
`,
  },
  {
    version: 17,
    name: 'a posted entry is its own audit record',
    sql: `
-- A post appends no audit record: the entry says who posted it (created_by), how they proved it
-- (credential_type, credential_id) and in which request (request_id), its hash covers them
-- (hash_version 2, service/entry-hash.ts), and the audit log reads posts from the entries
-- (docs/audit.md). Entries posted before keep hash version 1 and their records in audit_log, so
-- they are not read as records a second time. The two indexes serve the log's listing of posts in
-- log order (posted_at, id): by action (entry_type) and date, and by actor.
ALTER TABLE journal_entries ADD COLUMN hash_version INTEGER NOT NULL DEFAULT 1 CHECK (hash_version IN (1, 2));
ALTER TABLE journal_entries ADD COLUMN credential_type TEXT CHECK (credential_type IN ('api_key', 'session'));
ALTER TABLE journal_entries ADD COLUMN credential_id TEXT;
ALTER TABLE journal_entries ADD COLUMN request_id TEXT;
CREATE INDEX journal_entries_audit ON journal_entries(entry_type, posted_at, id) WHERE hash_version = 2;
CREATE INDEX journal_entries_audit_actor ON journal_entries(created_by, entry_type, posted_at, id) WHERE hash_version = 2;
`,
  },
  {
    version: 18,
    name: 'the change feed',
    sql: `
-- Every committed change is one event, numbered in commit order without gaps (docs/events.md). A
-- posted entry is its own event: its number is a column of the entry (entries posted before this
-- version have none: the feed starts here). Other changes append a row to events. Both take the
-- next number past the highest of the two, under the one writer.
ALTER TABLE journal_entries ADD COLUMN event_seq INTEGER;
CREATE UNIQUE INDEX journal_entries_event ON journal_entries(event_seq);
CREATE TABLE events (
  seq         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  type        TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  actor_id    TEXT,
  request_id  TEXT,
  data        TEXT NOT NULL
) STRICT;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are immutable'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are immutable'); END;
`,
  },
  {
    version: 19,
    name: 'webhook endpoints',
    sql: `
-- An endpoint reads the change feed from its own place (cursor_seq): the feed is the outbox. The
-- next attempt's time and the lease (which process delivers) are columns, so a restart loses no
-- retry and two processes never attempt the same delivery at once (docs/events.md).
CREATE TABLE webhook_endpoints (
  id                         TEXT PRIMARY KEY,
  url                        TEXT NOT NULL,
  description                TEXT,
  event_types                TEXT NOT NULL,
  is_active                  INTEGER NOT NULL CHECK (is_active IN (0, 1)),
  disabled_reason            TEXT,
  secret                     TEXT NOT NULL,
  previous_secret            TEXT,
  previous_secret_expires_at TEXT,
  cursor_seq                 INTEGER NOT NULL,
  failed_attempts            INTEGER NOT NULL DEFAULT 0,
  next_attempt_at            TEXT NOT NULL,
  lease_owner                TEXT,
  lease_until                TEXT,
  created_at                 TEXT NOT NULL,
  updated_at                 TEXT NOT NULL
) STRICT;
CREATE INDEX webhook_endpoints_due ON webhook_endpoints(next_attempt_at) WHERE is_active = 1;
CREATE TABLE webhook_deliveries (
  seq             INTEGER PRIMARY KEY,
  endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints(id),
  event_seq       INTEGER NOT NULL,
  event_id        TEXT NOT NULL,
  attempt         INTEGER NOT NULL,
  status_code     INTEGER,
  error           TEXT,
  attempted_at    TEXT NOT NULL,
  next_attempt_at TEXT
) STRICT;
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, seq);
`,
  },
];
