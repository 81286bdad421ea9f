/**
 * `ledger doctor` (docs/operations.md): the real program on a SQLite file, and on a PostgreSQL
 * cluster of this file's own, directly and through a PgBouncer in transaction mode, with a URL of
 * two hosts one of which is down. It says what is wrong and what to do, exits 1 on a failure, and
 * changes nothing.
 */
import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initLedger } from '../../src/app/open-ledger.js';
import { ledger, tempFolder } from '../helpers/cli.js';
import { type Pooler, startPgbouncer } from '../helpers/pgbouncer.js';
import { type Cluster, createDatabase, startCluster } from '../helpers/postgres-cluster.js';

interface Finding { check: string; status: 'ok' | 'warn' | 'fail'; detail: string; fix?: string }

function doctor(db: string, env: Record<string, string> = {}): { status: number | null; findings: Finding[]; ok: boolean } {
  const run = ledger(['--db', db, '--json', 'doctor'], { env });
  const answer = JSON.parse(run.stdout) as { data: { ok: boolean; findings: Finding[] } };
  return { status: run.status, findings: answer.data.findings, ok: answer.data.ok };
}

function finding(findings: Finding[], check: string): Finding {
  const found = findings.find((candidate) => candidate.check === check);
  if (found === undefined) throw new Error(`no finding ${check} in ${JSON.stringify(findings.map((f) => f.check))}`);
  return found;
}

describe('ledger doctor on SQLite', () => {
  const folder = tempFolder('doctor');
  afterAll(() => folder.remove());

  it('passes a fresh ledger, and names a file others can read, a weak secret, a missing file and NORMAL durability', async () => {
    const db = join(folder.dir, 'books.db');
    await initLedger(db);
    const healthy = doctor(db);
    expect(healthy.status).toBe(0);
    expect(healthy.ok).toBe(true);
    expect(finding(healthy.findings, 'schema')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^current \(version \d+\)$/) });
    expect(healthy.findings.every((f) => f.status === 'ok')).toBe(true);

    chmodSync(db, 0o644);
    const sick = doctor(db, { LEDGER_JWT_SECRET: 'too-short', LEDGER_SQLITE_SYNCHRONOUS: 'NORMAL', LEDGER_WEBHOOK_ALLOW_PRIVATE: 'true' });
    expect(sick.status).toBe(1);
    expect(finding(sick.findings, 'file permissions')).toMatchObject({ status: 'fail', fix: `chmod 600 ${db}` });
    expect(finding(sick.findings, 'LEDGER_JWT_SECRET')).toMatchObject({ status: 'fail', fix: expect.stringContaining('openssl rand') });
    expect(finding(sick.findings, 'durability').status).toBe('warn');
    expect(finding(sick.findings, 'webhooks').status).toBe('warn');
    // It changed nothing.
    expect(statSync(db).mode & 0o777).toBe(0o644);

    const missing = doctor(join(folder.dir, 'none.db'));
    expect(missing.status).toBe(1);
    expect(finding(missing.findings, 'database')).toMatchObject({ status: 'fail', fix: expect.stringContaining('ledger init') });

    const text = ledger(['--db', db, 'doctor']);
    expect(text.status).toBe(1);
    expect(text.stdout).toContain('FAIL  file permissions');
    expect(text.stdout).toContain(`      fix: chmod 600 ${db}`);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('Some checks failed.');
  });
});

describe('ledger doctor on PostgreSQL', () => {
  let cluster: Cluster;
  let pooler: Pooler;
  let url: string;

  beforeAll(async () => {
    cluster = await startCluster({ settings: ['fsync=off', 'max_connections=30'] });
    url = await createDatabase(cluster.adminUrl, 'books');
    await createDatabase(cluster.adminUrl, 'empty');
    await initLedger(url);
    pooler = await startPgbouncer(cluster.port);
  }, 120_000);
  afterAll(async () => {
    await pooler?.stop();
    await cluster?.stop();
  });

  it('checks the hosts, the schema, the connection limit, durability and a pooler in transaction mode', () => {
    const direct = doctor(url);
    expect(direct.status).toBe(0);
    expect(finding(direct.findings, 'primary').detail).toContain(`127.0.0.1:${cluster.port}`);
    expect(finding(direct.findings, 'schema').status).toBe('ok');
    expect(finding(direct.findings, 'connections')).toMatchObject({ status: 'ok', detail: expect.stringContaining('max_connections 30') });
    expect(finding(direct.findings, 'pooler')).toMatchObject({ status: 'ok', detail: expect.stringContaining('no pooler in transaction mode') });
    expect(finding(direct.findings, 'durability')).toMatchObject({ status: 'warn', detail: expect.stringContaining('fsync=off') });

    const tooMany = doctor(url, { LEDGER_PG_POOL_SIZE: '50' });
    expect(tooMany.status).toBe(1);
    expect(finding(tooMany.findings, 'connections')).toMatchObject({ status: 'fail', fix: expect.stringContaining('LEDGER_PG_POOL_SIZE') });

    const throughPooler = new URL(url);
    throughPooler.port = String(pooler.port);
    const unflagged = doctor(throughPooler.toString());
    expect(unflagged.status).toBe(1);
    expect(finding(unflagged.findings, 'pooler')).toMatchObject({ status: 'fail', fix: expect.stringContaining('pgbouncer=true') });
    throughPooler.searchParams.set('pgbouncer', 'true');
    const flagged = doctor(throughPooler.toString());
    expect(finding(flagged.findings, 'pooler')).toMatchObject({ status: 'ok', detail: expect.stringContaining('with pgbouncer=true') });

    // A host that is down beside the primary is a warning; the primary is found.
    const twoHosts = `postgres://postgres@127.0.0.1:1,127.0.0.1:${cluster.port}/books?target_session_attrs=read-write`;
    const failover = doctor(twoHosts);
    expect(failover.status).toBe(0);
    expect(finding(failover.findings, 'host 127.0.0.1:1')).toMatchObject({ status: 'warn', detail: expect.stringContaining('ECONNREFUSED') });
    expect(finding(failover.findings, `host 127.0.0.1:${cluster.port}`).detail).toContain('takes writes');

    const empty = doctor(url.replace('/books', '/empty'));
    expect(empty.status).toBe(1);
    expect(finding(empty.findings, 'schema')).toMatchObject({ status: 'fail', fix: expect.stringContaining('ledger init') });
  });
});
