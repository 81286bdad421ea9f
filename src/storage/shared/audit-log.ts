/**
 * The audit log's rows and its one listing query, shared by both adapters: the tables and their
 * columns are the same in both schemas, only the parameter markers differ (`?` or `$1`). The log
 * is the audit_log table and the posted entries, each of which is its own record (docs/audit.md).
 */
import {
  type AuditAction, type AuditRecord, type AuditTargetType, type CredentialType, type FieldChanges, LOCAL_OPERATOR_ID, postingRecord,
} from '../../domain/audit.js';
import { nextDay } from '../../domain/dates.js';
import type { AuditLogFilter, PageRequest } from '../../service/ports/ledger-store.js';

export interface AuditRow {
  occurred_at: string; id: string; actor_id: string | null; credential_type: string | null; credential_id: string | null;
  request_id: string | null; action: string; target_type: string | null; target_id: string | null; changes: string | null;
  hash: string | null;
}

/** The stored columns. A record's hash is not one of them: it is its seal's (audit_seals). */
export const AUDIT_COLUMNS = ['occurred_at', 'id', 'actor_id', 'credential_type', 'credential_id', 'request_id', 'action',
  'target_type', 'target_id', 'changes'] as const;

export function toAuditRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    occurred_at: row.occurred_at,
    actor_id: row.actor_id,
    credential_type: row.credential_type as CredentialType | null,
    credential_id: row.credential_id,
    request_id: row.request_id,
    action: row.action as AuditAction,
    target_type: row.target_type as AuditTargetType | null,
    target_id: row.target_id,
    changes: row.changes === null ? null : (JSON.parse(row.changes) as FieldChanges),
    hash: row.hash,
  };
}

/** The columns read back: a record's hash is its seal's (null until sealed, right after commit). */
export const AUDIT_SELECT = [...AUDIT_COLUMNS,
  '(SELECT s.hash FROM audit_seals s WHERE s.occurred_at = audit_log.occurred_at AND s.id = audit_log.id) AS hash'].join(', ');

/** Seals in chain order with their records, keyset-paged on [position]. */
export function auditChainQuery(marker: (position: number) => string): string {
  return `SELECT s.position, s.previous_hash, s.hash AS seal_hash, ${AUDIT_COLUMNS.map((column) => `a.${column}`).join(', ')}
    FROM audit_seals s JOIN audit_log a ON a.occurred_at = s.occurred_at AND a.id = s.id
    WHERE s.position > ${marker(1)} ORDER BY s.position LIMIT ${marker(2)}`;
}

export interface AuditChainRow extends Omit<AuditRow, 'hash'> {
  position: number;
  previous_hash: string;
  seal_hash: string;
}

/** The record's column values, in AUDIT_COLUMNS order. */
export function auditRowValues(record: AuditRecord): (string | null)[] {
  return [
    record.occurred_at, record.id, record.actor_id, record.credential_type, record.credential_id, record.request_id,
    record.action, record.target_type, record.target_id, record.changes === null ? null : JSON.stringify(record.changes),
  ];
}

/** Which posted entries are records of the log (docs/audit.md, "Posts"): those of hash version 2, the same term as the indexes'. */
const POSTS_RECORDED_ON_THE_ENTRY = 'hash_version = 2';

/**
 * The sources a listing merges: the log's own rows, then the posts read from the entries (one
 * source per entry type, so that each is one index range in log order: journal_entries_audit, or
 * journal_entries_audit_actor for an actor). Closing entries are part of their close, which has a
 * record of its own.
 */
const POST_SOURCES = [
  { action: 'journal_entry.create', entryType: 'standard', target: 'id' },
  { action: 'journal_entry.reverse', entryType: 'reversal', target: 'reverses_id' },
] as const;

/** A listed row: a record of the log, or a post read from its entry (`posted_entry_type` set). */
export interface ListedAuditRow extends AuditRow {
  posted_entry_type: string | null;
  override_reason: string | null;
}

/** A listed row as the record it is: a post's is built from its entry's columns (postingRecord). */
export function toListedAuditRecord(row: ListedAuditRow): AuditRecord {
  if (row.posted_entry_type === null) return toAuditRecord(row);
  return postingRecord({
    id: row.id, posted_at: row.occurred_at, entry_type: row.posted_entry_type as 'standard' | 'reversal', reverses_id: row.target_id,
    created_by: row.actor_id, credential_type: row.credential_type as CredentialType | null, credential_id: row.credential_id,
    request_id: row.request_id, override_reason: row.override_reason, hash: row.hash!,
  });
}

/**
 * One page of the log: the filters, the keyset position and the order. occurred_at is an ISO
 * timestamp, so a calendar day is the text range [day, next day), which the indexes serve.
 *
 * The log is the audit_log table merged with the posts recorded on their entries, in one
 * UNION ALL ordered by (occurred_at, id) (docs/audit.md). Each source takes the filters and the
 * keyset position itself, so that each is read as one index range in the page's order, and the
 * database merges them, reading no more than a page of each (test/storage/audit-log-indexes.test.ts):
 * SQLite merges the sources as they are. PostgreSQL (15) plans a member of a UNION ALL that has a
 * WHERE as a subquery of its own, which it would read whole and sort; given its own ORDER BY and
 * LIMIT (`limitEachSource`) each member is an index range of at most a page, which Merge Append
 * merges. `recordedOnly` lists the table alone (copying a ledger copies the table; the entries
 * carry their own records).
 */
export function auditLogQuery(filter: AuditLogFilter, page: PageRequest, marker: (position: number) => string,
  options: { recordedOnly?: boolean | undefined; limitEachSource?: boolean } = {}) {
  const params: (string | number)[] = [];
  const descending = (filter.order ?? 'desc') === 'desc';
  const value = (param: string | number) => {
    params.push(param);
    return marker(params.length);
  };
  /** The filters and the keyset position on one source's columns. */
  const conditions = (time: string, columns: { actor: string; target: string }, fixed: readonly string[]) => {
    const where = [...fixed];
    if (filter.actor_id !== undefined) where.push(`${columns.actor} = ${value(filter.actor_id)}`);
    if (filter.target_id !== undefined) where.push(`${columns.target} = ${value(filter.target_id)}`);
    if (filter.start_date !== undefined) where.push(`${time} >= ${value(filter.start_date)}`);
    if (filter.end_date !== undefined) where.push(`${time} < ${value(nextDay(filter.end_date))}`);
    if (page.after !== undefined) {
      where.push(`(${time}, id) ${descending ? '<' : '>'} (${value(String(page.after[0]))}, ${value(String(page.after[1]))})`);
    }
    return where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  };
  const direction = descending ? 'DESC' : 'ASC';
  const source = (select: string, time: string) => (options.limitEachSource !== true ? select : `SELECT * FROM (${select}
    ORDER BY ${time} ${direction}, id ${direction} LIMIT ${value(page.limit + 1)}) AS source`);
  const sources = [source(`SELECT ${AUDIT_SELECT}, CAST(NULL AS TEXT) AS posted_entry_type, CAST(NULL AS TEXT) AS override_reason
    FROM audit_log ${conditions('occurred_at', { actor: 'actor_id', target: 'target_id' },
    filter.action === undefined ? [] : [`action = ${value(filter.action)}`])}`, 'occurred_at')];
  // The local operator is no user: no post names it as its actor (postingRecord).
  const postsListed = options.recordedOnly !== true && filter.actor_id !== LOCAL_OPERATOR_ID;
  for (const post of POST_SOURCES) {
    if (!postsListed || (filter.action !== undefined && filter.action !== post.action)) continue;
    sources.push(source(`SELECT posted_at AS occurred_at, id, created_by AS actor_id, credential_type, credential_id, request_id,
      '${post.action}' AS action, 'journal_entry' AS target_type, ${post.target} AS target_id, CAST(NULL AS TEXT) AS changes, hash,
      entry_type AS posted_entry_type, override_reason
      FROM journal_entries ${conditions('posted_at', { actor: 'created_by', target: post.target },
      [POSTS_RECORDED_ON_THE_ENTRY, `entry_type = '${post.entryType}'`])}`, 'posted_at'));
  }
  const sql = `${sources.join('\n  UNION ALL\n')}
    ORDER BY occurred_at ${direction}, id ${direction} LIMIT ${value(page.limit + 1)}`;
  return { sql, params };
}
