/**
 * `ledger doctor`: checks a configuration (the environment `ledger serve` would run with) and a
 * database from the command line, and says what to fix (docs/operations.md, "ledger doctor"). It
 * changes nothing: no migration, no write, no file created. Each finding is `ok`, `warn` (works,
 * but not as a production deployment should) or `fail` (`ledger serve` would refuse to start or
 * would not work); the command exits 1 when any check fails.
 */
import { constants, accessSync, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { assertStrongJwtSecret } from '../service/auth/access-tokens.js';
import { compareSchema } from '../service/ports/ledger-store.js';
import { webhookSettingsFrom } from '../service/webhooks/settings.js';
import { parseDatabaseLocation } from './database-location.js';
import { metricsTokenFrom } from './metrics.js';
import { parseTrustProxy } from './trust-proxy-setting.js';

export type Verdict = 'ok' | 'warn' | 'fail';

export interface Finding {
  check: string;
  status: Verdict;
  detail: string;
  /** What to do about a warn or a fail. */
  fix?: string | undefined;
}

const DEFAULT_POOL_SIZE = 10;

export async function runDoctor(location: string, env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const findings: Finding[] = [];
  const add = (check: string, status: Verdict, detail: string, fix?: string) => findings.push({ check, status, detail, fix });
  settingsChecks(env, add);
  let parsed;
  try {
    parsed = parseDatabaseLocation(location);
  } catch (error) {
    add('database', 'fail', (error as Error).message, (error as { suggestion?: string }).suggestion);
    return findings;
  }
  if (parsed.kind === 'sqlite') await sqliteChecks(parsed.path, env, add);
  else await postgresChecks(parsed.url, env, add);
  return findings;
}

type Add = (check: string, status: Verdict, detail: string, fix?: string) => void;

/** The settings of the environment, each as `ledger serve` reads it. */
function settingsChecks(env: NodeJS.ProcessEnv, add: Add): void {
  const secret = env.LEDGER_JWT_SECRET;
  if (secret === undefined || secret === '') {
    add('LEDGER_JWT_SECRET', 'ok', 'unset: a secret generated once is kept in the database (every server on it shares it)');
  } else {
    try {
      assertStrongJwtSecret(secret);
      add('LEDGER_JWT_SECRET', 'ok', `${Buffer.byteLength(secret)} bytes`);
    } catch (error) {
      add('LEDGER_JWT_SECRET', 'fail', (error as Error).message, (error as { suggestion?: string }).suggestion);
    }
  }
  try {
    const token = metricsTokenFrom(env);
    add('LEDGER_METRICS_TOKEN', 'ok', token === undefined ? 'unset: /metrics is not served' : `${token.length} characters: /metrics is served to it`);
  } catch (error) {
    add('LEDGER_METRICS_TOKEN', 'fail', (error as Error).message, 'Generate one with `openssl rand -hex 24`, or unset it');
  }
  try {
    const webhooks = webhookSettingsFrom(env);
    if (webhooks.allowPrivate) {
      add('webhooks', 'warn', 'LEDGER_WEBHOOK_ALLOW_PRIVATE=true: webhooks may be sent to private and loopback addresses',
        'Leave it unset in production unless your receivers are on your own network on purpose');
    } else {
      add('webhooks', 'ok', `private addresses refused; ${webhooks.retryDelaysMs.length} retries`);
    }
  } catch (error) {
    add('webhooks', 'fail', (error as Error).message, (error as { suggestion?: string }).suggestion);
  }
  try {
    const trust = parseTrustProxy(env.LEDGER_TRUST_PROXY);
    add('LEDGER_TRUST_PROXY', 'ok', trust === false ? 'unset: X-Forwarded-For is not believed (right unless a proxy is in front)' : `trusted: ${JSON.stringify(trust)}`);
  } catch (error) {
    add('LEDGER_TRUST_PROXY', 'fail', (error as Error).message, 'See docs/security.md, "Behind a proxy"');
  }
}

async function sqliteChecks(path: string, env: NodeJS.ProcessEnv, add: Add): Promise<void> {
  if (!existsSync(path)) {
    add('database', 'fail', `${path} does not exist`, `Create it with \`ledger init --db ${path}\` (ledger serve also creates it)`);
    return;
  }
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    add('file permissions', 'fail', `${path} is readable or writable by others (mode ${mode.toString(8)}); it holds password hashes and secrets`,
      `chmod 600 ${path}`);
  } else {
    add('file permissions', 'ok', `${path} is its owner's only (mode ${mode.toString(8)})`);
  }
  try {
    accessSync(dirname(path), constants.W_OK);
    add('folder', 'ok', `${dirname(path)} is writable (SQLite keeps its -wal and -shm files beside the database)`);
  } catch {
    add('folder', 'fail', `${dirname(path)} is not writable by this user`, 'Run as the user that owns the folder, or give it write access');
  }
  const { diagnoseSqlite } = await import('../storage/sqlite/diagnose.js');
  let found;
  try {
    found = diagnoseSqlite(path);
  } catch (error) {
    add('database', 'fail', `${path} cannot be read as SQLite: ${(error as Error).message}`, 'Check that it is a ledger database file');
    return;
  }
  add('database', 'ok', `SQLite ${path}, journal_mode=${found.journalMode}`);
  schemaCheck(found.applied, found.known, add);
  if (env.LEDGER_SQLITE_SYNCHRONOUS === 'NORMAL') {
    add('durability', 'warn', 'LEDGER_SQLITE_SYNCHRONOUS=NORMAL: the last commits can be lost on a power cut', 'Unset it (FULL is the default)');
  }
}

async function postgresChecks(url: string, env: NodeJS.ProcessEnv, add: Add): Promise<void> {
  const poolText = env.LEDGER_PG_POOL_SIZE;
  const poolSize = poolText === undefined || poolText === '' ? DEFAULT_POOL_SIZE : Number(poolText);
  if (!Number.isSafeInteger(poolSize) || poolSize < 1) {
    add('LEDGER_PG_POOL_SIZE', 'fail', `${JSON.stringify(poolText)} is not a positive whole number`, 'Set it to the connections one server keeps, e.g. 10');
    return;
  }
  const { diagnosePostgres } = await import('../storage/postgres/diagnose.js');
  let found;
  try {
    found = await diagnosePostgres(url, poolSize);
  } catch (error) {
    add('database', 'fail', `PostgreSQL refused the connection: ${(error as Error).message}`,
      'Check the user, the password and the database name in the URL (createdb, then ledger init)');
    return;
  }
  for (const host of found.hosts) {
    if (host.error !== undefined) add(`host ${host.host}`, found.hosts.length > 1 ? 'warn' : 'fail', `does not answer (${host.error})`,
      'Check that PostgreSQL runs there and listens on that port');
    else add(`host ${host.host}`, 'ok', host.writable ? 'answers and takes writes (the primary)' : 'answers, read-only (a standby)');
  }
  if (found.chosen === undefined) {
    add('primary', 'fail', 'no host of the URL takes writes', 'Start the primary, or promote a standby');
    return;
  }
  add('primary', 'ok', `${found.chosen}, PostgreSQL ${found.serverVersion ?? '?'}`);
  schemaCheck(found.applied, found.known, add);
  if (found.maxConnections !== undefined) {
    const room = found.maxConnections - (found.reservedConnections ?? 0);
    const open = found.openConnections ?? 0;
    const detail = `each server keeps up to ${poolSize} connections (LEDGER_PG_POOL_SIZE); the server allows ${room} (max_connections ${found.maxConnections} `
      + `less ${found.reservedConnections ?? 0} reserved), ${open} open now: room for ${Math.max(0, Math.floor((room - open) / poolSize))} more servers`;
    if (poolSize > room) add('connections', 'fail', detail, `Lower LEDGER_PG_POOL_SIZE below ${room}, or raise max_connections`);
    else if (poolSize + open > room) add('connections', 'warn', detail, 'Another server would not get its pool: raise max_connections, or put PgBouncer in front');
    else add('connections', 'ok', detail);
  }
  if (found.transactionPooling === true && found.prepared) {
    add('pooler', 'fail', 'a pooler in transaction mode is in between (two transactions of one connection ran on different server sessions), '
      + 'and the URL lets the ledger prepare statements by name', 'Add pgbouncer=true to the URL (docs/postgres.md, "PgBouncer")');
  } else if (found.transactionPooling === true) {
    add('pooler', 'ok', 'a pooler in transaction mode, with pgbouncer=true: no statement prepared by name');
  } else {
    add('pooler', 'ok', `no pooler in transaction mode detected${found.prepared ? '' : ' (pgbouncer=true only costs a little speed here)'}`);
  }
  if (found.fsync === 'off' || found.synchronousCommit === 'off') {
    add('durability', 'warn', `fsync=${found.fsync}, synchronous_commit=${found.synchronousCommit}: acknowledged entries can be lost in a crash`,
      'Turn both on (the defaults) on a production server');
  } else {
    add('durability', 'ok', `fsync=${found.fsync}, synchronous_commit=${found.synchronousCommit}`);
  }
}

function schemaCheck(applied: number[] | undefined, known: number[], add: Add): void {
  if (applied === undefined) {
    add('schema', 'fail', 'the database has no ledger schema', 'Run `ledger init` (or start `ledger serve`, which creates it)');
    return;
  }
  const { expected, missing, newer } = compareSchema(applied, known);
  if (newer.length > 0) {
    add('schema', 'warn', `the database has migrations this version does not know (${newer.join(', ')}): a newer ledger upgraded it`,
      'Run the newer version of ledger');
  } else if (missing.length > 0) {
    add('schema', 'warn', `version ${Math.max(0, ...applied)} of ${expected}: migrations ${missing.join(', ')} will run when ledger serve or a command next opens it`,
      'Run `ledger init` now to upgrade it at a time of your choosing (docs/operations.md, "Upgrades")');
  } else {
    add('schema', 'ok', `current (version ${expected})`);
  }
}
