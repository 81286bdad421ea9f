/**
 * The audit log: appending records and listing them. A write job's records are kept in memory
 * and written together, as one statement, when the job ends (or before the job reads the log, or
 * once a thousand are pending): a job that posts many entries (an import) adds one statement per
 * thousand entries, not one per entry. They are written inside the job's savepoint, so they
 * commit or roll back with the job's change.
 */
import type { AuditRecord } from '../../domain/audit.js';
import type { LedgerReads, LedgerWrites } from '../../service/ports/ledger-store.js';
import { AUDIT_COLUMNS, type AuditRow, auditLogQuery, auditRowValues, toAuditRecord } from '../shared/audit-log.js';
import { mapPage, page } from '../shared/paging.js';
import type { PgQueries } from './queries.js';

const MAX_PENDING_RECORDS = 1000;

const INSERT_AUDIT_RECORDS = `INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')})
  SELECT * FROM unnest(${AUDIT_COLUMNS.map((_, index) => `$${index + 1}::text[]`).join(', ')})`;

/** The records the current write job has added but not written yet. */
export class PendingAuditRecords {
  private records: AuditRecord[] = [];

  /** A new job (or a job run again) starts with nothing pending. */
  reset(): void {
    this.records = [];
  }

  /** Keeps the record; true when enough are pending to write them now. */
  add(record: AuditRecord): boolean {
    this.records.push(record);
    return this.records.length >= MAX_PENDING_RECORDS;
  }

  async write(q: PgQueries): Promise<void> {
    if (this.records.length === 0) return;
    const rows = this.records.map(auditRowValues);
    await q.run(INSERT_AUDIT_RECORDS, ...AUDIT_COLUMNS.map((_, column) => rows.map((row) => row[column] ?? null)));
    this.records = [];
  }
}

/** `beforeRead` runs before every read of the log; inside a write job it writes the job's pending records. */
export function auditReads(q: PgQueries, beforeRead: () => Promise<void> = async () => {}) {
  return {
    async listAuditLog(filter, request) {
      await beforeRead();
      const { sql, params } = auditLogQuery(filter, request, (position) => `$${position}`);
      const rows = await q.all<AuditRow & Record<string, unknown>>(sql, ...params);
      return mapPage(page(rows, request.limit, (row) => [row.occurred_at, row.id]), toAuditRecord);
    },
  } satisfies Partial<LedgerReads>;
}

export function auditWrites(q: PgQueries, pending: PendingAuditRecords) {
  return {
    async insertAuditRecord(record) {
      if (pending.add(record)) await pending.write(q);
    },
  } satisfies Partial<LedgerWrites>;
}
