/**
 * `ledger webhooks ...` on a SQLite file (the real program): an endpoint's whole life from the
 * command line, the secret printed only when made, and the refusal of a private address unless
 * LEDGER_WEBHOOK_ALLOW_PRIVATE=true. Delivery itself is `ledger serve`'s (test/api/webhooks.test.ts).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledger, ledgerJson, seedBooks, tempFolder } from '../helpers/cli.js';

const folder = tempFolder('webhooks-cli');
const db = join(folder.dir, 'books.db');
const allowed = { LEDGER_WEBHOOK_ALLOW_PRIVATE: 'true' };

beforeAll(async () => {
  expect(ledger(['init'], { db }).status).toBe(0);
  await seedBooks(db);
}, 120_000);
afterAll(() => folder.remove());

describe('ledger webhooks', () => {
  it('creates, lists, shows, updates, rotates, replays, lists deliveries and deletes an endpoint', () => {
    const created = ledgerJson(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hook', '--types', 'entry.posted,period.closed',
      '--description', 'books to the warehouse'], { db, env: allowed }).data;
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hook', event_types: ['entry.posted', 'period.closed'], is_active: true });
    expect(created.secret).toMatch(/^whsec_/);
    const listed = ledgerJson(['webhooks', 'list'], { db });
    expect(listed.data.map((endpoint: { id: string }) => endpoint.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    const shown = ledger(['webhooks', 'show', created.id], { db });
    expect(shown.stdout).toContain('books to the warehouse');
    expect(shown.stdout).not.toContain('whsec_');
    const disabled = ledgerJson(['webhooks', 'update', created.id, '--disable', '--types', '*'], { db }).data;
    expect(disabled).toMatchObject({ is_active: false, event_types: ['*'] });
    expect(ledgerJson(['webhooks', 'update', created.id, '--enable'], { db }).data.is_active).toBe(true);
    const rotated = ledgerJson(['webhooks', 'rotate-secret', created.id], { db }).data;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(ledgerJson(['webhooks', 'replay', created.id, '--after', '0'], { db }).data.last_seq).toBe('0');
    expect(ledgerJson(['webhooks', 'deliveries', created.id], { db })).toEqual({ data: [], has_more: false, next_cursor: null });
    expect(ledger(['webhooks', 'delete', created.id], { db }).status).toBe(0);
    expect(ledgerJson(['webhooks', 'list'], { db }).data).toEqual([]);
    const audited = ledgerJson(['audit-log', '--sort', 'asc'], { db }).data.map((record: { action: string }) => record.action)
      .filter((action: string) => action.startsWith('webhook_endpoint.'));
    expect(audited).toEqual(['webhook_endpoint.create', 'webhook_endpoint.update', 'webhook_endpoint.update', 'webhook_endpoint.rotate_secret',
      'webhook_endpoint.replay', 'webhook_endpoint.delete']);
  });

  it('refuses a private or loopback address unless LEDGER_WEBHOOK_ALLOW_PRIVATE=true', () => {
    const refused = ledger(['--json', 'webhooks', 'create', '--url', 'http://169.254.169.254/latest/meta-data'], { db });
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stderr || refused.stdout)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'url' });
  });
});
