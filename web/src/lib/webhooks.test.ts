import { describe, expect, it } from 'vitest';
import type { WebhookDeliveryView } from '../api/types.js';
import { deliveryOutcome, describeEventTypes, EMPTY_LOG, withNewestPage, withOlderPage } from './webhooks.js';

const attempt = (seq: number, number: number, second: number, status: number | null = 200): WebhookDeliveryView => ({
  event_seq: String(seq), event_id: `event-${seq}`, attempt: number, status_code: status, error: status === null ? 'connection refused' : null,
  attempted_at: `2026-11-28T10:00:${String(second).padStart(2, '0')}.000Z`, next_attempt_at: null,
});
const page = (data: WebhookDeliveryView[], nextCursor: string | null) => ({ data, has_more: nextCursor !== null, next_cursor: nextCursor });
const seqs = (rows: WebhookDeliveryView[]) => rows.map((row) => `${row.event_seq}/${row.attempt}`);

describe('the delivery log of an endpoint', () => {
  it('keeps attempts that new ones pushed off the newest page, newest first, without repeats', () => {
    const first = withNewestPage(EMPTY_LOG, page([attempt(3, 1, 3), attempt(2, 1, 2)], 'c2'));
    const again = withNewestPage(first, page([attempt(5, 1, 5), attempt(4, 1, 4)], 'c4'));
    expect(seqs(again.rows)).toEqual(['5/1', '4/1', '3/1', '2/1']);
    // Until an older page is loaded, "Load more" goes on from the newest page's end (repeats are dropped).
    expect(again.nextCursor).toBe('c4');
  });

  it('goes on from the older page once one was loaded, and stops at the oldest attempt', () => {
    const first = withNewestPage(EMPTY_LOG, page([attempt(3, 2, 9, 200), attempt(3, 1, 4, 500)], 'c3'));
    const older = withOlderPage(first, page([attempt(2, 1, 2)], null));
    expect(seqs(older.rows)).toEqual(['3/2', '3/1', '2/1']);
    expect(older.nextCursor).toBeNull();
    const refreshed = withNewestPage(older, page([attempt(4, 1, 20), attempt(3, 2, 9)], 'c9'));
    expect(seqs(refreshed.rows)).toEqual(['4/1', '3/2', '3/1', '2/1']);
    expect(refreshed.nextCursor).toBeNull();
  });

  it('tells a replayed attempt 1 from the first one by its time', () => {
    const log = withNewestPage(EMPTY_LOG, page([attempt(2, 1, 30), attempt(2, 1, 2)], null));
    expect(log.rows).toHaveLength(2);
  });
});

describe('an attempt\'s outcome', () => {
  it('is a success for a 2xx only', () => {
    expect(deliveryOutcome({ status_code: 204, error: null })).toEqual({ ok: true, text: '204' });
    expect(deliveryOutcome({ status_code: 410, error: null })).toEqual({ ok: false, text: '410' });
    expect(deliveryOutcome({ status_code: 302, error: 'redirects are not followed' })).toEqual({ ok: false, text: '302: redirects are not followed' });
    expect(deliveryOutcome({ status_code: null, error: 'connection refused' })).toEqual({ ok: false, text: 'connection refused' });
  });
});

describe('event types in words', () => {
  it('says all events for the wildcard and lists the others', () => {
    expect(describeEventTypes(['*'])).toBe('All events');
    expect(describeEventTypes(['entry.posted', 'account.created'])).toBe('entry.posted, account.created');
  });
});
