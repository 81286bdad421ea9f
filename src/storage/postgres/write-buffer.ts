/**
 * What a write transaction's jobs have posted but not written yet: entries with their lines and
 * chain links, what they add to the maintained totals, and the audit records of other changes (a
 * posted entry is its own audit record: a post adds none, docs/audit.md). It is written as ONE
 * statement (multi-row inserts from arrays, one upsert per touched totals row), so a group of
 * posts costs a handful of round trips instead of several per entry, and each totals row is
 * updated once per group rather than once per entry (PostgreSQL keeps every version of a row
 * updated within a transaction, and each further update walks them).
 *
 * Two layers: the group's (jobs that have succeeded) and the running job's. A job that fails drops
 * its layer; one that succeeds adds it to the group's. The transaction (write-transaction.ts)
 * decides when each layer is written.
 *
 * Each currency posted to is locked (its `currency_totals` row, FOR UPDATE) before its first entry;
 * the layer keeps its total and chain head as of the lock plus everything posted since, so the
 * 128-bit bound is checked, and each entry chained, exactly, in memory.
 */
import type { AuditRecord } from '../../domain/audit.js';
import { toDecimalString } from '../../domain/money/amount.js';
import { entrySearchWords } from '../../domain/journal/search-words.js';
import type { JournalEntry } from '../../domain/types.js';
import { entryHash } from '../../service/entry-hash.js';
import type { EntryPlace } from '../../service/ports/ledger-store.js';
import { AUDIT_COLUMNS, auditRowValues } from '../shared/audit-log.js';
import { entryTotalsByAccount } from '../shared/paging.js';
import { PendingLayer, PendingSet } from '../shared/pending-writes.js';
import { WORDS_VECTOR, wordsText } from './entry-search.js';
import type { PgQueries } from './queries.js';

/** A locked currency as the transaction sees it: its debit total and chain head, unwritten entries included. */
export interface CurrencyState {
  total: bigint;
  head: string;
}

/** The tables whose rows a transaction keeps pending: a statement that reads one writes them first. */
export const POSTGRES_PENDING_TABLES = ['journal_entries', 'journal_lines', 'entry_search', 'currency_totals', 'account_balances',
  'account_period_totals', 'account_daily_totals', 'entry_numbers', 'audit_log'];

/** Pending entries or audit records past this many are written at once (a long import stays flat in memory). */
const MAX_PENDING_ROWS = 1000;

/** A posted entry waiting to be written, with its place in the chain and its debit total. */
interface EntryRow {
  entry: JournalEntry;
  link: EntryPlace;
  debits: bigint;
  /** Its number in the change feed (a post is its own event). */
  eventSeq: number;
}

class Layer extends PendingLayer<EntryRow, CurrencyState> {
  /** The last entry number given as of this layer, once the transaction holds the numbers' row (undefined: not by this layer). */
  lastNumber: number | undefined;
  /** The last event number given as of this layer, once the transaction holds the numbers' row. */
  lastEvent: number | undefined;
  /** True when this layer gave event numbers not yet written back to the numbers' row. */
  eventsGiven = false;
  audit: AuditRecord[] = [];
  /** Debits added to each currency's total, not written yet. */
  readonly currencyDebits = new Map<string, bigint>();

  override get empty(): boolean {
    return this.rows.length === 0 && this.audit.length === 0 && !this.eventsGiven;
  }

  addEntry(row: EntryRow): void {
    const { entry, debits } = row;
    this.rows.push(row);
    this.currencyDebits.set(entry.currency_id, (this.currencyDebits.get(entry.currency_id) ?? 0n) + debits);
    this.totals.addEntry(entry.period_id, entry.entry_date, entryTotalsByAccount(entry.lines));
  }

  override absorb(later: Layer): void {
    super.absorb(later);
    for (const record of later.audit) this.audit.push(record);
    for (const [id, debits] of later.currencyDebits) this.currencyDebits.set(id, (this.currencyDebits.get(id) ?? 0n) + debits);
    if (later.lastNumber !== undefined) this.lastNumber = later.lastNumber;
    if (later.lastEvent !== undefined) this.lastEvent = later.lastEvent;
    this.eventsGiven ||= later.eventsGiven;
  }

  /** After the rows are written: what stays is the currencies' state and the last number (their locks are held until commit). */
  override clearRows(): void {
    super.clearRows();
    this.audit = [];
    this.currencyDebits.clear();
    this.eventsGiven = false;
  }

  /** Writes the layer's rows in one statement; the layer is then empty of rows. */
  async write(q: PgQueries): Promise<void> {
    if (this.empty) return;
    const entries = this.rows.map((row) => row.entry);
    const lines = entries.flatMap((entry) => entry.lines.map((line) => ({ entry, line })));
    const currencies = [...this.currencyDebits].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const { accounts, periods, days } = this.totals.rows();
    const audit = this.audit.map(auditRowValues);
    await q.run(WRITE_ROWS,
      entries.map((e) => e.id), entries.map((e) => e.entry_date), entries.map((e) => e.description), entries.map((e) => e.reference),
      entries.map((e) => (e.metadata === null ? null : JSON.stringify(e.metadata))), entries.map((e) => e.period_id),
      entries.map((e) => e.entry_type), entries.map((e) => e.reverses_id), entries.map((e) => e.created_by),
      entries.map((e) => e.posted_at), entries.map((e) => e.currency_id),
      lines.map(({ entry }) => entry.id), lines.map(({ line }) => line.id), lines.map(({ line }) => line.account_id),
      lines.map(({ entry }) => entry.entry_date), lines.map(({ line }) => toDecimalString(line.debit_amount)),
      lines.map(({ line }) => toDecimalString(line.credit_amount)), lines.map(({ line }) => line.description),
      this.rows.map((row) => row.link.previous_hash), this.rows.map((row) => row.link.hash),
      this.rows.map((row) => toDecimalString(row.debits)), entries.map((e) => wordsText(entrySearchWords(e))),
      currencies.map(([id]) => id), currencies.map(([, debits]) => toDecimalString(debits)),
      currencies.map(([id]) => this.currencies.get(id)!.head),
      accounts.map((row) => row.accountId), accounts.map((row) => toDecimalString(row.sums.debits)),
      accounts.map((row) => toDecimalString(row.sums.credits)),
      periods.map((row) => row.accountId), periods.map((row) => row.second), periods.map((row) => toDecimalString(row.sums.debits)),
      periods.map((row) => toDecimalString(row.sums.credits)),
      days.map((row) => row.accountId), days.map((row) => row.second), days.map((row) => toDecimalString(row.sums.debits)),
      days.map((row) => toDecimalString(row.sums.credits)),
      ...AUDIT_COLUMNS.map((_, column) => audit.map((row) => row[column] ?? null)),
      this.rows.map((row) => String(row.link.entry_number)), entries.map((e) => e.override_reason),
      entries.length === 0 ? null : String(this.lastNumber),
      entries.map((e) => String(e.hash_version)), entries.map((e) => e.credential_type), entries.map((e) => e.credential_id),
      entries.map((e) => e.request_id),
      this.rows.map((row) => String(row.eventSeq)), this.eventsGiven ? String(this.lastEvent) : null);
    this.clearRows();
  }
}

/** The two layers (storage/shared/pending-writes.ts): the group's and the running job's. */
export class WriteBuffer {
  private readonly layers = new PendingSet(() => new Layer());

  /** The currency's state if this transaction holds its lock (taken by a job that has not failed). */
  currency(currencyId: string): CurrencyState | undefined {
    return this.layers.currency(currencyId);
  }

  /** The last entry number given, if this transaction holds the numbers' row (taken by a job that has not failed). */
  get lastNumber(): number | undefined {
    return this.layers.job.lastNumber ?? this.layers.group.lastNumber;
  }

  /** The last event number given, if this transaction holds the numbers' row. */
  get lastEvent(): number | undefined {
    return this.layers.job.lastEvent ?? this.layers.group.lastEvent;
  }

  /** The running job locked the numbers' row, whose last entry number is `last` and last event number `lastEvent`. */
  lockedNumbers(last: number, lastEvent: number): void {
    this.layers.job.lastNumber = last;
    this.layers.job.lastEvent = lastEvent;
  }

  /** The next event number, for the running job (the numbers' row is locked). */
  nextEvent(): number {
    const { job } = this.layers;
    job.lastEvent = this.lastEvent! + 1;
    job.eventsGiven = true;
    return job.lastEvent;
  }

  /** The running job locked the currency's total. */
  locked(currencyId: string, state: CurrencyState): void {
    this.layers.job.currencies.set(currencyId, state);
  }

  /**
   * Adds a checked entry to the running job: chains it after its (locked) currency's head, numbers
   * it after the last number (the numbers' row is locked too) and adds its debits (`debits`) to
   * the currency's total. Answers its chain link and number.
   */
  addEntry(entry: JournalEntry, debits: bigint): EntryPlace {
    const state = this.currency(entry.currency_id)!;
    const link = { previous_hash: state.head, hash: entryHash(entry, state.head), entry_number: this.lastNumber! + 1 };
    const eventSeq = this.nextEvent();
    const { job } = this.layers;
    job.lastNumber = link.entry_number;
    job.addEntry({ entry, debits, link, eventSeq });
    job.currencies.set(entry.currency_id, { total: state.total + debits, head: link.hash });
    return link;
  }

  addAudit(record: AuditRecord): void {
    this.layers.job.audit.push(record);
  }

  /** True when so many rows are pending that they should be written now. */
  get full(): boolean {
    const { group, job } = this.layers;
    return group.rows.length + job.rows.length >= MAX_PENDING_ROWS || group.audit.length + job.audit.length >= MAX_PENDING_ROWS;
  }

  get jobEmpty(): boolean {
    return this.layers.job.empty;
  }

  writeGroup(q: PgQueries): Promise<void> {
    return this.layers.group.write(q);
  }

  writeJob(q: PgQueries): Promise<void> {
    return this.layers.job.write(q);
  }

  /** The running job succeeded: its rows and locks join the group's. */
  keepJob(): void {
    this.layers.keepJob();
  }

  /** The running job failed: what it added is forgotten. */
  dropJob(): void {
    this.layers.dropJob();
  }
}

/**
 * One statement for a layer: the entries in order (their `seq` follows the order of the arrays)
 * with their chain links, debit totals and who posted them, their lines in order, each entry's
 * words (beside the entry ids $1), the currencies' totals and chain heads, every account's totals
 * as one upsert per row, and the audit records of the jobs' other changes. A part with no rows
 * inserts nothing.
 */
/**
 * The parameters after the audit columns: the entries' numbers and override reasons, the last
 * number given, then the entries' hash versions, credential types, credential ids and request ids,
 * their event numbers and the last event number given (null when the layer gave none).
 */
const ENTRY_NUMBERS = 37 + AUDIT_COLUMNS.length;

const WRITE_ROWS = `WITH entries AS (
  INSERT INTO journal_entries (id, entry_date, description, reference, metadata, period_id, entry_type, reverses_id,
    created_by, posted_at, currency_id, entry_number, override_reason, previous_hash, hash, debit_total, hash_version,
    credential_type, credential_id, request_id, event_seq)
  SELECT id, entry_date, description, reference, metadata, period_id, entry_type, reverses_id, created_by, posted_at, currency_id,
    entry_number, override_reason, previous_hash, hash, debit_total, hash_version, credential_type, credential_id, request_id, event_seq
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
    $10::text[], $11::text[], $${ENTRY_NUMBERS}::bigint[], $${ENTRY_NUMBERS + 1}::text[], $19::text[], $20::text[], $21::numeric[],
    $${ENTRY_NUMBERS + 3}::smallint[], $${ENTRY_NUMBERS + 4}::text[], $${ENTRY_NUMBERS + 5}::text[], $${ENTRY_NUMBERS + 6}::text[],
    $${ENTRY_NUMBERS + 7}::bigint[])
    WITH ORDINALITY AS e(id, entry_date, description, reference, metadata, period_id, entry_type, reverses_id, created_by, posted_at,
      currency_id, entry_number, override_reason, previous_hash, hash, debit_total, hash_version, credential_type, credential_id,
      request_id, event_seq, position)
  ORDER BY position
  RETURNING id, seq
), lines AS (
  INSERT INTO journal_lines (id, entry_seq, account_id, parent_account_id, entry_date, debit_amount, credit_amount, description)
  SELECT line.id, entry.seq, line.account_id, account.parent_id, line.entry_date, line.debit_amount, line.credit_amount, line.description
  FROM unnest($12::text[], $13::text[], $14::text[], $15::text[], $16::numeric[], $17::numeric[], $18::text[]) WITH ORDINALITY
    AS line(entry_id, id, account_id, entry_date, debit_amount, credit_amount, description, position)
  JOIN entries entry ON entry.id = line.entry_id
  JOIN accounts account ON account.id = line.account_id
  ORDER BY line.position
), search AS (
  INSERT INTO entry_search (entry_seq, words)
  SELECT entry.seq, ${WORDS_VECTOR('extra.words')}
  FROM unnest($1::text[], $22::text[]) AS extra(id, words)
  JOIN entries entry ON entry.id = extra.id
), currencies AS (
  UPDATE currency_totals AS total SET debit_total = total.debit_total + delta.debits, chain_hash = delta.chain_hash
  FROM unnest($23::text[], $24::numeric[], $25::text[]) AS delta(currency_id, debits, chain_hash)
  WHERE total.currency_id = delta.currency_id
), balances AS (
  INSERT INTO account_balances (account_id, debit_total, credit_total)
  SELECT * FROM unnest($26::text[], $27::numeric[], $28::numeric[])
  ON CONFLICT (account_id) DO UPDATE SET debit_total = account_balances.debit_total + excluded.debit_total,
    credit_total = account_balances.credit_total + excluded.credit_total
), period_totals AS (
  INSERT INTO account_period_totals (account_id, period_id, debit_total, credit_total)
  SELECT * FROM unnest($29::text[], $30::text[], $31::numeric[], $32::numeric[])
  ON CONFLICT (account_id, period_id) DO UPDATE SET debit_total = account_period_totals.debit_total + excluded.debit_total,
    credit_total = account_period_totals.credit_total + excluded.credit_total
), numbers AS (
  UPDATE entry_numbers SET last_number = coalesce($${ENTRY_NUMBERS + 2}::bigint, last_number),
    last_event = coalesce($${ENTRY_NUMBERS + 8}::bigint, last_event)
  WHERE $${ENTRY_NUMBERS + 2}::bigint IS NOT NULL OR $${ENTRY_NUMBERS + 8}::bigint IS NOT NULL
), daily_totals AS (
  INSERT INTO account_daily_totals (account_id, entry_date, debit_total, credit_total)
  SELECT * FROM unnest($33::text[], $34::text[], $35::numeric[], $36::numeric[])
  ON CONFLICT (account_id, entry_date) DO UPDATE SET debit_total = account_daily_totals.debit_total + excluded.debit_total,
    credit_total = account_daily_totals.credit_total + excluded.credit_total
)
INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')})
SELECT * FROM unnest(${AUDIT_COLUMNS.map((_, index) => `$${index + 37}::text[]`).join(', ')})`;
