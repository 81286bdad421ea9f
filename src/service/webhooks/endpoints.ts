/**
 * Webhook endpoints (permission webhooks:manage; docs/events.md, "Webhooks"): created with a
 * secret shown once, changed, re-enabled, rotated (the old secret keeps signing beside the new one
 * for 24 hours), replayed from a seq, deleted; their attempts listed. The management is audited
 * and is not itself an event. A new endpoint receives the events committed after it was created.
 */
import { fieldChanges, initialValues } from '../../domain/audit.js';
import { notFound } from '../../domain/errors.js';
import type {
  CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WebhookEndpointViewType,
} from '../../schemas/webhook.js';
import type { Actor } from '../actor.js';
import { recordAudit } from '../audit-log.js';
import type { Page, ServiceContext } from '../context.js';
import { parseSeq } from '../events.js';
import type { LedgerReads } from '../ports/ledger-store.js';
import type { WebhookDelivery, WebhookEndpoint } from '../ports/webhooks-store.js';
import type { Work } from '../use-case.js';
import { checkWebhookUrl } from './address-guard.js';
import { DEFAULT_RETRY_DELAYS_MS, type WebhookSettings } from './settings.js';
import { newWebhookSecret } from './signing.js';

/** How long the old secret signs beside the new one after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

const AUDITED_FIELDS = ['url', 'event_types', 'description', 'is_active'] as const;

export function webhookSettingsOf(ctx: ServiceContext): WebhookSettings {
  return ctx.options.webhooks ?? { allowPrivate: false, retryDelaysMs: DEFAULT_RETRY_DELAYS_MS };
}

export function endpointView(endpoint: WebhookEndpoint): WebhookEndpointViewType {
  return {
    id: endpoint.id, url: endpoint.url, description: endpoint.description, event_types: endpoint.event_types, is_active: endpoint.is_active,
    disabled_reason: endpoint.disabled_reason, last_seq: String(endpoint.cursor_seq),
    next_attempt_at: endpoint.is_active ? endpoint.next_attempt_at : null, created_at: endpoint.created_at, updated_at: endpoint.updated_at,
  };
}

async function findEndpoint(reads: LedgerReads, id: string): Promise<WebhookEndpoint> {
  const endpoint = await reads.getWebhookEndpoint(id);
  if (!endpoint) throw notFound('Webhook endpoint', id);
  return endpoint;
}

/** `["*"]` alone, or the listed types without repeats. */
function eventTypes(types: readonly string[]): string[] {
  return types.includes('*') ? ['*'] : [...new Set(types)];
}

export async function createWebhookEndpoint(ctx: ServiceContext, actor: Actor, input: CreateWebhookEndpointInput):
  Promise<Work<WebhookEndpointViewType & { secret: string }>> {
  const url = (await checkWebhookUrl(input.url, webhookSettingsOf(ctx))).href;
  return async (tx) => {
    const now = ctx.now();
    const endpoint: WebhookEndpoint = {
      id: ctx.runtime.newId(), url, description: input.description ?? null, event_types: eventTypes(input.event_types), is_active: true,
      disabled_reason: null, secret: newWebhookSecret(), previous_secret: null, previous_secret_expires_at: null,
      // The events committed after it: the last number now, read inside the write (which holds the numbers).
      cursor_seq: await tx.lastEventSeq(), failed_attempts: 0, next_attempt_at: now, created_at: now, updated_at: now,
    };
    await tx.insertWebhookEndpoint(endpoint);
    await recordAudit(ctx, tx, actor, {
      action: 'webhook_endpoint.create', target_type: 'webhook_endpoint', target_id: endpoint.id,
      changes: initialValues(endpoint, AUDITED_FIELDS),
    }, { occurredAt: now });
    return { ...endpointView(endpoint), secret: endpoint.secret };
  };
}

export async function listWebhookEndpoints(ctx: ServiceContext): Promise<Page<WebhookEndpointViewType>> {
  return { data: (await ctx.store.listWebhookEndpoints()).map(endpointView), has_more: false, next_cursor: null };
}

export async function getWebhookEndpoint(ctx: ServiceContext, id: string): Promise<WebhookEndpointViewType> {
  return endpointView(await findEndpoint(ctx.store, id));
}

export async function updateWebhookEndpoint(ctx: ServiceContext, actor: Actor, id: string, input: UpdateWebhookEndpointInput):
  Promise<Work<WebhookEndpointViewType>> {
  const url = input.url === undefined ? undefined : (await checkWebhookUrl(input.url, webhookSettingsOf(ctx))).href;
  return async (tx) => {
    const before = await findEndpoint(tx, id);
    const now = ctx.now();
    const enabling = input.is_active === true && !before.is_active;
    await tx.updateWebhookEndpoint(id, {
      url, event_types: input.event_types === undefined ? undefined : eventTypes(input.event_types),
      description: input.description, is_active: input.is_active, updated_at: now,
      // Re-enabled: it goes on where it stopped, with a fresh schedule, at once.
      ...(enabling ? { disabled_reason: null, failed_attempts: 0, next_attempt_at: now } : {}),
      ...(input.is_active === false ? { disabled_reason: null } : {}),
    });
    const after = (await tx.getWebhookEndpoint(id))!;
    await recordAudit(ctx, tx, actor, {
      action: 'webhook_endpoint.update', target_type: 'webhook_endpoint', target_id: id, changes: fieldChanges(before, after, AUDITED_FIELDS),
    });
    return endpointView(after);
  };
}

export function deleteWebhookEndpoint(ctx: ServiceContext, actor: Actor, id: string): Work<WebhookEndpointViewType> {
  return async (tx) => {
    const endpoint = await findEndpoint(tx, id);
    await tx.deleteWebhookEndpoint(id);
    await recordAudit(ctx, tx, actor, { action: 'webhook_endpoint.delete', target_type: 'webhook_endpoint', target_id: id });
    return endpointView(endpoint);
  };
}

/** A new secret, shown once; the old one signs beside it for 24 hours (receivers switch in their own time). */
export function rotateWebhookSecret(ctx: ServiceContext, actor: Actor, id: string): Work<WebhookEndpointViewType & { secret: string }> {
  return async (tx) => {
    const endpoint = await findEndpoint(tx, id);
    const now = ctx.runtime.clock.now();
    const secret = newWebhookSecret();
    await tx.updateWebhookEndpoint(id, {
      secret, previous_secret: endpoint.secret, previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      updated_at: now.toISOString(),
    });
    await recordAudit(ctx, tx, actor, { action: 'webhook_endpoint.rotate_secret', target_type: 'webhook_endpoint', target_id: id });
    return { ...endpointView((await tx.getWebhookEndpoint(id))!), secret };
  };
}

/** Delivers again every event after `after_seq` (the endpoint goes back there; later events follow in order). */
export function replayWebhookEndpoint(ctx: ServiceContext, actor: Actor, id: string, afterSeq: string): Work<WebhookEndpointViewType> {
  const after = parseSeq(afterSeq, 'after_seq');
  return async (tx) => {
    const endpoint = await findEndpoint(tx, id);
    const now = ctx.now();
    await tx.updateWebhookEndpoint(id, { cursor_seq: Math.min(after, await tx.lastEventSeq()), failed_attempts: 0, next_attempt_at: now, updated_at: now });
    await recordAudit(ctx, tx, actor, {
      action: 'webhook_endpoint.replay', target_type: 'webhook_endpoint', target_id: id,
      changes: { last_seq: { old: String(endpoint.cursor_seq), new: afterSeq } },
    });
    return endpointView((await tx.getWebhookEndpoint(id))!);
  };
}

export interface DeliveryView {
  event_seq: string;
  event_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  attempted_at: string;
  next_attempt_at: string | null;
}

function deliveryView(delivery: WebhookDelivery): DeliveryView {
  return {
    event_seq: String(delivery.event_seq), event_id: delivery.event_id, attempt: delivery.attempt, status_code: delivery.status_code,
    error: delivery.error, attempted_at: delivery.attempted_at, next_attempt_at: delivery.next_attempt_at,
  };
}

/** Every attempt, newest first; the cursor is the last attempt's place. */
export async function listWebhookDeliveries(ctx: ServiceContext, id: string, input: { limit?: number | undefined; cursor?: string | undefined }):
  Promise<Page<DeliveryView>> {
  await findEndpoint(ctx.store, id);
  const limit = Math.min(input.limit ?? 50, 200);
  const before = input.cursor === undefined ? undefined : parseSeq(input.cursor, 'cursor');
  const rows = await ctx.store.listWebhookDeliveries(id, before, limit + 1);
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  return { data: page.map(deliveryView), has_more: more, next_cursor: more ? String(page[page.length - 1]!.seq) : null };
}
