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
 *
 * What makes it keep up with posting (measured with `npm run bench -- --only posting --webhooks 3`;
 * docs/events.md, "Operating it"):
 * - A pass over a leased endpoint reads its next events a page at a time (PAGE_SIZE) and builds
 *   their views in one go, instead of one read per event.
 * - Connections are kept alive (delivery-agents.ts), each agent bound to one approved address.
 * - Successes are recorded in batches: after a 2xx the attempt is kept in memory, and the kept
 *   attempts and the cursor are written in one transaction once FLUSH_SUCCESSES have piled up or
 *   the oldest is FLUSH_MS old, and always before a failure is recorded, before the lease is given
 *   back and when the deliverer stops. The cursor therefore never passes an event not answered
 *   with a 2xx; a crash before the write delivers that batch again (at least once: receivers drop
 *   repeats by `webhook-id`).
 * - Posting first: before each attempt a pass waits until this process's write queue has nothing
 *   queued or running (LedgerStore.writesIdle), YIELD_MS at most. Under a saturating load each
 *   endpoint gets an attempt at least every YIELD_MS, and more when the queue is found empty
 *   between two groups (in the posting benchmark about 12 a second per endpoint, with a bound of
 *   100 ms or of 2 s alike), so delivery costs posting little and falls behind; once the load
 *   eases it runs in the gaps at full speed and catches up. Under a load that does not saturate
 *   the server it delivered as much as without the yielding (docs/benchmarks.md, "Issue 26's goal").
 * - Every outcome moves the endpoint only if this server still holds the lease and the row is as
 *   the pass last saw it (`updateLeasedWebhookEndpoint`). When a user changed it meanwhile
 *   (replayed, changed, rotated, disabled, deleted) the attempts are recorded (unless it was
 *   deleted), the cursor stays where the user's change left it, and the pass ends; the next look
 *   starts again from the stored row. A batch delivered just before a user's change may therefore
 *   be delivered again: at least once, never lost, and a replay is never overwritten.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { recordAudit } from '../audit-log.js';
import type { ServiceContext } from '../context.js';
import { type EventView, eventViews } from '../events.js';
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointVersion } from '../ports/webhooks-store.js';
import { resolveDeliveryAddress } from './address-guard.js';
import { DeliveryAgents } from './delivery-agents.js';
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
/** Events read from the feed at once for one endpoint. */
const PAGE_SIZE = 100;
/**
 * Successes kept in memory at most before they are recorded with the cursor in one write, and how
 * long the oldest of them waits at most (also while a later attempt waits for its answer). A crash
 * delivers at most this many events again.
 */
const FLUSH_SUCCESSES = 50;
const FLUSH_MS = 250;
/**
 * Before each attempt delivery waits until this process's write queue is empty, this long at
 * most: while requests keep the queue full, each endpoint still gets an attempt this often.
 */
const YIELD_MS = 100;

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

type Attempt = Omit<WebhookDelivery, 'seq'>;

/** One leased endpoint being delivered to, from its claim until its lease is given back. */
interface Pass {
  /** The row as this pass last wrote or read it: an outcome moves the endpoint only from this version. */
  endpoint: WebhookEndpoint;
  /** The last event delivered in this pass (recorded or not): the next page starts after it. */
  cursor: number;
  /** Successes not yet recorded, oldest first, and when the oldest was answered (Date.now()). */
  successes: Attempt[];
  oldestSuccessAt: number;
  /** A user changed or deleted the row, or the lease was lost: the pass ends. */
  over: boolean;
  /** The row is gone (deleted): nothing more is written for it. */
  deleted: boolean;
}

export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private lastWarning = '';
  private lastWarningAtMs = 0;
  private readonly send: Sender;
  private readonly agents = new DeliveryAgents();

  constructor(private readonly ctx: ServiceContext, private readonly options: DelivererOptions) {
    this.send = options.send ?? ((url, body, headers) => postOnce(ctx, this.agents, url, body, headers));
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
    this.agents.destroy();
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
    const pass: Pass = { endpoint: claimed, cursor: claimed.cursor_seq, successes: [], oldestSuccessAt: 0, over: false, deleted: false };
    // Within a third of the lease: past it the endpoint is given back and taken again at the next
    // look, so no other server can find the lease expired while this one still delivers.
    const until = Date.now() + LEASE_MS / 3;
    try {
      while (!pass.over && !this.stopped && Date.now() < until) {
        const types = pass.endpoint.event_types.includes('*') ? undefined : pass.endpoint.event_types;
        const page = await store.listEvents(pass.cursor, types, PAGE_SIZE);
        if (page.length === 0) return;
        for (const event of await eventViews(this.ctx, page)) {
          // Posting first: delivery takes the turns the writes leave (the file's header).
          await store.writesIdle(YIELD_MS);
          if (pass.over || this.stopped || Date.now() >= until) return;
          if (!(await this.attempt(pass, event))) return;
        }
      }
    } finally {
      // The successes before the lease is given back: the next holder starts after them.
      await this.recordSuccesses(pass);
      if (!pass.deleted) await store.write((tx) => tx.releaseWebhookEndpoint(claimed.id, this.options.owner));
    }
  }

  /** One attempt at `event`; true when it succeeded (the next event may follow). */
  private async attempt(pass: Pass, event: EventView): Promise<boolean> {
    const { endpoint } = pass;
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
    const result = await this.answerOf(pass, this.send(new URL(endpoint.url), body, headers));
    const ok = result.status_code !== null && result.status_code >= 200 && result.status_code < 300;
    this.ctx.observer.webhookAttempted(ok);
    // The stored failures count for the event after the stored cursor only; once this pass has
    // delivered past it (not yet recorded), the event is a first attempt.
    const attempt = pass.cursor === endpoint.cursor_seq ? endpoint.failed_attempts + 1 : 1;
    const attemptedAt = this.ctx.now();
    const record: Attempt = {
      endpoint_id: endpoint.id, event_seq: Number(event.seq), event_id: event.id, attempt, status_code: result.status_code,
      error: result.error, attempted_at: attemptedAt, next_attempt_at: null,
    };
    if (ok) {
      // Kept, and recorded with the cursor in the next batch (the file's header).
      if (pass.successes.length === 0) pass.oldestSuccessAt = Date.now();
      pass.successes.push(record);
      pass.cursor = record.event_seq;
      if (pass.successes.length >= FLUSH_SUCCESSES || Date.now() - pass.oldestSuccessAt >= FLUSH_MS) await this.recordSuccesses(pass);
      return !pass.over;
    }
    // The successes before it first, so that the attempts are recorded in the order they were made.
    await this.recordSuccesses(pass);
    const delays = webhookSettingsOf(this.ctx).retryDelaysMs;
    const gone = result.status_code === 410;
    const exhausted = gone || attempt > delays.length;
    const nextAt = exhausted ? null : new Date(Date.parse(attemptedAt) + delays[attempt - 1]!).toISOString();
    await this.ctx.store.write(async (tx) => {
      const expected = versionOf(pass.endpoint);
      let moved: boolean;
      if (!exhausted) {
        moved = await tx.updateLeasedWebhookEndpoint(endpoint.id, this.options.owner, expected, { failed_attempts: attempt, next_attempt_at: nextAt! });
      } else {
        // Disabled with its cursor where it is: re-enabled, it tries this event again, so nothing is lost.
        const reason = gone ? `The receiver answered 410 Gone to event ${event.seq}`
          : `Event ${event.seq} failed ${attempt} attempts (${result.error ?? `HTTP ${String(result.status_code)}`})`;
        moved = await tx.updateLeasedWebhookEndpoint(endpoint.id, this.options.owner, expected,
          { is_active: false, disabled_reason: reason, failed_attempts: attempt, updated_at: attemptedAt });
        if (moved) {
          const disabled = (await tx.getWebhookEndpoint(endpoint.id))!;
          await recordAudit(this.ctx, tx, null, {
            action: 'webhook_endpoint.disable', target_type: 'webhook_endpoint', target_id: endpoint.id,
            changes: { is_active: { old: true, new: false } },
          }, { occurredAt: attemptedAt });
          await tx.insertEvent({
            id: this.ctx.runtime.newId(), type: 'webhook_endpoint.disabled', occurred_at: attemptedAt, actor_id: null, request_id: null,
            data: JSON.stringify(endpointView(disabled)),
          });
        }
      }
      // A user's change meanwhile wins (the file's header): the attempt is still recorded, unless the endpoint is gone.
      if (moved || (await tx.getWebhookEndpoint(endpoint.id)) !== undefined) await tx.insertWebhookDeliveries([{ ...record, next_attempt_at: nextAt }]);
    });
    return false;
  }

  /**
   * The answer to the attempt `sending`. While it is awaited, the successes before it are recorded
   * once they are due, so that a slow receiver does not hold back their record.
   */
  private async answerOf(pass: Pass, sending: Promise<AttemptResult>): Promise<AttemptResult> {
    if (pass.successes.length === 0) return sending;
    let timer: NodeJS.Timeout | undefined;
    const due = new Promise<'due'>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, FLUSH_MS - (Date.now() - pass.oldestSuccessAt)), 'due');
    });
    const first = await Promise.race([sending, due]);
    clearTimeout(timer);
    if (first !== 'due') return first;
    await this.recordSuccesses(pass);
    return sending;
  }

  /**
   * Writes the kept successes and moves the cursor past them, in one transaction, if this server
   * still holds the lease and the row is as the pass saw it; otherwise records the attempts only
   * (unless the endpoint is gone) and ends the pass.
   */
  private async recordSuccesses(pass: Pass): Promise<void> {
    if (pass.successes.length === 0) return;
    const successes = pass.successes;
    pass.successes = [];
    const last = successes[successes.length - 1]!;
    const changes = { cursor_seq: last.event_seq, failed_attempts: 0, next_attempt_at: last.attempted_at };
    const { endpoint } = pass;
    await this.ctx.store.write(async (tx) => {
      const moved = await tx.updateLeasedWebhookEndpoint(endpoint.id, this.options.owner, versionOf(endpoint), changes);
      if (moved) {
        pass.endpoint = { ...endpoint, ...changes };
      } else {
        pass.over = true;
        pass.deleted = (await tx.getWebhookEndpoint(endpoint.id)) === undefined;
        if (pass.deleted) return;
      }
      await tx.insertWebhookDeliveries(successes);
    });
  }
}

function versionOf(endpoint: WebhookEndpoint): WebhookEndpointVersion {
  return { cursor_seq: endpoint.cursor_seq, failed_attempts: endpoint.failed_attempts, updated_at: endpoint.updated_at };
}

/**
 * One POST to the address approved just before (no second lookup), over a kept-alive connection
 * to that very address (delivery-agents.ts), answered within the timeout; a redirect is an answer
 * like any other 3xx (a failed attempt), never followed.
 */
async function postOnce(ctx: ServiceContext, agents: DeliveryAgents, url: URL, body: string, headers: Record<string, string>): Promise<AttemptResult> {
  let target: { address: string; family: 4 | 6 };
  try {
    target = await resolveDeliveryAddress(url, webhookSettingsOf(ctx));
  } catch (error) {
    return { status_code: null, error: error instanceof Error ? error.message : String(error) };
  }
  const agent = agents.agentFor(url, target);
  const first = await postTo(url, target, body, headers, agent);
  // A kept-alive connection the receiver closed while it was idle fails before any answer; the
  // request never reached the receiver's code, so it is sent again once on a new connection, as
  // part of the same attempt (Node's documentation of `request.reusedSocket` advises this).
  if (first.staleConnection) return (await postTo(url, target, body, headers, false)).result;
  return first.result;
}

function postTo(url: URL, target: { address: string; family: 4 | 6 }, body: string, headers: Record<string, string>,
  agent: import('node:http').Agent | false): Promise<{ result: AttemptResult; staleConnection: boolean }> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    const settle = (result: AttemptResult, staleConnection = false) => {
      if (settled) return;
      settled = true;
      resolve({ result, staleConnection });
    };
    const request = send(url, {
      method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup, timeout: TIMEOUT_MS,
      servername: url.hostname, agent,
    }, (response) => {
      answered = true;
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
    // Destroying the request destroys its connection: a hung one is never given back to the agent.
    const deadline = setTimeout(() => {
      request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`));
    }, TIMEOUT_MS);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const stale = agent !== false && request.reusedSocket && !answered && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      settle({ status_code: null, error: error.message }, stale);
    });
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
