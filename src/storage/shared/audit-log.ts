/**
 * The audit log's rows and its one listing query, shared by both adapters: the table and its
 * columns are the same in both schemas, only the parameter markers differ (`?` or `$1`).
 */
import type { AuditAction, AuditRecord, AuditTargetType, CredentialType, FieldChanges } from '../../domain/audit.js';
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

/**
 * One page of the log: the filters, the keyset position and the order. occurred_at is an ISO
 * timestamp, so a calendar day is the text range [day, next day), which the indexes serve.
 */
export function auditLogQuery(filter: AuditLogFilter, page: PageRequest, marker: (position: number) => string) {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const condition = (sql: (value: string) => string, value: string | number) => {
    params.push(value);
    where.push(sql(marker(params.length)));
  };
  const descending = (filter.order ?? 'desc') === 'desc';
  if (filter.actor_id !== undefined) condition((value) => `actor_id = ${value}`, filter.actor_id);
  if (filter.action !== undefined) condition((value) => `action = ${value}`, filter.action);
  if (filter.target_id !== undefined) condition((value) => `target_id = ${value}`, filter.target_id);
  if (filter.start_date !== undefined) condition((value) => `occurred_at >= ${value}`, filter.start_date);
  if (filter.end_date !== undefined) condition((value) => `occurred_at < ${value}`, nextDay(filter.end_date));
  if (page.after !== undefined) {
    params.push(String(page.after[0]), String(page.after[1]));
    where.push(`(occurred_at, id) ${descending ? '<' : '>'} (${marker(params.length - 1)}, ${marker(params.length)})`);
  }
  params.push(page.limit + 1);
  const direction = descending ? 'DESC' : 'ASC';
  const sql = `SELECT ${AUDIT_SELECT} FROM audit_log ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY occurred_at ${direction}, id ${direction} LIMIT ${marker(params.length)}`;
  return { sql, params };
}
