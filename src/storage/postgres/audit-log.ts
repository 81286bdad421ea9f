/**
 * The audit log: appending records and listing them. A write job's records are kept in memory
 * and written together, as one statement, when the job ends (or before the job reads the log, or
 * once a thousand are pending): a job that posts many entries (an import) adds one statement per
 * thousand entries, not one per entry. They are written inside the job's savepoint, so they
 * commit or roll back with the job's change.
 */
import type { AuditRecord } from '../../domain/audit.js';
import type { LedgerReads, LedgerWrites } from '../../service/ports/ledger-store.js';
import {
  AUDIT_COLUMNS, type AuditChainRow, type AuditRow, auditChainQuery, auditLogQuery, auditRowValues, toAuditRecord, unsealedAuditQuery,
} from '../shared/audit-log.js';
import { sealsFor } from '../shared/audit-sealing.js';
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

    async listAuditChain(request) {
      const rows = await q.all<AuditChainRow & Record<string, unknown>>(auditChainQuery((position) => `$${position}`),
        String(request.after?.[0] ?? 0), request.limit + 1);
      return mapPage(page(rows, request.limit, (row) => [row.position]), (row) => ({
        record: toAuditRecord({ ...row, hash: row.seal_hash }), position: row.position, previous_hash: row.previous_hash, hash: row.seal_hash,
      }));
    },

    async countAuditRecords() {
      await beforeRead();
      return (await q.get<{ records: number; sealed: number }>(
        'SELECT (SELECT count(*) FROM audit_log) AS records, (SELECT count(*) FROM audit_seals) AS sealed'))!;
    },
  } satisfies Partial<LedgerReads>;
}

/** `onAuditWritten` tells the group commit to seal the records once they commit. */
export function auditWrites(q: PgQueries, pending: PendingAuditRecords, onAuditWritten: () => void = () => {}) {
  return {
    async insertAuditRecord(record) {
      onAuditWritten();
      if (pending.add(record)) await pending.write(q);
    },

    async sealAuditRecords(limit) {
      // One sealer at a time, whichever process; the seal job runs first in its group, before the
      // group holds any other lock, so sealers wait only for each other.
      await q.run("SELECT pg_advisory_xact_lock(hashtext('ledger.audit-seal'))");
      const records = (await q.all<AuditRow & Record<string, unknown>>(unsealedAuditQuery((position) => `$${position}`), limit))
        .map(toAuditRecord);
      if (records.length === 0) return 0;
      const head = await q.get<{ position: number; hash: string }>('SELECT position, hash FROM audit_seals ORDER BY position DESC LIMIT 1');
      const seals = sealsFor(records, head);
      await q.run(`INSERT INTO audit_seals (position, occurred_at, id, previous_hash, hash)
        SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[])`,
      seals.map((seal) => String(seal.position)), seals.map((seal) => seal.occurred_at), seals.map((seal) => seal.id),
      seals.map((seal) => seal.previous_hash), seals.map((seal) => seal.hash));
      return records.length;
    },
  } satisfies Partial<LedgerWrites>;
}
