/**
 * The storage port's audit concern: the append-only log and its chain of seals. Composed into
 * LedgerReads and LedgerWrites (ledger-store.ts).
 */
import type { AuditAction, AuditRecord } from '../../domain/audit.js';
import type { SortOrder } from './books-store.js';
import type { PageRequest, StorePage } from './store-pages.js';

/**
 * Which audit records, in which order of (occurred_at, id): newest first (`desc`, the default) or
 * oldest first. Dates are inclusive calendar days of occurred_at (UTC). The log holds the records
 * written by changes and the posts, each of which is read from its entry (docs/audit.md).
 */
export interface AuditLogFilter {
  actor_id?: string | undefined;
  action?: AuditAction | undefined;
  target_id?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
  order?: SortOrder | undefined;
  /** Only the records written as records, not the posts read from their entries (copying a ledger copies entries and records apart). */
  recorded_only?: boolean | undefined;
}

/** An audit record with its place in the audit chain. */
export interface SealedAuditRecord {
  record: AuditRecord;
  position: number;
  previous_hash: string;
  hash: string;
}

export interface AuditReads {
  /**
   * Audit records matching the filter, keyset-paged on [occurred_at, id] in the filter's order:
   * the records written and, unless `recorded_only`, every entry of hash version 2 that is a post
   * (standard or reversal) as its record (domain/audit.ts, postingRecord).
   */
  listAuditLog(filter: AuditLogFilter, page: PageRequest): Promise<StorePage<AuditRecord>>;
  /** Sealed audit records in chain order with their links, keyset-paged on [position]. */
  listAuditChain(page: PageRequest): Promise<StorePage<SealedAuditRecord>>;
  /** How many records the audit log table holds, and how many of them are sealed into the chain (posts are on their entries' chains). */
  countAuditRecords(): Promise<{ records: number; sealed: number }>;
}

export interface AuditWrites {
  /**
   * Appends a record to the audit log. The log is append-only: the database itself refuses to
   * change or delete a record. A job's record commits or rolls back with the job's change.
   */
  insertAuditRecord(record: AuditRecord): Promise<void>;
  /**
   * Appends up to `limit` committed, unsealed audit records, in log order, to the audit chain
   * (service/entry-hash.ts auditRecordHash) and answers how many. The adapters call it right after
   * a commit that wrote audit records; one process seals at a time. With `unlessBusy`, it answers
   * undefined at once, sealing nothing, when another process is sealing (the caller tries later).
   */
  sealAuditRecords(limit: number, options?: { unlessBusy?: boolean }): Promise<number | undefined>;
}
