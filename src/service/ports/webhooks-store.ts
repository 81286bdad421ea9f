/**
 * Webhook endpoints and their delivery attempts (docs/events.md, "Webhooks"). An endpoint reads the
 * change feed (events-store.ts) from its own place, `cursor_seq`: the feed, written in each
 * change's own transaction, is the outbox. Which server delivers to an endpoint is decided by a
 * lease on its row, taken in a write (`claimDueWebhookEndpoints`), so each attempt is made by one
 * server; when the next attempt is due is a column of the row, so a restart loses no retry.
 */

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  /** Event types it receives; `["*"]` for all. */
  event_types: string[];
  is_active: boolean;
  /** Why it was disabled by the server (a 410, retries exhausted); null when active or switched off by a user. */
  disabled_reason: string | null;
  /** The signing secret, never shown after creation or rotation. */
  secret: string;
  /** After a rotation, the old secret, which signs beside the new one until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  /** The last event seq delivered or given up: the endpoint's next event is the first after it that it receives. */
  cursor_seq: number;
  /** Failed attempts at the event after the cursor (0: none yet). */
  failed_attempts: number;
  /** When the next attempt is due (ISO 8601 UTC). */
  next_attempt_at: string;
  created_at: string;
  updated_at: string;
}

export type WebhookEndpointChanges = Partial<Pick<WebhookEndpoint, 'url' | 'description' | 'event_types' | 'is_active' | 'disabled_reason'
  | 'secret' | 'previous_secret' | 'previous_secret_expires_at' | 'cursor_seq' | 'failed_attempts' | 'next_attempt_at' | 'updated_at'>>;

export interface WebhookDelivery {
  /** Its place in the endpoint's attempts, newest last. */
  seq: number;
  endpoint_id: string;
  event_seq: number;
  event_id: string;
  /** 1 for the first attempt at this event. */
  attempt: number;
  status_code: number | null;
  error: string | null;
  attempted_at: string;
  /** When the next attempt at this event is due; null after a success or when it was given up. */
  next_attempt_at: string | null;
}

export interface WebhooksReads {
  getWebhookEndpoint(id: string): Promise<WebhookEndpoint | undefined>;
  /** Every endpoint, oldest first (a ledger has a handful). */
  listWebhookEndpoints(): Promise<WebhookEndpoint[]>;
  /** The endpoint's attempts, newest first, before the attempt `before` (its seq) when given. */
  listWebhookDeliveries(endpointId: string, before: number | undefined, limit: number): Promise<WebhookDelivery[]>;
  /** True when some active endpoint has an attempt due at `now` and no live lease (the worker's cheap look). */
  anyWebhookDue(now: string): Promise<boolean>;
}

export interface WebhooksWrites {
  insertWebhookEndpoint(endpoint: WebhookEndpoint): Promise<void>;
  updateWebhookEndpoint(id: string, changes: WebhookEndpointChanges): Promise<void>;
  deleteWebhookEndpoint(id: string): Promise<void>;
  /**
   * Leases up to `limit` active endpoints whose attempt is due at `now` and whose lease is free or
   * expired, to `owner` until `leaseUntil`; answers them. Another server's claim in the meantime
   * finds them leased.
   */
  claimDueWebhookEndpoints(owner: string, now: string, leaseUntil: string, limit: number): Promise<WebhookEndpoint[]>;
  /** Gives the lease back (only if `owner` still holds it). */
  releaseWebhookEndpoint(id: string, owner: string): Promise<void>;
  /** Records attempts (one, or a delivery pass's batch of successes); their seqs follow the order given. */
  insertWebhookDeliveries(deliveries: readonly Omit<WebhookDelivery, 'seq'>[]): Promise<void>;
  /**
   * Applies `changes` to the endpoint only while `owner` holds its lease and the row is still as
   * the deliverer last saw it (`expected`: no user replayed, changed, rotated, disabled or deleted
   * it since); true when it did. A delivery's outcome moves an endpoint only through this, so it
   * never overwrites a user's change nor another server's progress.
   */
  updateLeasedWebhookEndpoint(id: string, owner: string, expected: WebhookEndpointVersion, changes: WebhookEndpointChanges): Promise<boolean>;
}

/** What tells one state of an endpoint's row from a later one: every change by a user sets `updated_at`. */
export type WebhookEndpointVersion = Pick<WebhookEndpoint, 'cursor_seq' | 'failed_attempts' | 'updated_at'>;
