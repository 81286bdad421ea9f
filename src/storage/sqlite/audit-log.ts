/** The audit log: appending a record and listing them. */
import type { AuditLogFilter, LedgerReads, LedgerWrites, PageRequest } from '../../service/ports/ledger-store.js';
import {
  AUDIT_COLUMNS, AUDIT_SELECT, type AuditChainRow, type AuditRow, auditChainQuery, auditLogQuery, auditRowValues, type ListedAuditRow,
  toAuditRecord, toListedAuditRecord,
} from '../shared/audit-log.js';
import { sealsFor } from '../shared/audit-sealing.js';
import { mapPage, page } from '../shared/paging.js';
import { placeholders, type SqliteQueries } from './queries.js';

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

export function auditReads(q: SqliteQueries) {
  return {
    async listAuditLog(filter, request) {
      const { sql, params } = auditLogListing(filter, request);
      const rows = q.all<ListedAuditRow>(sql, ...params);
      return mapPage(page(rows, request.limit, (row) => [row.occurred_at, row.id]), toListedAuditRecord);
    },

    async listAuditChain(request) {
      const rows = q.all<AuditChainRow>(auditChainQuery(() => '?'), Number(request.after?.[0] ?? 0), request.limit + 1);
      return mapPage(page(rows, request.limit, (row) => [row.position]), (row) => ({
        record: toAuditRecord({ ...row, hash: row.seal_hash }), position: row.position, previous_hash: row.previous_hash, hash: row.seal_hash,
      }));
    },

    async countAuditRecords() {
      return q.get<{ records: number; sealed: number }>(
        'SELECT (SELECT COUNT(*) FROM audit_log) AS records, (SELECT COUNT(*) FROM audit_seals) AS sealed')!;
    },
  } satisfies Partial<LedgerReads>;
}

/** `onAuditWritten` tells the group commit to seal the records once they commit. */
export function auditWrites(q: SqliteQueries, onAuditWritten: () => void = () => {}) {
  return {
    async insertAuditRecord(record) {
      q.run(INSERT_AUDIT_RECORD, ...auditRowValues(record));
      q.run('INSERT INTO audit_unsealed (occurred_at, id) VALUES (?, ?)', record.occurred_at, record.id);
      onAuditWritten();
    },

    async sealAuditRecords(limit) {
      // The write transaction is exclusive: the head read here is the chain's last seal.
      const records = q.all<AuditRow>(UNSEALED, limit).map(toAuditRecord);
      const head = q.get<{ position: number; hash: string }>('SELECT position, hash FROM audit_seals ORDER BY position DESC LIMIT 1');
      for (const seal of sealsFor(records, head)) {
        q.run('INSERT INTO audit_seals (position, occurred_at, id, previous_hash, hash) VALUES (?, ?, ?, ?, ?)',
          seal.position, seal.occurred_at, seal.id, seal.previous_hash, seal.hash);
      }
      // The records sealed are the first ones audit_unsealed lists, in its key order.
      const last = records.at(-1);
      if (last) q.run('DELETE FROM audit_unsealed WHERE (occurred_at, id) <= (?, ?)', last.occurred_at, last.id);
      return records.length;
    },
  } satisfies Partial<LedgerWrites>;
}
