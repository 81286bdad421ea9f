/**
 * Webhook delivery (docs/events.md, "Webhooks"): beside the write path, every `ledger serve`
 * process looks for endpoints with an attempt due, leases them in a write (so one server attempts
 * each delivery), and delivers each endpoint's events in seq order from its cursor: a later event
 * waits until the earlier one succeeded. A success moves the cursor; a failure records when the
 * next attempt is due (a column, so a crash or restart loses no retry); a 410 Gone or the last
 * attempt failing disables the endpoint and says so as an event. Every attempt is recorded.
 *
 * Delivery follows the Standard Webhooks specification (signing.ts): the event JSON, signed with
 * the endpoint's secret (and during a rotation the previous one too), `webhook-id` the event's id
 * on every retry. Requests go only to the address approved right before (address-guard.ts), with a
 * timeout, no redirects, and at most 64 KiB of the answer read.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { recordAudit } from '../audit-log.js';
import type { ServiceContext } from '../context.js';
import { type EventView, eventViews } from '../events.js';
import type { WebhookEndpoint } from '../ports/webhooks-store.js';
import { resolveDeliveryAddress } from './address-guard.js';
import { endpointView, webhookSettingsOf } from './endpoints.js';
import { signWebhook } from './signing.js';

/** Any answer within this long is the receiver's; later is a failed attempt (the contract: 15 s). */
const TIMEOUT_MS = 15_000;
/** What is read of an answer at most. */
const MAX_ANSWER_BYTES = 64 * 1024;
/**
 * A lease lasts this long. A server delivers to a leased endpoint for at most a third of it, and
 * the attempt under way then ends within its timeout, before the lease does; a server that died
 * holding a lease holds up its endpoint's deliveries at most this long.
 */
const LEASE_MS = 30_000;
/** How often the same failure of a look is said again while it lasts. */
const WARNING_EVERY_MS = 60_000;
/** Endpoints one server takes at once. */
const CLAIM_LIMIT = 16;

export interface AttemptResult {
  status_code: number | null;
  error: string | null;
}

/** Sends one delivery; the default posts over HTTP(S). */
export type Sender = (url: URL, body: string, headers: Record<string, string>) => Promise<AttemptResult>;

export interface DelivererOptions {
  /** This process's name in leases. */
  owner: string;
  /** How often to look for due endpoints. */
  pollMs?: number;
  send?: Sender;
}

export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private lastWarning = '';
  private lastWarningAtMs = 0;
  private readonly send: Sender;

  constructor(private readonly ctx: ServiceContext, private readonly options: DelivererOptions) {
    this.send = options.send ?? ((url, body, headers) => postOnce(ctx, url, body, headers));
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Stops looking; resolves once the attempts under way have ended (their outcome recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().catch((error: unknown) => {
        // The database is away, say: the next look tries again; nothing is lost (the cursor did not
        // move). Said once a minute, not four times a second, while it lasts.
        const message = `webhook delivery: ${error instanceof Error ? error.message : String(error)}`;
        const nowMs = Date.now();
        if (message !== this.lastWarning || nowMs - this.lastWarningAtMs > WARNING_EVERY_MS) {
          process.emitWarning(message);
          this.lastWarning = message;
          this.lastWarningAtMs = nowMs;
        }
      }).finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, this.options.pollMs ?? 250);
    this.timer.unref();
  }

  /** One look: lease the due endpoints and deliver to each until it is up to date or fails. */
  async tick(): Promise<void> {
    const { store } = this.ctx;
    const now = this.ctx.runtime.clock.now();
    if (!(await store.anyWebhookDue(now.toISOString()))) return;
    const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
    const claimed = await store.write((tx) => tx.claimDueWebhookEndpoints(this.options.owner, now.toISOString(), leaseUntil, CLAIM_LIMIT));
    await Promise.all(claimed.map((endpoint) => this.deliverAll(endpoint)));
  }

  private async deliverAll(claimed: WebhookEndpoint): Promise<void> {
    const { store } = this.ctx;
    let endpoint: WebhookEndpoint | undefined = claimed;
    // Within a third of the lease: past it the endpoint is given back and taken again at the next
    // look, so no other server can find the lease expired while this one still delivers.
    const until = Date.now() + LEASE_MS / 3;
    try {
      while (endpoint !== undefined && endpoint.is_active && !this.stopped && Date.now() < until) {
        const types = endpoint.event_types.includes('*') ? undefined : endpoint.event_types;
        const [next] = await store.listEvents(endpoint.cursor_seq, types, 1);
        if (next === undefined) return;
        const [event] = await eventViews(this.ctx, [next]);
        if (!(await this.attempt(endpoint, event!))) return;
        endpoint = await store.getWebhookEndpoint(endpoint.id);
      }
    } finally {
      if (endpoint !== undefined) await store.write((tx) => tx.releaseWebhookEndpoint(claimed.id, this.options.owner));
    }
  }

  /** One attempt at `event`; true when it succeeded (the next event may follow). */
  private async attempt(endpoint: WebhookEndpoint, event: EventView): Promise<boolean> {
    const now = this.ctx.runtime.clock.now();
    const body = JSON.stringify(event);
    const secrets = [endpoint.secret];
    if (endpoint.previous_secret !== null && endpoint.previous_secret_expires_at !== null
      && endpoint.previous_secret_expires_at > now.toISOString()) secrets.push(endpoint.previous_secret);
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = {
      'content-type': 'application/json', 'user-agent': 'ledger-webhooks', 'webhook-id': event.id, 'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secrets, event.id, timestamp, body),
    };
    const result = await this.send(new URL(endpoint.url), body, headers);
    const ok = result.status_code !== null && result.status_code >= 200 && result.status_code < 300;
    this.ctx.observer.webhookAttempted(ok);
    const attempt = endpoint.failed_attempts + 1;
    const attemptedAt = this.ctx.now();
    const delays = webhookSettingsOf(this.ctx).retryDelaysMs;
    const gone = result.status_code === 410;
    const exhausted = !ok && (gone || attempt > delays.length);
    const nextAt = ok ? attemptedAt : exhausted ? null : new Date(Date.parse(attemptedAt) + delays[attempt - 1]!).toISOString();
    await this.ctx.store.write(async (tx) => {
      await tx.insertWebhookDelivery({
        endpoint_id: endpoint.id, event_seq: Number(event.seq), event_id: event.id, attempt, status_code: result.status_code,
        error: result.error, attempted_at: attemptedAt, next_attempt_at: ok ? null : nextAt,
      });
      const current = await tx.getWebhookEndpoint(endpoint.id);
      if (current === undefined) return;
      if (ok) {
        await tx.updateWebhookEndpoint(endpoint.id, { cursor_seq: Number(event.seq), failed_attempts: 0, next_attempt_at: attemptedAt });
      } else if (!exhausted) {
        await tx.updateWebhookEndpoint(endpoint.id, { failed_attempts: attempt, next_attempt_at: nextAt! });
      } else {
        // Disabled with its cursor where it is: re-enabled, it tries this event again, so nothing is lost.
        const reason = gone ? `The receiver answered 410 Gone to event ${event.seq}`
          : `Event ${event.seq} failed ${attempt} attempts (${result.error ?? `HTTP ${String(result.status_code)}`})`;
        await tx.updateWebhookEndpoint(endpoint.id, { is_active: false, disabled_reason: reason, failed_attempts: attempt, updated_at: attemptedAt });
        const disabled = (await tx.getWebhookEndpoint(endpoint.id))!;
        await recordAudit(this.ctx, tx, null, {
          action: 'webhook_endpoint.disable', target_type: 'webhook_endpoint', target_id: endpoint.id,
          changes: { is_active: { old: true, new: false } },
        }, { occurredAt: attemptedAt });
        await tx.insertEvent({
          id: this.ctx.runtime.newId(), type: 'webhook_endpoint.disabled', occurred_at: attemptedAt, actor_id: null, request_id: null,
          data: JSON.stringify({ ...endpointView(disabled) }),
        });
      }
    });
    return ok;
  }
}

/**
 * One POST to the address approved just before (no second lookup), answered within the timeout;
 * a redirect is an answer like any other 3xx (a failed attempt), never followed.
 */
async function postOnce(ctx: ServiceContext, url: URL, body: string, headers: Record<string, string>): Promise<AttemptResult> {
  let target: { address: string; family: 4 | 6 };
  try {
    target = await resolveDeliveryAddress(url, webhookSettingsOf(ctx));
  } catch (error) {
    return { status_code: null, error: error instanceof Error ? error.message : String(error) };
  }
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const settle = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const request = send(url, {
      method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup, timeout: TIMEOUT_MS,
      servername: url.hostname, agent: false,
    }, (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      const done = () => settle({ status_code: response.statusCode ?? null, error: null });
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    const deadline = setTimeout(() => {
      request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`));
    }, TIMEOUT_MS);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on('error', (error) => settle({ status_code: null, error: error.message }));
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
