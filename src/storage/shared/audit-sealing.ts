/**
 * Sealing the audit log right after commit: records are written by the change's own transaction
 * (no shared row to wait for), and a small job appended to the write queue right after that commit
 * chains them. One process seals at a time; posts never wait for the chain.
 */
import type { AuditRecord } from '../../domain/audit.js';
import { auditRecordHash, GENESIS_HASH } from '../../service/entry-hash.js';
import type { LedgerTx } from '../../service/ports/ledger-store.js';

/**
 * Records sealed by one seal job at most. Above the records one group of writes usually adds (a
 * batch holds up to 10,000 entries, one record each), so that the chain keeps pace with sustained
 * bulk writing; a seal of a thousand fell behind a run of 5,000-entry batches without end. A seal
 * that is full asks for another.
 */
export const SEAL_BATCH = 20_000;

/** Chains records after the head: the seals to append, in order. */
export function sealsFor(records: readonly AuditRecord[], head: { position: number; hash: string } | undefined) {
  let position = head?.position ?? 0;
  let previous = head?.hash ?? GENESIS_HASH;
  return records.map((record) => {
    position += 1;
    const hash = auditRecordHash(record, previous);
    const seal = { position, occurred_at: record.occurred_at, id: record.id, previous_hash: previous, hash };
    previous = hash;
    return seal;
  });
}

/** How long a seal waits before trying again when another process was sealing. */
const BUSY_RETRY_MS = 20;

/**
 * Asks for a seal after each commit that wrote audit records; at most one seal job is queued at a
 * time, and a full batch asks for another. A seal that finds another process sealing does not
 * wait for it (the write queue would wait too): it is asked again a little later.
 */
export class AuditSealing {
  private queued = false;
  /** Asked again while a seal was queued or running: it may have missed the newest records. */
  private again = false;

  constructor(private readonly enqueueFirst: (work: (tx: LedgerTx) => Promise<number | undefined>) => Promise<number | undefined>) {}

  request(): void {
    if (this.queued) {
      this.again = true;
      return;
    }
    this.queued = true;
    this.enqueueFirst((tx) => tx.sealAuditRecords(SEAL_BATCH, { unlessBusy: true })).then((sealed) => {
      this.queued = false;
      if (sealed === undefined) {
        setTimeout(() => this.request(), BUSY_RETRY_MS).unref();
      } else if (sealed === SEAL_BATCH || this.again) {
        this.again = false;
        this.request();
      }
    }, () => {
      // A seal that fails (the store closing, a lost connection) is retried by the next commit.
      this.queued = false;
    });
  }
}
