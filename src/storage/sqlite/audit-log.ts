/** The audit log: appending a record and listing them. */
import type { AuditLogFilter, LedgerReads, LedgerWrites, PageRequest } from '../../service/ports/ledger-store.js';
import {
  AUDIT_COLUMNS, AUDIT_SELECT, type AuditChainRow, type AuditRow, auditChainQuery, auditLogQuery, auditRowValues, type ListedAuditRow,
  toAuditRecord, toListedAuditRecord,
} from '../shared/audit-log.js';
import { sealsFor } from '../shared/audit-sealing.js';
import { mapPage, page } from '../shared/paging.js';
import { placeholders, type SqliteQueries } from './queries.js';
import type { AuditRecord } from '../../domain/audit.js';
import type { SealedAuditRecord } from '../../service/ports/audit-store.js';
import type { StorePage } from '../../service/ports/store-pages.js';

/**
 * Unsealed records in log order, for the sealer: the few that audit_unsealed lists (schema version
 * 8). Every record's insert adds its key there and its seal's insert removes it, in the same
 * transaction (the statements below; triggers did it until schema version 10).
 */
const UNSEALED = `SELECT ${AUDIT_SELECT} FROM audit_log
  WHERE (occurred_at, id) IN (SELECT occurred_at, id FROM audit_unsealed ORDER BY occurred_at, id LIMIT ?)
  ORDER BY occurred_at, id`;

const INSERT_AUDIT_RECORD = `INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')}) VALUES (${placeholders(AUDIT_COLUMNS.length)})`;

/** A page of the log, the table's records and the posts merged (test/storage/audit-log-indexes.test.ts reads its plan). */
export function auditLogListing(filter: AuditLogFilter, request: PageRequest) {
  return auditLogQuery(filter, request, () => '?', { recordedOnly: filter.recorded_only });
}

export abstract class SqliteAuditReads implements Partial<LedgerReads> {
  declare readonly q: SqliteQueries;

  async listAuditLog(filter: AuditLogFilter, request: PageRequest): Promise<StorePage<AuditRecord>> {
    const { sql, params } = auditLogListing(filter, request);
    const rows = this.q.all<ListedAuditRow>(sql, ...params);
    return mapPage(page(rows, request.limit, (row) => [row.occurred_at, row.id]), toListedAuditRecord);
  }

  async listAuditChain(request: PageRequest): Promise<StorePage<SealedAuditRecord>> {
    const rows = this.q.all<AuditChainRow>(auditChainQuery(() => '?'), Number(request.after?.[0] ?? 0), request.limit + 1);
    return mapPage(page(rows, request.limit, (row) => [row.position]), (row) => ({
      record: toAuditRecord({ ...row, hash: row.seal_hash }), position: row.position, previous_hash: row.previous_hash, hash: row.seal_hash,
    }));
  }

  async countAuditRecords(): Promise<{ records: number; sealed: number }> {
    return this.q.get<{ records: number; sealed: number }>(
      'SELECT (SELECT COUNT(*) FROM audit_log) AS records, (SELECT COUNT(*) FROM audit_seals) AS sealed')!;
  }
}

/** `onAuditWritten` tells the group commit to seal the records once they commit. */
export abstract class SqliteAuditWrites implements Partial<LedgerWrites> {
  declare readonly q: SqliteQueries;
  declare readonly onAuditWritten: () => void;

  async insertAuditRecord(record: AuditRecord): Promise<void> {
    this.q.run(INSERT_AUDIT_RECORD, ...auditRowValues(record));
    this.q.run('INSERT INTO audit_unsealed (occurred_at, id) VALUES (?, ?)', record.occurred_at, record.id);
    this.onAuditWritten();
  }

  async sealAuditRecords(limit: number): Promise<number | undefined> {
    // The write transaction is exclusive: the head read here is the chain's last seal.
    const records = this.q.all<AuditRow>(UNSEALED, limit).map(toAuditRecord);
    const head = this.q.get<{ position: number; hash: string }>('SELECT position, hash FROM audit_seals ORDER BY position DESC LIMIT 1');
    for (const seal of sealsFor(records, head)) {
      this.q.run('INSERT INTO audit_seals (position, occurred_at, id, previous_hash, hash) VALUES (?, ?, ?, ?, ?)',
        seal.position, seal.occurred_at, seal.id, seal.previous_hash, seal.hash);
    }
    // The records sealed are the first ones audit_unsealed lists, in its key order.
    const last = records.at(-1);
    if (last) this.q.run('DELETE FROM audit_unsealed WHERE (occurred_at, id) <= (?, ?)', last.occurred_at, last.id);
    return records.length;
  }
}
