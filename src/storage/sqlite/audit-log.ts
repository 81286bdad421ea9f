/** The audit log: appending a record and listing them. */
import type { LedgerReads, LedgerWrites } from '../../service/ports/ledger-store.js';
import { AUDIT_COLUMNS, type AuditRow, auditLogQuery, auditRowValues, toAuditRecord } from '../shared/audit-log.js';
import { mapPage, page } from '../shared/paging.js';
import { placeholders, type SqliteQueries } from './queries.js';

const INSERT_AUDIT_RECORD = `INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')}) VALUES (${placeholders(AUDIT_COLUMNS.length)})`;

export function auditReads(q: SqliteQueries) {
  return {
    async listAuditLog(filter, request) {
      const { sql, params } = auditLogQuery(filter, request, () => '?');
      const rows = q.all<AuditRow>(sql, ...params);
      return mapPage(page(rows, request.limit, (row) => [row.occurred_at, row.id]), toAuditRecord);
    },
  } satisfies Partial<LedgerReads>;
}

export function auditWrites(q: SqliteQueries) {
  return {
    async insertAuditRecord(record) {
      q.run(INSERT_AUDIT_RECORD, ...auditRowValues(record));
    },
  } satisfies Partial<LedgerWrites>;
}
