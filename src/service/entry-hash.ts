/**
 * The tamper-evident chain of journal entries. Each currency's entries form one chain, in the
 * order they were posted: an entry's `hash` is the SHA-256 (lower-case hex) of its canonical form,
 * which includes the hash of the currency's previous entry (64 zeros for the first). Changing,
 * removing or inserting any entry behind the service's back changes every later hash of the
 * chain, which `ledger verify` recomputes.
 *
 * The canonical form is the compact JSON (no spaces; strings escaped as JSON.stringify does) of,
 * for an entry of hash version 2 (every entry posted since SQLite schema version 17 / PostgreSQL 18),
 *   ["ledger-entry-v2", previous_hash, id, entry_date, description, reference, metadata,
 *    period_id, entry_type, reverses_id, created_by, posted_at, currency_id,
 *    [[line_id, account_id, debit_amount, credit_amount, line_description], ...],
 *    override_reason, credential_type, credential_id, request_id]
 * and for an entry of version 1 (posted before)
 *   ["ledger-entry-v1", previous_hash, ... the same up to the lines ...]
 * followed by ["override_reason", override_reason] when the entry has one. Version 2 covers who
 * posted (created_by, credential and request) because the entry is its own audit record
 * (docs/audit.md); a version 1 entry's audit record is a sealed row of the audit log. Every value
 * is exactly as the API shows it: amounts as integer strings, absent values as null, `metadata` as
 * the compact JSON of the API's object (or null), lines in the entry's order. docs/api.md shows how
 * to recompute a chain in a few lines of Python.
 *
 * One chain per currency, because each currency's total is already the one row every post in that
 * currency locks: chaining on it adds no new point where posts queue.
 */
import { createHash } from 'node:crypto';
import type { EntryHashVersion, JournalEntry, JournalLine } from '../domain/types.js';

export const GENESIS_HASH = '0'.repeat(64);

/** The hash version of every entry posted now (domain/types.ts, EntryHashVersion). */
export const ENTRY_HASH_VERSION = 2 satisfies EntryHashVersion;

type AuditFields = 'credential_type' | 'credential_id' | 'request_id';

/**
 * What the hash covers: an entry as stored, its amounts as bigint or integer strings (migrations
 * read text). The migrations that rebuilt the chain before hash versions existed read entries
 * without a version or the fields it added: those are version 1.
 */
export type HashedEntry = Omit<JournalEntry, 'lines' | 'reversed_by_id' | 'entry_type' | 'override_reason' | 'hash_version' | AuditFields> & {
  entry_type: string;
  /** Covered when present (entries posted on or before the lock date); older entries have none. */
  override_reason?: string | null;
  hash_version?: EntryHashVersion;
} & Partial<Pick<JournalEntry, AuditFields>> & {
  lines: readonly (Omit<JournalLine, 'debit_amount' | 'credit_amount'> & { debit_amount: bigint | string; credit_amount: bigint | string })[];
};

export function canonicalEntry(entry: HashedEntry, previousHash: string): string {
  const version = entry.hash_version ?? 1;
  const content = [
    previousHash, entry.id, entry.entry_date, entry.description, entry.reference,
    entry.metadata === null ? null : JSON.stringify(entry.metadata), entry.period_id, entry.entry_type, entry.reverses_id,
    entry.created_by, entry.posted_at, entry.currency_id,
    entry.lines.map((line) => [line.id, line.account_id, String(line.debit_amount), String(line.credit_amount), line.description]),
  ];
  const overrideReason = entry.override_reason ?? null;
  if (version === 1) {
    return JSON.stringify(['ledger-entry-v1', ...content, ...(overrideReason === null ? [] : [['override_reason', overrideReason]])]);
  }
  // A version that is neither (a stored one changed) names itself, so the hash no longer matches.
  return JSON.stringify([`ledger-entry-v${version}`, ...content, overrideReason,
    entry.credential_type ?? null, entry.credential_id ?? null, entry.request_id ?? null]);
}

export function entryHash(entry: HashedEntry, previousHash: string): string {
  return createHash('sha256').update(canonicalEntry(entry, previousHash)).digest('hex');
}

/** What an audit record's hash covers: the record as the API shows it. */
export interface HashedAuditRecord {
  id: string;
  occurred_at: string;
  actor_id: string | null;
  credential_type: string | null;
  credential_id: string | null;
  request_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  changes: unknown;
}

/**
 * The audit log is one chain, sealed right after the records commit (docs/audit.md): a record's
 * hash is the SHA-256 of the compact JSON of
 *   ["ledger-audit-v1", previous_hash, id, occurred_at, actor_id, credential_type, credential_id,
 *    request_id, action, target_type, target_id, changes]
 * with `changes` as the compact JSON of the API's object (or null).
 */
export function auditRecordHash(record: HashedAuditRecord, previousHash: string): string {
  return createHash('sha256').update(JSON.stringify([
    'ledger-audit-v1', previousHash, record.id, record.occurred_at, record.actor_id, record.credential_type, record.credential_id,
    record.request_id, record.action, record.target_type, record.target_id,
    record.changes === null || record.changes === undefined ? null : JSON.stringify(record.changes),
  ])).digest('hex');
}
