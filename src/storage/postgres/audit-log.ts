/**
 * The audit log: appending records and listing them. A write job's records wait in the
 * transaction's WriteBuffer with its posted entries and are written with them (write-buffer.ts),
 * so they commit or roll back with the job's change.
 */
import type { AuditLogFilter, LedgerReads, LedgerWrites, PageRequest } from '../../service/ports/ledger-store.js';
import {
  AUDIT_SELECT, type AuditChainRow, type AuditRow, auditChainQuery, auditLogQuery, type ListedAuditRow, toAuditRecord, toListedAuditRecord,
} from '../shared/audit-log.js';
import { sealsFor } from '../shared/audit-sealing.js';
import { mapPage, page } from '../shared/paging.js';
import type { PgQueries } from './queries.js';
import type { WriteTransaction } from './write-transaction.js';
import type { AuditRecord } from '../../domain/audit.js';
import type { SealedAuditRecord } from '../../service/ports/audit-store.js';
import type { StorePage } from '../../service/ports/store-pages.js';

const SEAL_LOCK = "hashtext('ledger.audit-seal')";

/**
 * Unsealed records, for the sealer. Each record keeps the id of the transaction that wrote it
 * (`tx`), and each seal the horizon below which every transaction's records are sealed: only the
 * records of later transactions need looking at, not the whole log. The horizon of this query is
 * the oldest transaction still running at its snapshot. The candidates are found by `tx` (planned
 * for the horizon each time) and each looks up its own seal, so neither table is walked whole.
 */
export const UNSEALED_SINCE = `WITH candidates AS MATERIALIZED (
  SELECT ${AUDIT_SELECT}, pg_snapshot_xmin(pg_current_snapshot())::text AS horizon FROM audit_log WHERE tx >= $1::xid8
) SELECT * FROM candidates WHERE hash IS NULL ORDER BY occurred_at, id LIMIT $2`;

/**
 * A page of the log, the table's records and the posts merged, each source ordered and limited
 * itself (PostgreSQL merges them with Merge Append only so; test/storage/audit-log-indexes.test.ts
 * reads its plan).
 */
export function auditLogListing(filter: AuditLogFilter, request: PageRequest) {
  return auditLogQuery(filter, request, (position) => `$${position}`, { recordedOnly: filter.recorded_only, limitEachSource: true });
}

export abstract class PostgresAuditReads implements Partial<LedgerReads> {
  declare readonly q: PgQueries;

  async listAuditLog(filter: AuditLogFilter, request: PageRequest): Promise<StorePage<AuditRecord>> {
    const { sql, params } = auditLogListing(filter, request);
    const rows = await this.q.all<ListedAuditRow & Record<string, unknown>>(sql, ...params);
    return mapPage(page(rows, request.limit, (row) => [row.occurred_at, row.id]), toListedAuditRecord);
  }

  async listAuditChain(request: PageRequest): Promise<StorePage<SealedAuditRecord>> {
    const rows = await this.q.all<AuditChainRow & Record<string, unknown>>(auditChainQuery((position) => `$${position}`),
      String(request.after?.[0] ?? 0), request.limit + 1);
    return mapPage(page(rows, request.limit, (row) => [row.position]), (row) => ({
      record: toAuditRecord({ ...row, hash: row.seal_hash }), position: row.position, previous_hash: row.previous_hash, hash: row.seal_hash,
    }));
  }

  async countAuditRecords(): Promise<{ records: number; sealed: number }> {
    return (await this.q.get<{ records: number; sealed: number }>(
      'SELECT (SELECT count(*) FROM audit_log) AS records, (SELECT count(*) FROM audit_seals) AS sealed'))!;
  }
}

/** `onAuditWritten` tells the group commit to seal the records once they commit. */
export abstract class PostgresAuditWrites implements Partial<LedgerWrites> {
  declare readonly q: PgQueries;
  declare readonly transaction: WriteTransaction;
  declare readonly onAuditWritten: () => void;

  async insertAuditRecord(record: AuditRecord): Promise<void> {
    this.onAuditWritten();
    this.transaction.buffer.addAudit(record);
    if (this.transaction.buffer.full) await this.transaction.flush();
  }

  async sealAuditRecords(limit: number, options: { unlessBusy?: boolean; } | undefined): Promise<number | undefined> {
    // One sealer at a time, whichever process. The seal after a commit does not wait for another
    // process's sealer (it would hold up every post queued behind it): it tries again later.
    if (options?.unlessBusy) {
      const free = await this.q.get<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${SEAL_LOCK}) AS locked`);
      if (!free!.locked) return undefined;
    } else {
      await this.q.run(`SELECT pg_advisory_xact_lock(${SEAL_LOCK})`);
    }
    const head = await this.q.get<{ position: number; hash: string; horizon: string | null }>(
      'SELECT position, hash, horizon::text AS horizon FROM audit_seals ORDER BY position DESC LIMIT 1');
    const since = head?.horizon ?? '0';
    const rows = await this.q.allPlannedEachTime<AuditRow & { horizon: string } & Record<string, unknown>>(UNSEALED_SINCE, since, limit);
    if (rows.length === 0) return 0;
    // Every record of a transaction older than the oldest one running at the query's snapshot
    // was visible to it, so is sealed now, unless the batch was cut short at `limit`.
    const horizon = rows.length < limit ? rows[0]!.horizon : since;
    const seals = sealsFor(rows.map(toAuditRecord), head);
    await this.q.run(`INSERT INTO audit_seals (position, occurred_at, id, previous_hash, hash, horizon)
      SELECT *, $6::xid8 FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[])`,
    seals.map((seal) => String(seal.position)), seals.map((seal) => seal.occurred_at), seals.map((seal) => seal.id),
    seals.map((seal) => seal.previous_hash), seals.map((seal) => seal.hash), horizon);
    return rows.length;
  }
}
