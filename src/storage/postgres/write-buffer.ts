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
import { WORDS_VECTOR, wordsText } from './entry-search.js';
import type { PgQueries } from './queries.js';

interface Sums {
  debits: bigint;
  credits: bigint;
}

/** A locked currency as the transaction sees it: its debit total and chain head, unwritten entries included. */
export interface CurrencyState {
  total: bigint;
  head: string;
}

/** Pending entries or audit records past this many are written at once (a long import stays flat in memory). */
const MAX_PENDING_ROWS = 1000;

const KEY_SEPARATOR = '\u0000';

function addTo(map: Map<string, Sums>, key: string, sums: Sums): void {
  const sum = map.get(key);
  if (sum) {
    sum.debits += sums.debits;
    sum.credits += sums.credits;
  } else {
    map.set(key, { debits: sums.debits, credits: sums.credits });
  }
}

/** Sorted, so that every writer touches totals rows in the same order (no lock-order deadlocks). */
function sorted<T>(map: Map<string, T>): [string, T][] {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

class Layer {
  entries: { entry: JournalEntry; link: EntryPlace; debits: bigint }[] = [];
  /** The last entry number given as of this layer, once the transaction holds the numbers' row (undefined: not by this layer). */
  lastNumber: number | undefined;
  audit: AuditRecord[] = [];
  /** Debits added to each currency's total, not written yet. */
  readonly currencyDebits = new Map<string, bigint>();
  readonly accounts = new Map<string, Sums>();
  /** Keyed by account id and period id. */
  readonly periods = new Map<string, Sums>();
  /** Keyed by account id and entry date. */
  readonly days = new Map<string, Sums>();
  /** The currencies this layer locked or posted to, as they stand after it. */
  readonly currencies = new Map<string, CurrencyState>();

  get empty(): boolean {
    return this.entries.length === 0 && this.audit.length === 0;
  }

  addEntry(entry: JournalEntry, debits: bigint, link: EntryPlace): void {
    this.entries.push({ entry, link, debits });
    this.currencyDebits.set(entry.currency_id, (this.currencyDebits.get(entry.currency_id) ?? 0n) + debits);
    for (const [accountId, sums] of entryTotalsByAccount(entry.lines)) {
      addTo(this.accounts, accountId, sums);
      addTo(this.periods, accountId + KEY_SEPARATOR + entry.period_id, sums);
      addTo(this.days, accountId + KEY_SEPARATOR + entry.entry_date, sums);
    }
  }

  /** Takes over a later layer (a job that succeeded): its rows follow this layer's. */
  absorb(later: Layer): void {
    for (const row of later.entries) this.entries.push(row);
    for (const record of later.audit) this.audit.push(record);
    for (const [id, debits] of later.currencyDebits) this.currencyDebits.set(id, (this.currencyDebits.get(id) ?? 0n) + debits);
    for (const [key, sums] of later.accounts) addTo(this.accounts, key, sums);
    for (const [key, sums] of later.periods) addTo(this.periods, key, sums);
    for (const [key, sums] of later.days) addTo(this.days, key, sums);
    for (const [id, state] of later.currencies) this.currencies.set(id, state);
    if (later.lastNumber !== undefined) this.lastNumber = later.lastNumber;
  }

  /** After the rows are written: what stays is the currencies' state and the last number (their locks are held until commit). */
  clearRows(): void {
    this.entries = [];
    this.audit = [];
    this.currencyDebits.clear();
    this.accounts.clear();
    this.periods.clear();
    this.days.clear();
  }

  /** Writes the layer's rows in one statement; the layer is then empty of rows. */
  async write(q: PgQueries): Promise<void> {
    if (this.empty) return;
    const entries = this.entries.map((row) => row.entry);
    const lines = entries.flatMap((entry) => entry.lines.map((line) => ({ entry, line })));
    const currencies = sorted(this.currencyDebits);
    const accounts = sorted(this.accounts);
    const split = ([key, sums]: [string, Sums]) => {
      const [accountId, second] = key.split(KEY_SEPARATOR) as [string, string];
      return [accountId, second, sums] as const;
    };
    const periods = sorted(this.periods).map(split);
    const days = sorted(this.days).map(split);
    const audit = this.audit.map(auditRowValues);
    await q.run(WRITE_ROWS,
      entries.map((e) => e.id), entries.map((e) => e.entry_date), entries.map((e) => e.description), entries.map((e) => e.reference),
      entries.map((e) => (e.metadata === null ? null : JSON.stringify(e.metadata))), entries.map((e) => e.period_id),
      entries.map((e) => e.entry_type), entries.map((e) => e.reverses_id), entries.map((e) => e.created_by),
      entries.map((e) => e.posted_at), entries.map((e) => e.currency_id),
      lines.map(({ entry }) => entry.id), lines.map(({ line }) => line.id), lines.map(({ line }) => line.account_id),
      lines.map(({ entry }) => entry.entry_date), lines.map(({ line }) => toDecimalString(line.debit_amount)),
      lines.map(({ line }) => toDecimalString(line.credit_amount)), lines.map(({ line }) => line.description),
      this.entries.map((row) => row.link.previous_hash), this.entries.map((row) => row.link.hash),
      this.entries.map((row) => toDecimalString(row.debits)), entries.map((e) => wordsText(entrySearchWords(e))),
      currencies.map(([id]) => id), currencies.map(([, debits]) => toDecimalString(debits)),
      currencies.map(([id]) => this.currencies.get(id)!.head),
      accounts.map(([id]) => id), accounts.map(([, s]) => toDecimalString(s.debits)), accounts.map(([, s]) => toDecimalString(s.credits)),
      periods.map(([id]) => id), periods.map(([, period]) => period), periods.map(([, , s]) => toDecimalString(s.debits)),
      periods.map(([, , s]) => toDecimalString(s.credits)),
      days.map(([id]) => id), days.map(([, day]) => day), days.map(([, , s]) => toDecimalString(s.debits)),
      days.map(([, , s]) => toDecimalString(s.credits)),
      ...AUDIT_COLUMNS.map((_, column) => audit.map((row) => row[column] ?? null)),
      this.entries.map((row) => String(row.link.entry_number)), entries.map((e) => e.override_reason),
      entries.length === 0 ? null : String(this.lastNumber),
      entries.map((e) => String(e.hash_version)), entries.map((e) => e.credential_type), entries.map((e) => e.credential_id),
      entries.map((e) => e.request_id));
    this.clearRows();
  }
}

/** The two layers: the group's and the running job's. */
export class WriteBuffer {
  private group = new Layer();
  private job = new Layer();

  /** The currency's state if this transaction holds its lock (taken by a job that has not failed). */
  currency(currencyId: string): CurrencyState | undefined {
    return this.job.currencies.get(currencyId) ?? this.group.currencies.get(currencyId);
  }

  /** The last entry number given, if this transaction holds the numbers' row (taken by a job that has not failed). */
  get lastNumber(): number | undefined {
    return this.job.lastNumber ?? this.group.lastNumber;
  }

  /** The running job locked the numbers' row, whose last number is `last`. */
  lockedNumbers(last: number): void {
    this.job.lastNumber = last;
  }

  /** The running job locked the currency's total. */
  locked(currencyId: string, state: CurrencyState): void {
    this.job.currencies.set(currencyId, state);
  }

  /**
   * Adds a checked entry to the running job: chains it after its (locked) currency's head, numbers
   * it after the last number (the numbers' row is locked too) and adds its debits (`debits`) to
   * the currency's total. Answers its chain link and number.
   */
  addEntry(entry: JournalEntry, debits: bigint): EntryPlace {
    const state = this.currency(entry.currency_id)!;
    const link = { previous_hash: state.head, hash: entryHash(entry, state.head), entry_number: this.lastNumber! + 1 };
    this.job.lastNumber = link.entry_number;
    this.job.addEntry(entry, debits, link);
    this.job.currencies.set(entry.currency_id, { total: state.total + debits, head: link.hash });
    return link;
  }

  addAudit(record: AuditRecord): void {
    this.job.audit.push(record);
  }

  /** True when so many rows are pending that they should be written now. */
  get full(): boolean {
    return this.group.entries.length + this.job.entries.length >= MAX_PENDING_ROWS
      || this.group.audit.length + this.job.audit.length >= MAX_PENDING_ROWS;
  }

  get groupEmpty(): boolean {
    return this.group.empty;
  }

  get jobEmpty(): boolean {
    return this.job.empty;
  }

  writeGroup(q: PgQueries): Promise<void> {
    return this.group.write(q);
  }

  writeJob(q: PgQueries): Promise<void> {
    return this.job.write(q);
  }

  /** The running job succeeded: its rows and locks join the group's. */
  keepJob(): void {
    this.group.absorb(this.job);
    this.job = new Layer();
  }

  /** The running job failed: what it added is forgotten. */
  dropJob(): void {
    this.job = new Layer();
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
 * number given, then the entries' hash versions, credential types, credential ids and request ids.
 */
const ENTRY_NUMBERS = 37 + AUDIT_COLUMNS.length;

const WRITE_ROWS = `WITH entries AS (
  INSERT INTO journal_entries (id, entry_date, description, reference, metadata, period_id, entry_type, reverses_id,
    created_by, posted_at, currency_id, entry_number, override_reason, previous_hash, hash, debit_total, hash_version,
    credential_type, credential_id, request_id)
  SELECT id, entry_date, description, reference, metadata, period_id, entry_type, reverses_id, created_by, posted_at, currency_id,
    entry_number, override_reason, previous_hash, hash, debit_total, hash_version, credential_type, credential_id, request_id
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
    $10::text[], $11::text[], $${ENTRY_NUMBERS}::bigint[], $${ENTRY_NUMBERS + 1}::text[], $19::text[], $20::text[], $21::numeric[],
    $${ENTRY_NUMBERS + 3}::smallint[], $${ENTRY_NUMBERS + 4}::text[], $${ENTRY_NUMBERS + 5}::text[], $${ENTRY_NUMBERS + 6}::text[])
    WITH ORDINALITY AS e(id, entry_date, description, reference, metadata, period_id, entry_type, reverses_id, created_by, posted_at,
      currency_id, entry_number, override_reason, previous_hash, hash, debit_total, hash_version, credential_type, credential_id,
      request_id, position)
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
  UPDATE entry_numbers SET last_number = $${ENTRY_NUMBERS + 2}::bigint WHERE $${ENTRY_NUMBERS + 2}::bigint IS NOT NULL
), daily_totals AS (
  INSERT INTO account_daily_totals (account_id, entry_date, debit_total, credit_total)
  SELECT * FROM unnest($33::text[], $34::text[], $35::numeric[], $36::numeric[])
  ON CONFLICT (account_id, entry_date) DO UPDATE SET debit_total = account_daily_totals.debit_total + excluded.debit_total,
    credit_total = account_daily_totals.credit_total + excluded.credit_total
)
INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')})
SELECT * FROM unnest(${AUDIT_COLUMNS.map((_, index) => `$${index + 37}::text[]`).join(', ')})`;
