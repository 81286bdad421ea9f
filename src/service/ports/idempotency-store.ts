/**
 * The storage port's idempotency concern: a principal's keys and the answers kept under them.
 * Composed into LedgerReads and LedgerWrites (ledger-store.ts).
 */

export interface IdempotencyRecord {
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: string;
}

export interface IdempotencyReads {
  getIdempotencyRecord(principalId: string, key: string): Promise<IdempotencyRecord | undefined>;
}

export interface IdempotencyWrites {
  /**
   * Holds the principal's key until this transaction ends, so that no other process acts under it
   * meanwhile; false when another open transaction holds it (a request in flight elsewhere). A
   * process that dies lets go of it with its transaction.
   */
  lockIdempotencyKey(principalId: string, key: string): Promise<boolean>;
  /** Reserves an idempotency key; false when the key already exists for the principal. */
  reserveIdempotencyKey(principalId: string, key: string, requestHash: string, createdAt: string): Promise<boolean>;
  completeIdempotencyKey(principalId: string, key: string, statusCode: number, responseBody: string): Promise<void>;
  /** Forgets the principal's key, its answer too (its request failed after all). */
  releaseIdempotencyKey(principalId: string, key: string): Promise<void>;
  deleteIdempotencyKeysBefore(createdBefore: string): Promise<void>;
}
