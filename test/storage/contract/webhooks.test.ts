/**
 * Storage contract: webhook endpoints and their attempts (service/ports/webhooks-store.ts). A
 * delivery's outcome moves an endpoint only while its server holds the lease and the row is as it
 * last saw it (`updateLeasedWebhookEndpoint`), and a batch of attempts is recorded in the order
 * given (`insertWebhookDeliveries`).
 */
import { describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '../../../src/service/ports/webhooks-store.js';
import { FIXTURE_TIME } from './fixtures.js';
import { freshStorePerTest } from './support.js';

const LATER = '2026-01-01T00:00:01.000Z';
const LEASE_UNTIL = '2026-01-01T00:00:30.000Z';

function endpointFixture(id: string, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id, url: `https://example.com/${id}`, description: null, event_types: ['*'], is_active: true, disabled_reason: null,
    secret: 'whsec_c2VjcmV0', previous_secret: null, previous_secret_expires_at: null, cursor_seq: 10, failed_attempts: 0,
    next_attempt_at: FIXTURE_TIME, created_at: FIXTURE_TIME, updated_at: FIXTURE_TIME, ...overrides,
  };
}

function attemptFixture(endpointId: string, eventSeq: number, overrides: Partial<WebhookDelivery> = {}): Omit<WebhookDelivery, 'seq'> {
  return {
    endpoint_id: endpointId, event_seq: eventSeq, event_id: `event-${eventSeq}`, attempt: 1, status_code: 200, error: null,
    attempted_at: LATER, next_attempt_at: null, ...overrides,
  };
}

describe('storage contract: webhook endpoints', () => {
  const context = freshStorePerTest();

  /** Inserts an endpoint and leases it to `owner`; answers the row as claimed. */
  const leased = async (owner: string, endpoint = endpointFixture('hook-1')) => {
    await context.store.write((tx) => tx.insertWebhookEndpoint(endpoint));
    const claimed = await context.store.write((tx) => tx.claimDueWebhookEndpoints(owner, FIXTURE_TIME, LEASE_UNTIL, 10));
    expect(claimed.map((e) => e.id)).toEqual([endpoint.id]);
    return claimed[0]!;
  };
  const version = (endpoint: WebhookEndpoint) =>
    ({ cursor_seq: endpoint.cursor_seq, failed_attempts: endpoint.failed_attempts, updated_at: endpoint.updated_at });

  it('moves a leased endpoint that is as its holder saw it', async () => {
    const endpoint = await leased('server-a');
    const moved = await context.store.write((tx) => tx.updateLeasedWebhookEndpoint(endpoint.id, 'server-a', version(endpoint),
      { cursor_seq: 15, failed_attempts: 0, next_attempt_at: LATER }));
    expect(moved).toBe(true);
    expect(await context.store.getWebhookEndpoint(endpoint.id)).toEqual({ ...endpoint, cursor_seq: 15, next_attempt_at: LATER });
  });

  it('leaves the endpoint alone when another server holds the lease, or none does', async () => {
    const endpoint = await leased('server-a');
    const move = (owner: string) => context.store.write((tx) => tx.updateLeasedWebhookEndpoint(endpoint.id, owner, version(endpoint),
      { cursor_seq: 15 }));
    expect(await move('server-b')).toBe(false);
    await context.store.write((tx) => tx.releaseWebhookEndpoint(endpoint.id, 'server-a'));
    expect(await move('server-a')).toBe(false);
    expect((await context.store.getWebhookEndpoint(endpoint.id))!.cursor_seq).toBe(10);
  });

  it('leaves the endpoint alone when a user changed it since (a replay, a failure count, any update)', async () => {
    const endpoint = await leased('server-a');
    const cases = [{ cursor_seq: 3 }, { failed_attempts: 2 }, { updated_at: LATER }];
    for (const change of cases) {
      await context.store.write((tx) => tx.updateWebhookEndpoint(endpoint.id, { ...version(endpoint), ...change }));
      const moved = await context.store.write((tx) => tx.updateLeasedWebhookEndpoint(endpoint.id, 'server-a', version(endpoint),
        { cursor_seq: 15 }));
      expect({ change, moved }).toEqual({ change, moved: false });
      expect((await context.store.getWebhookEndpoint(endpoint.id))!.cursor_seq).toBe(change.cursor_seq ?? 10);
      await context.store.write((tx) => tx.updateWebhookEndpoint(endpoint.id, version(endpoint)));
    }
  });

  it('answers false for an endpoint that is gone', async () => {
    const endpoint = await leased('server-a');
    await context.store.write((tx) => tx.deleteWebhookEndpoint(endpoint.id));
    expect(await context.store.write((tx) => tx.updateLeasedWebhookEndpoint(endpoint.id, 'server-a', version(endpoint), { cursor_seq: 15 })))
      .toBe(false);
  });

  it('records a batch of attempts in the order given, every field kept', async () => {
    const endpoint = await leased('server-a');
    const batch = [
      attemptFixture(endpoint.id, 11),
      attemptFixture(endpoint.id, 12, { attempt: 2, status_code: null, error: 'connect ECONNREFUSED', next_attempt_at: LEASE_UNTIL }),
      attemptFixture(endpoint.id, 12, { attempt: 3, status_code: 204 }),
    ];
    await context.store.write((tx) => tx.insertWebhookDeliveries(batch));
    await context.store.write((tx) => tx.insertWebhookDeliveries([]));
    const listed = await context.store.listWebhookDeliveries(endpoint.id, undefined, 10);
    expect(listed.map(({ seq: _seq, ...rest }) => rest)).toEqual([...batch].reverse());
    expect(listed.map((d) => d.seq)).toEqual([...listed.map((d) => d.seq)].sort((a, b) => b - a));
  });
});
