/**
 * `ledger users ...` as a user runs it: the compiled program in a child process on a temp
 * database file, checked by exit code, stdout and stderr.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/app/open-ledger.js';
import { assertNoSecrets } from '../helpers/auth-helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const USER_KEYS = ['created_at', 'email', 'id', 'is_active', 'name', 'permissions', 'user_type'];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function ledger(db: string, ...args: string[]): Run {
  return ledgerWithInput(db, '', ...args);
}

/** Runs the command with `input` on its standard input (not a terminal). */
function ledgerWithInput(db: string, input: string, ...args: string[]): Run {
  const result = spawnSync(process.execPath, ['bin/ledger.js', '--db', db, ...args], {
    cwd: ROOT, encoding: 'utf8', timeout: 20_000, input,
    env: { ...process.env, NO_COLOR: '1', LEDGER_DB: '', LEDGER_API_KEY: '', LEDGER_JWT_SECRET: '' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a command that must succeed under --json and returns the parsed stdout. */
function ledgerJson(db: string, ...args: string[]): any {
  const run = ledger(db, '--json', ...args);
  if (run.status !== 0) throw new Error(`ledger ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

let dir: string;
let serial = 0;

/** A new initialised database file for one test. */
function freshDb(): string {
  serial += 1;
  const db = join(dir, `ledger-${serial}.db`);
  const run = ledger(db, 'init');
  if (run.status !== 0) throw new Error(`init failed: ${run.stderr}`);
  return db;
}

beforeAll(() => {
  // test/global-setup.ts has compiled dist/ once for the whole run.
  if (!existsSync(join(ROOT, 'dist/bundle/main.js'))) throw new Error('dist/bundle/main.js is missing: the global setup did not build');
  dir = mkdtempSync(join(tmpdir(), 'ledger-cli-users-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('ledger init', () => {
  it('creates the database file and says so', () => {
    const db = join(dir, 'init.db');
    const run = ledger(db, 'init');
    expect(run).toEqual({ status: 0, stdout: `Initialised ledger database ${db}\n`, stderr: '' });
    expect(existsSync(db)).toBe(true);
  });

  it('tells the user to run `ledger init` when the database file is missing, and creates nothing', () => {
    const db = join(dir, 'missing.db');
    const run = ledger(db, 'users', 'list');
    expect(run.status).toBe(4);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`error: No ledger database at ${db}. Run \`ledger init\` (or pass --db / LEDGER_DB) first.\n`);
    const json = ledger(db, '--json', 'users', 'get', 'anything');
    expect(json.status).toBe(4);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'NOT_FOUND', suggestion: 'Run `ledger init` to create it' });
    expect(existsSync(db)).toBe(false);
  });
});

describe('ledger users create', () => {
  it('creates an admin by default and prints the user without any password or hash', () => {
    const db = freshDb();
    const run = ledgerWithInput(db, 'correct horse\n', '--json', 'users', 'create', '--name', 'Ann Admin', '--email', 'ann@example.test',
      '--password-stdin');
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const body = JSON.parse(run.stdout);
    expect(Object.keys(body)).toEqual(['data']);
    expect(Object.keys(body.data).sort()).toEqual(USER_KEYS);
    expect(body.data).toMatchObject({
      name: 'Ann Admin', email: 'ann@example.test', user_type: 'human', permissions: { admin: true }, is_active: true,
    });
    expect(run.stdout).not.toContain('correct horse');
    assertNoSecrets(body);
  });

  it('prints a one-line confirmation without --json', () => {
    const db = freshDb();
    const run = ledgerWithInput(db, 'long enough', 'users', 'create', '--name', 'Bob', '--email', 'bob@example.test', '--password-stdin');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Created user Bob <bob@example\.test> \([0-9a-f-]{36}\)\n$/);
    expect(run.stderr).toBe('');
  });

  it('reads the password from standard input with --password-stdin (one trailing newline dropped), so it never is in the process list', async () => {
    const db = freshDb();
    const run = ledgerWithInput(db, 'a piped passphrase\n', '--json', 'users', 'create', '--name', 'Piped', '--email', 'piped@example.test',
      '--password-stdin');
    expect(run).toMatchObject({ status: 0, stderr: '' });
    const service = await openLedger(db);
    try {
      await service.login({ email: 'piped@example.test', password: 'a piped passphrase' }, 'cli-test');
    } finally {
      await service.ctx.store.close();
    }
  });

  it('still accepts --password but warns on stderr that it is visible in the process list', () => {
    const db = freshDb();
    const run = ledger(db, 'users', 'create', '--name', 'Visible', '--email', 'visible@example.test', '--password', 'long enough');
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('process list');
    expect(run.stderr).toContain('--password-stdin');
    expect(run.stderr).not.toContain('long enough');
  });

  it('refuses to create a user without a password when standard input is not a terminal, and creates nobody', () => {
    const db = freshDb();
    const run = ledger(db, 'users', 'create', '--name', 'None', '--email', 'none@example.test');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('--password-stdin');
    expect(ledgerJson(db, 'users', 'list').data).toEqual([]);
  });

  it('creates a user with exactly the permissions given by --permissions', () => {
    const db = freshDb();
    const body = ledgerJson(db, 'users', 'create', '--name', 'Clerk', '--email', 'clerk@example.test', '--password', 'long enough',
      '--permissions', '{"journals:create": true, "journals:reverse": false}');
    expect(body.data.permissions).toEqual({ 'journals:create': true, 'journals:reverse': false });
  });

  it('creates a user who can then log in with that password', async () => {
    const db = freshDb();
    const created = ledgerJson(db, 'users', 'create', '--name', 'Login', '--email', 'Login@Example.test', '--password', 'let me in please');
    const service = await openLedger(db);
    try {
      const pair = await service.login({ email: 'login@example.test', password: 'let me in please' }, 'cli-test');
      const actor = await service.authenticate(pair.access_token);
      expect(actor).toEqual({
        user_id: created.data.id, user_type: 'human', permissions: { admin: true }, credential: { type: 'session', id: expect.any(String) },
      });
      await expect(service.login({ email: 'login@example.test', password: 'not the password' }, 'cli-test'))
        .rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    } finally {
      await service.ctx.store.close();
    }
  });

  it('exits 1 with the error on stderr for a password shorter than 8 characters, and creates nobody', () => {
    const db = freshDb();
    const run = ledgerWithInput(db, 'seven77', 'users', 'create', '--name', 'Short', '--email', 'short@example.test', '--password-stdin');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('error [VALIDATION_ERROR] (password): The password must have at least 8 characters\n'
      + 'hint: Choose a longer password; a passphrase of several words works well\n');
    const json = ledger(db, '--json', 'users', 'create', '--name', 'Short', '--email', 'short@example.test', '--password', 'seven77');
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'password' });
    expect(ledgerJson(db, 'users', 'list').data).toEqual([]);
  });

  it.each([
    ['a malformed e-mail', ['--name', 'X', '--email', 'not-an-email'], 'email'],
    ['an empty name', ['--name', '', '--email', 'empty@example.test'], 'name'],
  ])('exits 1 for %s, as the HTTP API refuses it', (_label, options, field) => {
    const db = freshDb();
    const run = ledger(db, '--json', 'users', 'create', ...options, '--password', 'long enough');
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(ledgerJson(db, 'users', 'list').data).toEqual([]);
  });

  it('exits 1 with DUPLICATE on email for an e-mail taken in another case', () => {
    const db = freshDb();
    ledgerJson(db, 'users', 'create', '--name', 'Ann', '--email', 'Ann@x.io', '--password', 'long enough');
    const run = ledger(db, '--json', 'users', 'create', '--name', 'Ann two', '--email', 'ann@X.IO', '--password', 'long enough');
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'DUPLICATE', field: 'email' });
  });

  it('exits 1 for an unknown permission key and 2 for --permissions that is not a JSON object', () => {
    const db = freshDb();
    const unknown = ledger(db, '--json', 'users', 'create', '--name', 'X', '--email', 'x@example.test', '--password', 'long enough',
      '--permissions', '{"root": true}');
    expect(unknown.status).toBe(1);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'permissions.root' });
    const malformed = ledger(db, 'users', 'create', '--name', 'X', '--email', 'x@example.test', '--password', 'long enough',
      '--permissions', 'admin');
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('--permissions must be a JSON object');
    expect(ledgerJson(db, 'users', 'list').data).toEqual([]);
  });
});

describe('ledger users create-service-account', () => {
  it('prints the envelope with the api_key once; get and list never show it again', async () => {
    const db = freshDb();
    const run = ledger(db, '--json', 'users', 'create-service-account', '--name', 'Billing agent');
    expect(run.status).toBe(0);
    const body = JSON.parse(run.stdout);
    expect(Object.keys(body)).toEqual(['data']);
    expect(Object.keys(body.data).sort()).toEqual([...USER_KEYS, 'api_key'].sort());
    expect(body.data).toMatchObject({ name: 'Billing agent', email: null, user_type: 'service', permissions: { admin: true }, is_active: true });
    expect(body.data.api_key).toMatch(/^tsk_[A-Za-z0-9_-]{43,}$/);
    assertNoSecrets(body, { allowApiKey: true });

    const get = ledger(db, '--json', 'users', 'get', body.data.id);
    expect(get.status).toBe(0);
    const { api_key: apiKey, ...withoutKey } = body.data;
    expect(JSON.parse(get.stdout)).toEqual({ data: withoutKey });
    for (const output of [get.stdout, ledger(db, '--json', 'users', 'list').stdout, ledger(db, 'users', 'list').stdout,
      ledger(db, 'users', 'get', body.data.id).stdout]) {
      expect(output).not.toContain(apiKey);
      expect(output).not.toContain('api_key');
    }

    // The key is a working credential for the same user.
    const service = await openLedger(db);
    try {
      expect((await service.authenticate(apiKey)).user_id).toBe(body.data.id);
    } finally {
      await service.ctx.store.close();
    }
  });

  it('exits 1 for an empty name, as the HTTP API refuses it', () => {
    const db = freshDb();
    const run = ledger(db, '--json', 'users', 'create-service-account', '--name', '');
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name' });
    expect(ledgerJson(db, 'users', 'list').data).toEqual([]);
  });

  it('prints the key with a warning that it is shown only once, without --json', () => {
    const db = freshDb();
    const run = ledger(db, 'users', 'create-service-account', '--name', 'Bot', '--permissions', '{"journals:create": true}');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Created service account Bot \([0-9a-f-]{36}\)\nAPI key \(shown only once, store it now\):\ntsk_[A-Za-z0-9_-]{43,}\n$/);
    const listed = ledgerJson(db, 'users', 'list').data;
    expect(listed).toHaveLength(1);
    expect(listed[0].permissions).toEqual({ 'journals:create': true });
  });
});

describe('ledger users list and get', () => {
  let db: string;
  let ann: any;
  let bot: any;
  let clerk: any;
  beforeAll(() => {
    db = freshDb();
    ann = ledgerJson(db, 'users', 'create', '--name', 'Ann', '--email', 'ann@example.test', '--password', 'long enough').data;
    bot = ledgerJson(db, 'users', 'create-service-account', '--name', 'Bot', '--permissions', '{"journals:create": true}').data;
    clerk = ledgerJson(db, 'users', 'create', '--name', 'Clerk', '--email', 'clerk@example.test', '--password', 'long enough',
      '--permissions', '{}').data;
  });

  it('lists every user as a table: a header and one aligned row per user', () => {
    const run = ledger(db, 'users', 'list');
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ID\s+NAME\s+TYPE\s+EMAIL\s+ACTIVE\s+PERMISSIONS$/);
    const cells = lines.slice(1).map((line) => line.split(/\s{2,}/));
    expect(cells).toEqual([
      [ann.id, 'Ann', 'human', 'ann@example.test', 'yes', 'admin'],
      [bot.id, 'Bot', 'service', 'yes', 'journals:create'],
      [clerk.id, 'Clerk', 'human', 'clerk@example.test', 'yes', '(read only)'],
    ]);
    // Columns line up: every row starts its NAME cell where the header does.
    const nameColumn = lines[0]!.indexOf('NAME');
    for (const line of lines.slice(1)) expect(line[nameColumn - 1]).toBe(' ');
    expect(lines.slice(1).map((line) => line.slice(nameColumn).split(' ')[0])).toEqual(['Ann', 'Bot', 'Clerk']);
  });

  it('lists every user under --json in the HTTP envelope, in creation order', () => {
    const body = ledgerJson(db, 'users', 'list');
    const { api_key: _shownOnce, ...botWithoutKey } = bot;
    expect(body).toEqual({ data: [ann, botWithoutKey, clerk], has_more: false, next_cursor: null });
    assertNoSecrets(body);
  });

  it('pages with --limit and --cursor', () => {
    const first = ledgerJson(db, 'users', 'list', '--limit', '2');
    expect(first.data.map((user: { id: string }) => user.id)).toEqual([ann.id, bot.id]);
    expect(first.has_more).toBe(true);
    expect(typeof first.next_cursor).toBe('string');
    const second = ledgerJson(db, 'users', 'list', '--limit', '2', '--cursor', first.next_cursor);
    expect(second).toEqual({ data: [clerk], has_more: false, next_cursor: null });
  });

  it('gets one user as a table and as the envelope', () => {
    const table = ledger(db, 'users', 'get', clerk.id);
    expect(table.status).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.split(/\s{2,}/)).toEqual([clerk.id, 'Clerk', 'human', 'clerk@example.test', 'yes', '(read only)']);
    expect(ledgerJson(db, 'users', 'get', ann.id)).toEqual({ data: ann });
  });

  it('exits 4 with NOT_FOUND on stderr for an unknown id', () => {
    const run = ledger(db, 'users', 'get', 'no-such-user');
    expect(run.status).toBe(4);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('error [NOT_FOUND]: User no-such-user does not exist\nhint: List users to find a valid id\n');
    const json = ledger(db, '--json', 'users', 'get', 'no-such-user');
    expect(json.status).toBe(4);
    expect(JSON.parse(json.stderr)).toEqual({
      code: 'NOT_FOUND', message: 'User no-such-user does not exist', suggestion: 'List users to find a valid id',
    });
  });
});

describe('ledger users list with more users than one page', () => {
  it('returns every user without --limit', async () => {
    const db = freshDb();
    const service = await openLedger(db);
    const ids: string[] = [];
    try {
      for (let index = 0; index < 205; index += 1) {
        ids.push((await service.createServiceAccount(null, { name: `agent ${index}`, permissions: {} })).id);
      }
    } finally {
      await service.ctx.store.close();
    }
    const body = ledgerJson(db, 'users', 'list');
    expect(body.has_more).toBe(false);
    expect(body.next_cursor).toBeNull();
    expect(body.data.map((user: { id: string }) => user.id)).toEqual(ids);
    const table = ledger(db, 'users', 'list');
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(206);
  });
});

describe('ledger users rotate-key', () => {
  it('prints a new key once and the old key stops working', async () => {
    const db = freshDb();
    const created = ledgerJson(db, 'users', 'create-service-account', '--name', 'Rotated agent');
    const rotated = ledgerJson(db, 'users', 'rotate-key', created.data.id);
    expect(rotated.data.id).toBe(created.data.id);
    expect(rotated.data.api_key).toMatch(/^tsk_[A-Za-z0-9_-]{43,}$/);
    expect(rotated.data.api_key).not.toBe(created.data.api_key);
    const text = ledger(db, 'users', 'rotate-key', created.data.id);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('shown only once');
    const newest = /tsk_[A-Za-z0-9_-]+/.exec(text.stdout)![0];
    const service = await openLedger(db);
    try {
      await expect(service.authenticate(created.data.api_key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
      await expect(service.authenticate(rotated.data.api_key)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
      expect((await service.authenticate(newest)).user_id).toBe(created.data.id);
    } finally {
      await service.ctx.store.close();
    }
    expect(ledger(db, 'users', 'rotate-key', 'no-such-user').status).toBe(4);
  });
});

describe('ledger users update', () => {
  it('renames, re-permissions, deactivates and reactivates a user as the local operator', () => {
    const db = freshDb();
    const created = ledgerJson(db, 'users', 'create-service-account', '--name', 'Agent', '--permissions', '{"journals:create": true}');
    const id = created.data.id;
    expect(ledgerJson(db, 'users', 'update', id, '--name', 'Billing agent', '--permissions', '{}').data)
      .toMatchObject({ id, name: 'Billing agent', permissions: {}, is_active: true });
    expect(ledgerJson(db, 'users', 'update', id, '--deactivate').data.is_active).toBe(false);
    expect(ledgerJson(db, 'users', 'update', id, '--activate').data.is_active).toBe(true);
    const both = ledger(db, '--json', 'users', 'update', id, '--activate', '--deactivate');
    expect(both.status).toBe(1);
    expect(JSON.parse(both.stderr)).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(ledger(db, '--json', 'users', 'update', id).status).toBe(1);
  });

  it('with a user manager\'s API key, reaches only users whose permissions that manager holds', () => {
    const db = freshDb();
    const manager = ledgerJson(db, 'users', 'create-service-account', '--name', 'Manager', '--permissions', '{"users:manage": true}');
    const powerful = ledgerJson(db, 'users', 'create-service-account', '--name', 'Powerful',
      '--permissions', '{"settings:write": true, "accounts:write": true, "journals:create": true, "periods:close": true}');
    const reader = ledgerJson(db, 'users', 'create-service-account', '--name', 'Reader', '--permissions', '{}');
    ledgerJson(db, 'users', 'update', powerful.data.id, '--deactivate');
    const asManager = ['--api-key', manager.data.api_key];
    for (const args of [['update', powerful.data.id, '--activate'], ['update', powerful.data.id, '--name', 'Mine now'],
      ['rotate-key', powerful.data.id]]) {
      const refused = ledger(db, '--json', ...asManager, 'users', ...args);
      expect(refused.status).toBe(3);
      expect(JSON.parse(refused.stderr)).toMatchObject({ code: 'FORBIDDEN' });
      expect(refused.stdout).toBe('');
    }
    expect(ledgerJson(db, 'users', 'get', powerful.data.id).data).toMatchObject({ name: 'Powerful', is_active: false });
    // Within its reach: a read-only account.
    expect(ledgerJson(db, ...asManager, 'users', 'update', reader.data.id, '--deactivate').data.is_active).toBe(false);
    expect(ledgerJson(db, ...asManager, 'users', 'update', reader.data.id, '--activate').data.is_active).toBe(true);
    expect(ledgerJson(db, ...asManager, 'users', 'rotate-key', reader.data.id).data.api_key).toMatch(/^tsk_/);
    // The manager cannot hand out what it lacks either.
    const escalate = ledger(db, '--json', ...asManager, 'users', 'create-service-account', '--name', 'X', '--permissions', '{"settings:write": true}');
    expect(JSON.parse(escalate.stderr)).toMatchObject({ code: 'FORBIDDEN' });
  });
});
