/**
 * Password handling: common passwords are refused, hashes use at least OWASP's scrypt minimum
 * by default, and a hash made at a lower cost is replaced at the next successful login.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/app/open-ledger.js';
import { DEFAULT_SCRYPT_COST, hashPassword, verifyPassword } from '../../src/service/auth/passwords.js';
import { type ApiFixture, dataOf, expectError, startApi } from '../helpers/api-fixture.js';
import { API, guarded, loginAs, uniqueEmail } from '../helpers/auth-helpers.js';
import { rawQuery } from '../helpers/raw-sql.js';

let api: ApiFixture;
beforeAll(async () => { api = guarded(await startApi()); });
afterAll(async () => { await api.close(); });

const storedCost = async (userId: string) => {
  const rows = await rawQuery<{ password_hash: string }>(api.location, 'SELECT password_hash FROM users WHERE id = $1', [userId]);
  return Number(rows[0]!.password_hash.split('$')[1]);
};

describe('common passwords', () => {
  it.each(['password123', 'Password1', 'qwertyuiop', '11111111', '123456789', '  iloveyou  ', 'P@ssw0rd'])(
    'refuses %j with 400 VALIDATION_ERROR on password, and creates nobody', async (password) => {
      const email = uniqueEmail('common');
      const refused = await api.request('POST', `${API}/users`, { name: 'Common', email, password });
      expectError(refused, 400, 'VALIDATION_ERROR', 'password');
      expect(refused.body.message).toContain('common');
      expectError(await api.request('POST', '/auth/login', { email, password }, { token: null }), 401, 'UNAUTHORIZED');
    });
});

describe('hash cost', () => {
  it('hashes with scrypt at N=2^17, r=8, p=1 or more by default (OWASP minimum)', async () => {
    expect(DEFAULT_SCRYPT_COST).toBeGreaterThanOrEqual(2 ** 17);
    const hash = await hashPassword('a long enough passphrase');
    expect(hash.split('$').slice(0, 4)).toEqual(['scrypt', String(DEFAULT_SCRYPT_COST), '8', '1']);
    expect(await verifyPassword('a long enough passphrase', hash)).toBe(true);
    expect(await verifyPassword('a long enough passphrasf', hash)).toBe(false);
  });

  it('replaces a cheaper hash at the next login, first with the server\'s cost and then with the production default', async () => {
    const old = await openLedger(api.location, undefined, { scryptCost: 2 ** 9 });
    const email = uniqueEmail('rehash');
    let userId: string;
    try {
      userId = (await old.createUser(null, { name: 'Old hash', email, password: 'an old passphrase' })).id;
    } finally {
      await old.ctx.store.close();
    }
    expect(await storedCost(userId)).toBe(2 ** 9);
    // The test server hashes at 2^10.
    await loginAs(api, email, 'an old passphrase');
    expect(await storedCost(userId)).toBe(2 ** 10);
    await loginAs(api, email, 'an old passphrase');
    // A service with the production default (nothing lowered) raises it to the default.
    const production = await openLedger(api.location);
    try {
      await production.login({ email, password: 'an old passphrase' }, 'test-client');
      expect(await storedCost(userId)).toBe(DEFAULT_SCRYPT_COST);
    } finally {
      await production.ctx.store.close();
    }
    // The new hash still admits the same password, and only it.
    dataOf(await api.request('POST', '/auth/login', { email, password: 'an old passphrase' }, { token: null }));
    expectError(await api.request('POST', '/auth/login', { email, password: 'an old passphrasf' }, { token: null }), 401, 'UNAUTHORIZED');
  });
});
