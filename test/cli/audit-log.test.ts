/**
 * `ledger audit-log` and what the command line writes to the log: the local operator's changes
 * are recorded as made by nobody, outside any request; a write made with --api-key as that key's
 * user and key. The table shows every record, and --json (filtered, paged) equals the HTTP API's
 * answer on the same file.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiOnFile, entry, ledger, ledgerJson, serveFile, tableCells, tempFolder } from '../helpers/cli.js';
import { rawQuery } from '../helpers/raw-sql.js';

const folder = tempFolder('audit');
const db = join(folder.dir, 'books.db');
const cli = (args: string[], options: { apiKey?: string; input?: string } = {}) => ledgerJson(args, { db, ...options });

let ids: { usd: string; period: string; cash: string; sales: string; equity: string; clerk: string; poster: string; entry: string };
let posterKey: string;
let api: ApiOnFile;

beforeAll(async () => {
  expect(ledger(['init'], { db }).status).toBe(0);
  const usd = cli(['currencies', 'create-fiat', 'USD']).data.id;
  const period = cli(['periods', 'create', '--name', 'FY2026', '--start', '2026-01-01', '--end', '2026-12-31']).data.id;
  const account = (number: string, name: string, type: string, normal: string) =>
    cli(['accounts', 'create', '--number', number, '--name', name, '--currency', usd, '--type', type, '--normal-balance', normal]).data.id;
  const cash = account('1000', 'Cash', 'asset', 'debit');
  const sales = account('4000', 'Sales', 'revenue', 'credit');
  const equity = account('3000', 'Retained Earnings', 'equity', 'credit');
  cli(['settings', 'set', 'retained-earnings-account', equity]);
  const clerk = cli(['users', 'create', '--name', 'Clerk', '--email', 'clerk@example.test', '--password', 'clerk password 1',
    '--permissions', '{"journals:create": true}']).data.id;
  const poster = cli(['users', 'create-service-account', '--name', 'Poster', '--permissions', '{"journals:create": true, "journals:reverse": true}']).data;
  posterKey = poster.api_key;
  const posted = cli(['journal-entries', 'create', '--file', '-'], { apiKey: posterKey, input: JSON.stringify(entry(cash, sales, '2500')) }).data.id;
  cli(['journal-entries', 'reverse', posted], { apiKey: posterKey });
  ids = { usd, period, cash, sales, equity, clerk, poster: poster.id, entry: posted };
}, 120_000);

afterAll(async () => {
  await api?.close();
  folder.remove();
});

describe('what the command line records', () => {
  it('records the local operator\'s changes as made by nobody, outside any request, with their initial values', () => {
    const log = cli(['audit-log', '--sort', 'asc']).data;
    expect(log.map((record: { action: string; target_id: string }) => [record.action, record.target_id])).toEqual([
      ['currency.create', ids.usd],
      ['period.create', ids.period],
      ['account.create', ids.cash],
      ['account.create', ids.sales],
      ['account.create', ids.equity],
      ['settings.update', null],
      ['user.create', ids.clerk],
      ['service_account.create', ids.poster],
      ['journal_entry.create', ids.entry],
      ['journal_entry.reverse', ids.entry],
    ]);
    for (const record of log.slice(0, 8)) {
      expect(record).toMatchObject({ actor_id: null, credential_type: null, credential_id: null, request_id: null });
    }
    expect(log[5].changes).toEqual({ retained_earnings_account_id: { old: null, new: ids.equity } });
    expect(log[6].changes).toEqual({
      name: { old: null, new: 'Clerk' }, email: { old: null, new: 'clerk@example.test' }, user_type: { old: null, new: 'human' },
      permissions: { old: null, new: { 'journals:create': true } }, is_active: { old: null, new: true },
    });
    const text = JSON.stringify(log);
    expect(text).not.toContain('clerk password 1');
    expect(text).not.toContain(posterKey);
    expect(text).not.toMatch(/tsk_|scrypt\$|password/i);
  });

  it('records a write made with --api-key as that key\'s user and key, outside any request', async () => {
    const [key] = await rawQuery<{ id: string }>(db, 'SELECT id FROM api_keys WHERE user_id = $1', [ids.poster]);
    const posts = cli(['audit-log', '--actor', ids.poster]).data;
    expect(posts.map((record: { action: string }) => record.action)).toEqual(['journal_entry.reverse', 'journal_entry.create']);
    for (const record of posts) {
      expect(record).toMatchObject({ actor_id: ids.poster, credential_type: 'api_key', credential_id: key!.id, request_id: null });
    }
  });

  it('records nothing for a refused command', () => {
    const before = cli(['audit-log']).data;
    const refused = ledger(['journal-entries', 'create', '--file', '-'], {
      db, apiKey: posterKey, input: JSON.stringify({ ...entry(ids.cash, ids.sales, '1'), entry_date: '2030-01-01' }),
    });
    expect(refused.status).toBe(1);
    expect(ledger(['currencies', 'create-fiat', 'USD'], { db }).status).toBe(1);
    expect(cli(['audit-log']).data).toEqual(before);
  });
});

describe('ledger audit-log', () => {
  it('prints every record as a table, newest first', () => {
    const run = ledger(['audit-log'], { db });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const [header, ...rows] = tableCells(run.stdout);
    expect(header).toEqual(['OCCURRED AT', 'ACTION', 'ACTOR', 'CREDENTIAL', 'TARGET', 'CHANGES', 'REQUEST']);
    const log = cli(['audit-log']).data;
    expect(rows.map((cells) => cells[1])).toEqual(log.map((record: { action: string }) => record.action));
    const reversal = rows[0]!;
    expect(reversal).toEqual([
      log[0].occurred_at, 'journal_entry.reverse', ids.poster, `api_key ${log[0].credential_id}`, `journal_entry ${ids.entry}`,
      `reversed_by_id: null → "${log[0].changes.reversed_by_id.new}"`,
    ]);
    const settings = rows.find((cells) => cells[1] === 'settings.update')!;
    expect(settings).toEqual([expect.any(String), 'settings.update', '-', 'settings', `retained_earnings_account_id: null → "${ids.equity}"`]);
  });

  it('prints (none) for a filter that matches nothing', () => {
    expect(ledger(['audit-log', '--action', 'auth.logout'], { db })).toEqual({ status: 0, stdout: '(none)\n', stderr: '' });
  });

  describe('--json equals the HTTP API on the same file', () => {
    beforeAll(async () => {
      api = await serveFile(db);
    });

    /** Every record of an API query, following next_cursor. */
    async function walk(query: string): Promise<unknown[]> {
      const rows: unknown[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: unknown[]; next_cursor: string | null } =
          await api.get(`/audit-log?${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
        rows.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor !== null);
      return rows;
    }

    it.each([
      ['everything', [], ''],
      ['--action', ['--action', 'account.create'], 'action=account.create'],
      ['--target', ['--target', 'ENTRY'], 'target_id=ENTRY'],
      ['--actor', ['--actor', 'POSTER'], 'actor_id=POSTER'],
      ['--start and --end', ['--start', 'TODAY', '--end', 'TODAY'], 'start_date=TODAY&end_date=TODAY'],
      ['--sort asc', ['--sort', 'asc'], 'sort=asc'],
    ])('%s', async (_name, args, query) => {
      // The day of the newest record (not the clock's today, which may have moved on since).
      const day = cli(['audit-log', '--limit', '1']).data[0].occurred_at.slice(0, 10);
      const fill = (text: string) => text.replace('ENTRY', ids.entry).replace('POSTER', ids.poster).replaceAll('TODAY', day);
      const printed = cli(['audit-log', ...args.map(fill)]);
      // A record's hash is set by its seal right after commit, so it can change between the two reads.
      const withoutSeal = (records: any[]) => records.map(({ hash: _hash, ...record }) => record);
      expect({ ...printed, data: withoutSeal(printed.data) })
        .toEqual({ data: withoutSeal(await walk(fill(query))), has_more: false, next_cursor: null });
      expect(printed.data.length).toBeGreaterThan(0);
    });

    it('--limit prints one page with the API\'s cursor, and --cursor continues it exactly as the API does', async () => {
      const first = cli(['audit-log', '--limit', '3', '--action', 'account.create']);
      expect(first).toEqual(await api.get('/audit-log?limit=3&action=account.create'));
      expect(first.has_more).toBe(false);
      const page = cli(['audit-log', '--limit', '4']);
      expect(page).toEqual(await api.get('/audit-log?limit=4'));
      expect(page.has_more).toBe(true);
      const next = cli(['audit-log', '--limit', '4', '--cursor', page.next_cursor]);
      expect(next).toEqual(await api.get(`/audit-log?limit=4&cursor=${encodeURIComponent(page.next_cursor)}`));
    });
  });

  it('refuses an unknown action (usage, exit 2), an unknown actor (exit 4) and an impossible date (exit 1)', () => {
    const action = ledger(['audit-log', '--action', 'account.destroy'], { db });
    expect(action.status).toBe(2);
    expect(action.stderr).toContain('account.destroy');
    const actor = ledger(['--json', 'audit-log', '--actor', 'nobody'], { db });
    expect(actor.status).toBe(4);
    expect(JSON.parse(actor.stderr)).toMatchObject({ code: 'NOT_FOUND', field: 'actor_id' });
    const date = ledger(['--json', 'audit-log', '--start', '2026-02-30'], { db });
    expect(date.status).toBe(1);
    expect(JSON.parse(date.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'start_date' });
  });
});
