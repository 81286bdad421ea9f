/**
 * What the webhooks pages compute without the network: the event types an endpoint can choose
 * from (docs/events.md, "Types"), how an attempt's outcome reads, and the delivery log that grows
 * both ways (new attempts on top while the page is open, older pages below on "Load more").
 */
import type { Page, WebhookDeliveryView } from '../api/types.js';

/**
 * The types of the change feed, grouped as docs/events.md lists them. The server accepts any type
 * of the right shape, so an endpoint may hold one this list lacks: the form keeps it, checked.
 */
export const EVENT_TYPE_GROUPS: readonly { label: string; types: readonly string[] }[] = [
  { label: 'Entries', types: ['entry.posted'] },
  { label: 'Currencies and rates', types: ['currency.created', 'currency.updated', 'exchange_rate.set'] },
  { label: 'Accounts', types: ['account.created', 'account.updated', 'account.deleted'] },
  { label: 'Periods', types: ['period.created', 'period.deleted', 'period.closed'] },
  { label: 'Settings and users', types: ['settings.updated', 'user.created', 'user.updated', 'user.api_key_rotated'] },
  { label: 'Bank', types: ['bank_statement.imported', 'bank_line.updated', 'bank_rule.created', 'bank_rule.updated', 'bank_rule.deleted'] },
  { label: 'Reconciliations', types: ['reconciliation.created', 'reconciliation.updated', 'reconciliation.finished'] },
  { label: 'Webhooks', types: ['webhook_endpoint.disabled'] },
];

export const ALL_EVENTS = '*';

export function receivesAll(eventTypes: readonly string[]): boolean {
  return eventTypes.includes(ALL_EVENTS);
}

/** "All events", or the types in a sentence's order ("entry.posted, account.created"). */
export function describeEventTypes(eventTypes: readonly string[]): string {
  return receivesAll(eventTypes) ? 'All events' : eventTypes.join(', ');
}

/** How an attempt ended, for a badge: a 2xx succeeded; any other status or an error failed. */
export function deliveryOutcome(delivery: Pick<WebhookDeliveryView, 'status_code' | 'error'>): { ok: boolean; text: string } {
  if (delivery.status_code !== null && delivery.status_code >= 200 && delivery.status_code < 300) {
    return { ok: true, text: String(delivery.status_code) };
  }
  if (delivery.status_code !== null) return { ok: false, text: delivery.error ? `${delivery.status_code}: ${delivery.error}` : String(delivery.status_code) };
  return { ok: false, text: delivery.error ?? 'failed' };
}

/**
 * When the next attempt is due, if it is still to come: after a failure, the retry's time. An
 * endpoint that is up to date is "due" at its last attempt's time, which says nothing to a reader.
 */
export function upcomingAttempt(nextAttemptAt: string | null, nowMs: number): string | null {
  return nextAttemptAt !== null && Date.parse(nextAttemptAt) > nowMs ? nextAttemptAt : null;
}

/** An attempt has no id on the wire; its event, its number and its time tell it apart (a replay's attempt 1 has another time). */
export function deliveryKey(delivery: WebhookDeliveryView): string {
  return `${delivery.event_seq}:${delivery.attempt}:${delivery.attempted_at}`;
}

export interface DeliveryLog {
  rows: WebhookDeliveryView[];
  /** Where "Load more" goes on from, or null when the oldest attempt is shown. */
  nextCursor: string | null;
  /** True once an older page was loaded: from then on the cursor is that page's, not the newest page's. */
  extended: boolean;
}

export const EMPTY_LOG: DeliveryLog = { rows: [], nextCursor: null, extended: false };

/** Newest first, as the API lists them. */
function newestFirst(left: WebhookDeliveryView, right: WebhookDeliveryView): number {
  if (left.attempted_at !== right.attempted_at) return left.attempted_at < right.attempted_at ? 1 : -1;
  const bySeq = Number(right.event_seq) - Number(left.event_seq);
  return bySeq !== 0 ? bySeq : right.attempt - left.attempt;
}

function merge(rows: readonly WebhookDeliveryView[], more: readonly WebhookDeliveryView[]): WebhookDeliveryView[] {
  const byKey = new Map(rows.map((row) => [deliveryKey(row), row]));
  for (const row of more) byKey.set(deliveryKey(row), row);
  return [...byKey.values()].sort(newestFirst);
}

/**
 * The newest page, fetched again: its attempts join the log (none is lost when new ones push older
 * ones off that page). Until an older page was loaded, "Load more" follows the newest page's cursor.
 */
export function withNewestPage(log: DeliveryLog, page: Page<WebhookDeliveryView>): DeliveryLog {
  return {
    rows: merge(log.rows, page.data),
    nextCursor: log.extended ? log.nextCursor : (page.has_more ? page.next_cursor : null),
    extended: log.extended,
  };
}

/** An older page, from "Load more". */
export function withOlderPage(log: DeliveryLog, page: Page<WebhookDeliveryView>): DeliveryLog {
  return { rows: merge(log.rows, page.data), nextCursor: page.has_more ? page.next_cursor : null, extended: true };
}
