/**
 * What the database file gives away: the ledger file, its -wal and -shm files and its backups are
 * readable by their owner only, and a JWT secret short enough to be guessed offline is refused.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/app/open-ledger.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';
import { ledger, tempFolder } from '../helpers/cli.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

let folder: ReturnType<typeof tempFolder>;
beforeAll(() => { folder = tempFolder('secrets'); });
afterAll(() => { folder.remove(); });

describe('database files', () => {
  it('creates the ledger, its -wal and -shm files and a backup readable by the owner only (0600), whatever the umask', async () => {
    const db = join(folder.dir, 'private.db');
    // The usual umask 022 would leave a new file 0644, readable by every local user.
    expect(ledger(['init'], { db, env: {} }).status).toBe(0);
    expect(modeOf(db)).toBe('600');
    const service = await openLedger(db, undefined, { scryptCost: 2 ** 10 });
    try {
      await service.createFiatCurrency(LOCAL_OPERATOR, 'USD');
      expect(modeOf(`${db}-wal`)).toBe('600');
      expect(modeOf(`${db}-shm`)).toBe('600');
    } finally {
      await service.ctx.store.close();
    }
    const backup = join(folder.dir, 'backup.db');
    expect(ledger(['backup', backup], { db }).status).toBe(0);
    expect(modeOf(backup)).toBe('600');
  });
});

describe('LEDGER_JWT_SECRET', () => {
  it('refuses a secret shorter than 32 bytes with a clear error, and accepts one of 32', () => {
    const db = join(folder.dir, 'secret.db');
    expect(ledger(['init'], { db }).status).toBe(0);
    const short = ledger(['users', 'list'], { db, env: { LEDGER_JWT_SECRET: 'a' } });
    expect(short.status).not.toBe(0);
    expect(short.stderr).toContain('LEDGER_JWT_SECRET');
    expect(short.stderr).toContain('at least 32');
    const almost = ledger(['users', 'list'], { db, env: { LEDGER_JWT_SECRET: 'x'.repeat(31) } });
    expect(almost.status).not.toBe(0);
    expect(ledger(['users', 'list'], { db, env: { LEDGER_JWT_SECRET: 'x'.repeat(32) } }).status).toBe(0);
  });
});
