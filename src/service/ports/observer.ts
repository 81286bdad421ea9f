/**
 * What the core reports as it works, for the operator's metrics (app/metrics.ts turns it into
 * Prometheus series). Every method is cheap and synchronous: it is called on the write path.
 */
export interface LedgerObserver {
  /** A group of the write queue committed: how many jobs it held and how long it took, BEGIN to COMMIT. */
  groupCommitted(jobs: number, seconds: number): void;
  /** Entries committed by a post, a batch, an import or a reversal. */
  entriesPosted(count: number): void;
  /** A post, batch, import or reversal refused, by its error code. */
  entriesRefused(code: string): void;
  /** A webhook delivery attempt ended: delivered (a 2xx) or not. */
  webhookAttempted(delivered: boolean): void;
  /** A request got a connection of the pool (PostgreSQL) after waiting this long. */
  connectionAcquired(seconds: number): void;
}

/** Reports nothing: the default when no metrics are kept (the CLI, the tests). */
export const SILENT_OBSERVER: LedgerObserver = {
  groupCommitted() {},
  entriesPosted() {},
  entriesRefused() {},
  webhookAttempted() {},
  connectionAcquired() {},
};

/** A store's connections to its database, for the pool gauges; SQLite has none to report. */
export interface ConnectionPoolUse {
  /** Open connections, busy or idle. */
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
  /** The most the pool opens. */
  max: number;
}
