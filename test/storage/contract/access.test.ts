/**
 * Storage contract: settings, users and API keys, the credentials version, refresh tokens, failed
 * logins and idempotency keys.
 */
import { describe, expect, it } from 'vitest';
import type { User } from '../../../src/domain/types.js';
import { openStore } from '../../../src/app/open-ledger.js';
import type { LedgerStore, LedgerTx, NewUserRecord } from '../../../src/service/ports/ledger-store.js';
import {
  adminFixture, apiKeyFixture, currencyFixture, refreshTokenFixture, serviceAccountFixture, userFixture,
} from './fixtures.js';
import { expectLedgerError, freshStorePerTest, walkPages } from './support.js';

/** What listUsers answers for a stored user: everything but the password hash. */
function withoutHash(user: NewUserRecord): User {
  const { password_hash: _hash, ...rest } = user;
  return rest;
}

describe('storage contract: settings', () => {
  const context = freshStorePerTest();

  it('stores, replaces and lists settings, and answers nothing for an unknown key', async () => {
    expect(await context.store.getSetting('retained_earnings_account_id')).toBeUndefined();
    expect(await context.store.allSettings()).toEqual(new Map());
    await context.store.write(async (tx) => {
      await tx.setSetting('retained_earnings_account_id', 'account-3000');
      await tx.setSetting('jwt_secret', 'first');
      await tx.setSetting('empty', '');
      await tx.setSetting('unicode', 'Zürich ✓ "quoted"');
    });
    await context.store.write((tx) => tx.setSetting('jwt_secret', 'second'));
    expect(await context.store.getSetting('jwt_secret')).toBe('second');
    expect(await context.store.getSetting('empty')).toBe('');
    expect(await context.store.allSettings()).toEqual(new Map([
      ['empty', ''], ['jwt_secret', 'second'], ['retained_earnings_account_id', 'account-3000'], ['unicode', 'Zürich ✓ "quoted"'],
    ]));
  });

  it('deletes a setting, and deleting an unknown key changes nothing', async () => {
    await context.store.write(async (tx) => {
      await tx.setSetting('retained_earnings_account_id:eur', 'account-3150');
      await tx.setSetting('retained_earnings_account_id', 'account-3000');
    });
    await context.store.write(async (tx) => {
      await tx.deleteSetting('retained_earnings_account_id:eur');
      await tx.deleteSetting('never-set');
    });
    expect(await context.store.getSetting('retained_earnings_account_id:eur')).toBeUndefined();
    expect(await context.store.allSettings()).toEqual(new Map([['retained_earnings_account_id', 'account-3000']]));
  });

  it('keeps the first value of a setting stored only when absent, also against a later setSettingIfAbsent', async () => {
    await context.store.write((tx) => tx.setSettingIfAbsent('jwt_secret', 'first'));
    await context.store.write((tx) => tx.setSettingIfAbsent('jwt_secret', 'second'));
    expect(await context.store.getSetting('jwt_secret')).toBe('first');
    await context.store.write((tx) => tx.setSetting('jwt_secret', 'replaced'));
    await context.store.write((tx) => tx.setSettingIfAbsent('jwt_secret', 'third'));
    expect(await context.store.getSetting('jwt_secret')).toBe('replaced');
  });

  it('agrees on one value when several writers store a setting only when absent at the same time', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, index) => context.store.write((tx) => tx.setSettingIfAbsent('jwt_secret', `secret-${index}`))));
    const value = await context.store.getSetting('jwt_secret');
    expect(value).toMatch(/^secret-\d$/);
    expect(await context.store.allSettings()).toEqual(new Map([['jwt_secret', value!]]));
  });
});

describe('storage contract: users and API keys', () => {
  const context = freshStorePerTest();

  it('returns an inserted user with its password hash exactly as given, and nothing for an unknown id', async () => {
    const alice = userFixture('alice', { permissions: { 'journals:create': true, 'periods:close': false }, created_at: '2026-02-03T04:05:06.789Z' });
    const robot = serviceAccountFixture('robot', { permissions: { 'journals:create': true } });
    const dormant = userFixture('dormant', { is_active: false, password_hash: null });
    await context.store.write(async (tx) => {
      for (const user of [alice, robot, dormant]) await tx.insertUser(user);
    });
    for (const user of [alice, robot, dormant]) expect(await context.store.getUser(user.id)).toEqual(user);
    expect(await context.store.getUser('user-unknown')).toBeUndefined();
  });

  it('finds a user by e-mail whatever its case, and nothing for an unknown address', async () => {
    const alice = userFixture('alice', { email: 'Alice.Smith@Example.com' });
    await context.store.write((tx) => tx.insertUser(alice));
    expect(await context.store.findUserByEmail('Alice.Smith@Example.com')).toEqual(alice);
    expect(await context.store.findUserByEmail('alice.smith@example.com')).toEqual(alice);
    expect(await context.store.findUserByEmail('ALICE.SMITH@EXAMPLE.COM')).toEqual(alice);
    expect(await context.store.findUserByEmail('bob@example.com')).toBeUndefined();
  });

  it('refuses a second user with the same e-mail in another case as DUPLICATE on email, and allows many without one', async () => {
    await context.store.write((tx) => tx.insertUser(userFixture('alice')));
    await expectLedgerError(context.store.write((tx) => tx.insertUser(userFixture('alice-again', { email: 'ALICE@example.com' }))),
      'DUPLICATE', 'email');
    expect(await context.store.getUser('user-alice-again')).toBeUndefined();
    await context.store.write(async (tx) => {
      await tx.insertUser(serviceAccountFixture('robot-1'));
      await tx.insertUser(serviceAccountFixture('robot-2'));
    });
    expect(await context.store.countUsers()).toBe(3);
  });

  it('lists users by id without password hashes, and stored users with them, walking keyset pages to the end', async () => {
    const users = ['mallory', 'alice', 'trent', 'bob', 'eve'].map((name) => userFixture(name));
    users.push(serviceAccountFixture('carol'));
    await context.store.write(async (tx) => {
      for (const user of users) await tx.insertUser(user);
    });
    const byId = [...users].sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const limit of [1, 2, 4, 6, 10]) {
      const listed = await walkPages((request) => context.store.listUsers(request), limit);
      expect(listed.items, `limit ${limit}`).toEqual(byId.map(withoutHash));
      for (const user of listed.items) expect(Object.keys(user)).not.toContain('password_hash');
      const stored = await walkPages((request) => context.store.listStoredUsers(request), limit);
      expect(stored.items, `limit ${limit}`).toEqual(byId);
    }
    expect((await context.store.listUsers({ limit: 2 })).next).toEqual(['user-bob']);
    expect((await context.store.listStoredUsers({ limit: 2 })).next).toEqual(['user-bob']);
    expect((await context.store.listUsers({ limit: 10, after: ['user-eve'] })).items.map((user) => user.id))
      .toEqual(['user-mallory', 'user-trent']);
    expect((await context.store.listStoredUsers({ limit: 10, after: ['user-mallory'] })).items.map((user) => user.id)).toEqual(['user-trent']);
  });

  it('counts users, and active admins only: active users whose permissions include admin: true', async () => {
    expect(await context.store.countUsers()).toBe(0);
    expect(await context.store.countActiveAdmins()).toBe(0);
    await context.store.write(async (tx) => {
      await tx.insertUser(adminFixture('root'));
      await tx.insertUser(adminFixture('retired', { is_active: false }));
      await tx.insertUser(userFixture('not-admin', { permissions: { admin: false, 'users:manage': true } }));
      await tx.insertUser(userFixture('manager', { permissions: { 'users:manage': true, 'settings:write': true } }));
      await tx.insertUser(serviceAccountFixture('robot-admin', { permissions: { admin: true, 'journals:create': true } }));
      await tx.insertUser(userFixture('nobody'));
    });
    expect(await context.store.countUsers()).toBe(6);
    expect(await context.store.countActiveAdmins()).toBe(2);
    await context.store.write((tx) => tx.updateUser('user-robot-admin', { permissions: { admin: false } }));
    expect(await context.store.countActiveAdmins()).toBe(1);
    await context.store.write((tx) => tx.updateUser('user-retired', { is_active: true }));
    expect(await context.store.countActiveAdmins()).toBe(2);
    await context.store.write((tx) => tx.updateUser('user-manager', { permissions: { admin: true } }));
    expect(await context.store.countActiveAdmins()).toBe(3);
    await context.store.write((tx) => tx.updateUser('user-root', { is_active: false }));
    expect(await context.store.countActiveAdmins()).toBe(2);
    expect(await context.store.countUsers()).toBe(6);
  });

  it('updates only the name, permissions, activity and password hash it is given', async () => {
    const alice = userFixture('alice', { permissions: { 'journals:create': true } });
    await context.store.write((tx) => tx.insertUser(alice));
    await context.store.write((tx) => tx.updateUser(alice.id, { name: 'Alice Liddell' }));
    expect(await context.store.getUser(alice.id)).toEqual({ ...alice, name: 'Alice Liddell' });
    await context.store.write((tx) => tx.updateUser(alice.id, { permissions: { 'periods:close': true, 'journals:create': false } }));
    expect(await context.store.getUser(alice.id)).toEqual({ ...alice, name: 'Alice Liddell', permissions: { 'periods:close': true, 'journals:create': false } });
    await context.store.write((tx) => tx.updateUser(alice.id, { is_active: false, password_hash: 'scrypt$new' }));
    expect(await context.store.getUser(alice.id)).toEqual({
      ...alice, name: 'Alice Liddell', permissions: { 'periods:close': true, 'journals:create': false }, is_active: false, password_hash: 'scrypt$new',
    });
    await context.store.write((tx) => tx.updateUser(alice.id, { password_hash: null, permissions: {} }));
    expect(await context.store.getUser(alice.id)).toMatchObject({ password_hash: null, permissions: {} });
  });

  it('finds the user of an API key by its hash, with the id of the key that matched, and lists the keys as stored in id order', async () => {
    const robot = serviceAccountFixture('robot');
    const alice = userFixture('alice');
    const keys = [apiKeyFixture(robot, 'z-robot'), apiKeyFixture(alice, 'a-alice', { created_at: '2026-03-01T00:00:00.000Z' }), apiKeyFixture(robot, 'm-robot')];
    await context.store.write(async (tx) => {
      await tx.insertUser(robot);
      await tx.insertUser(alice);
      for (const key of keys) await tx.insertApiKey(key);
    });
    const version = await context.store.credentialsVersion();
    expect(await context.store.findUserByApiKeyHash('key-hash-z-robot')).toEqual({ ...robot, api_key_id: keys[0]!.id, credentials_version: version });
    expect(await context.store.findUserByApiKeyHash('key-hash-m-robot')).toEqual({ ...robot, api_key_id: keys[2]!.id, credentials_version: version });
    expect(await context.store.findUserByApiKeyHash('key-hash-a-alice')).toEqual({ ...alice, api_key_id: keys[1]!.id, credentials_version: version });
    expect(await context.store.findUserByApiKeyHash('key-hash-unknown')).toBeUndefined();
    expect(await context.store.allApiKeys()).toEqual([keys[1], keys[2], keys[0]]);
  });

  it('answers no API keys and no users for an empty store', async () => {
    expect(await context.store.allApiKeys()).toEqual([]);
    expect(await context.store.listUsers({ limit: 3 })).toEqual({ items: [], next: undefined });
    expect(await context.store.listStoredUsers({ limit: 3 })).toEqual({ items: [], next: undefined });
  });
});

describe('storage contract: refresh tokens', () => {
  const context = freshStorePerTest();
  const alice = userFixture('alice');

  const insertTokens = async () => {
    const tokens = {
      first: refreshTokenFixture(alice, 'first', 'family-a'),
      second: refreshTokenFixture(alice, 'second', 'family-a', { created_at: '2026-01-02T00:00:00.000Z' }),
      other: refreshTokenFixture(alice, 'other', 'family-b'),
    };
    await context.store.write(async (tx) => {
      await tx.insertUser(alice);
      for (const token of Object.values(tokens)) await tx.insertRefreshToken(token);
    });
    return tokens;
  };

  it('finds a refresh token by its hash exactly as stored, and nothing for an unknown hash', async () => {
    const tokens = await insertTokens();
    for (const token of Object.values(tokens)) expect(await context.store.findRefreshToken(token.token_hash)).toEqual(token);
    expect(await context.store.findRefreshToken('token-hash-unknown')).toBeUndefined();
  });

  it('revokes one token, recording when and by which token it was replaced', async () => {
    const tokens = await insertTokens();
    await context.store.write((tx) => tx.revokeRefreshToken(tokens.first.id, '2026-01-02T00:00:00.000Z', tokens.second.id));
    expect(await context.store.findRefreshToken(tokens.first.token_hash))
      .toEqual({ ...tokens.first, revoked_at: '2026-01-02T00:00:00.000Z', replaced_by: tokens.second.id });
    expect(await context.store.findRefreshToken(tokens.second.token_hash)).toEqual(tokens.second);
    await context.store.write((tx) => tx.revokeRefreshToken(tokens.other.id, '2026-01-03T00:00:00.000Z', null));
    expect(await context.store.findRefreshToken(tokens.other.token_hash)).toEqual({ ...tokens.other, revoked_at: '2026-01-03T00:00:00.000Z' });
  });

  it('revokes a whole family and no other, keeping the first revocation of a token revoked before', async () => {
    const tokens = await insertTokens();
    await context.store.write((tx) => tx.revokeRefreshToken(tokens.first.id, '2026-01-02T00:00:00.000Z', tokens.second.id));
    await context.store.write((tx) => tx.revokeRefreshFamily('family-a', '2026-01-05T00:00:00.000Z'));
    expect(await context.store.findRefreshToken(tokens.first.token_hash))
      .toEqual({ ...tokens.first, revoked_at: '2026-01-02T00:00:00.000Z', replaced_by: tokens.second.id });
    expect(await context.store.findRefreshToken(tokens.second.token_hash)).toEqual({ ...tokens.second, revoked_at: '2026-01-05T00:00:00.000Z' });
    expect(await context.store.findRefreshToken(tokens.other.token_hash)).toEqual(tokens.other);
  });

  it('reads a user with whether a session is open: some token of the family unrevoked, and of that user', async () => {
    const tokens = await insertTokens();
    const bob = userFixture('bob');
    await context.store.write((tx) => tx.insertUser(bob));
    expect(await context.store.getUserWithSession(alice.id, 'family-a')).toEqual({ ...alice, session_open: true });
    // A rotated family stays open while its newest token is unrevoked.
    await context.store.write((tx) => tx.revokeRefreshToken(tokens.first.id, '2026-01-02T00:00:00.000Z', tokens.second.id));
    expect((await context.store.getUserWithSession(alice.id, 'family-a'))?.session_open).toBe(true);
    await context.store.write((tx) => tx.revokeRefreshFamily('family-a', '2026-01-05T00:00:00.000Z'));
    expect((await context.store.getUserWithSession(alice.id, 'family-a'))?.session_open).toBe(false);
    expect((await context.store.getUserWithSession(alice.id, 'family-b'))?.session_open).toBe(true);
    expect(await context.store.getUserWithSession(bob.id, 'family-b')).toEqual({ ...bob, session_open: false });
    expect((await context.store.getUserWithSession(alice.id, 'family-unknown'))?.session_open).toBe(false);
    expect(await context.store.getUserWithSession('user-unknown', 'family-a')).toBeUndefined();
  });

  it('revokes every token of one user and no other user\'s, keeping earlier revocations', async () => {
    const tokens = await insertTokens();
    const bob = userFixture('bob');
    const bobs = refreshTokenFixture(bob, 'bobs', 'family-c');
    await context.store.write(async (tx) => { await tx.insertUser(bob); await tx.insertRefreshToken(bobs); });
    await context.store.write((tx) => tx.revokeRefreshToken(tokens.first.id, '2026-01-02T00:00:00.000Z', tokens.second.id));
    await context.store.write((tx) => tx.revokeUserRefreshTokens(alice.id, '2026-01-06T00:00:00.000Z'));
    expect((await context.store.findRefreshToken(tokens.first.token_hash))?.revoked_at).toBe('2026-01-02T00:00:00.000Z');
    expect((await context.store.findRefreshToken(tokens.second.token_hash))?.revoked_at).toBe('2026-01-06T00:00:00.000Z');
    expect((await context.store.findRefreshToken(tokens.other.token_hash))?.revoked_at).toBe('2026-01-06T00:00:00.000Z');
    expect(await context.store.findRefreshToken(bobs.token_hash)).toEqual(bobs);
  });
});

describe('storage contract: failed logins', () => {
  const context = freshStorePerTest();
  const at = (minute: number) => `2026-03-15T12:${String(minute).padStart(2, '0')}:00.000Z`;

  it('records one failure under each key and answers the newest since a time first, at most the limit', async () => {
    await context.store.write(async (tx) => {
      for (const minute of [1, 5, 3, 9, 7]) await tx.recordLoginFailure(['email:alice@example.com', 'client:10.0.0.1'], at(minute));
      await tx.recordLoginFailure(['client:10.0.0.2'], at(8));
    });
    expect(await context.store.recentLoginFailures('email:alice@example.com', at(0), 10)).toEqual([at(9), at(7), at(5), at(3), at(1)]);
    expect(await context.store.recentLoginFailures('client:10.0.0.1', at(0), 3)).toEqual([at(9), at(7), at(5)]);
    expect(await context.store.recentLoginFailures('client:10.0.0.1', at(4), 10)).toEqual([at(9), at(7), at(5)]);
    expect(await context.store.recentLoginFailures('client:10.0.0.2', at(0), 10)).toEqual([at(8)]);
    expect(await context.store.recentLoginFailures('email:bob@example.com', at(0), 10)).toEqual([]);
    expect(await context.store.recentLoginFailures('client:10.0.0.1', at(10), 10)).toEqual([]);
  });

  it('counts failures recorded at the same moment each', async () => {
    await context.store.write(async (tx) => {
      await tx.recordLoginFailure(['email:alice@example.com'], at(2));
      await tx.recordLoginFailure(['email:alice@example.com'], at(2));
    });
    await context.store.write((tx) => tx.recordLoginFailure(['email:alice@example.com'], at(2)));
    expect(await context.store.recentLoginFailures('email:alice@example.com', at(1), 10)).toEqual([at(2), at(2), at(2)]);
  });

  it('answers failures strictly after the given time', async () => {
    await context.store.write((tx) => tx.recordLoginFailure(['email:alice@example.com'], at(5)));
    expect(await context.store.recentLoginFailures('email:alice@example.com', at(5), 10)).toEqual([]);
    expect(await context.store.recentLoginFailures('email:alice@example.com', '2026-03-15T12:04:59.999Z', 10)).toEqual([at(5)]);
  });

  it('clears the failures of one key only', async () => {
    await context.store.write((tx) => tx.recordLoginFailure(['email:alice@example.com', 'client:10.0.0.1'], at(1)));
    await context.store.write((tx) => tx.clearLoginFailures('email:alice@example.com'));
    expect(await context.store.recentLoginFailures('email:alice@example.com', at(0), 10)).toEqual([]);
    expect(await context.store.recentLoginFailures('client:10.0.0.1', at(0), 10)).toEqual([at(1)]);
  });

  it('deletes the failures recorded strictly before a time, under every key', async () => {
    await context.store.write(async (tx) => {
      for (const minute of [1, 2, 3]) await tx.recordLoginFailure(['email:alice@example.com', 'client:10.0.0.1'], at(minute));
    });
    await context.store.write((tx) => tx.deleteLoginFailuresBefore(at(2)));
    expect(await context.store.recentLoginFailures('email:alice@example.com', at(0), 10)).toEqual([at(3), at(2)]);
    expect(await context.store.recentLoginFailures('client:10.0.0.1', at(0), 10)).toEqual([at(3), at(2)]);
  });
});

describe('storage contract: counting login attempts atomically', () => {
  const context = freshStorePerTest();
  const at = (minute: number) => `2026-03-15T12:${String(minute).padStart(2, '0')}:00.000Z`;

  it('forgets one failure per key recorded at a given time, leaving the others', async () => {
    await context.store.write(async (tx) => {
      await tx.recordLoginFailure(['pair:alice', 'client:10.0.0.1'], at(1));
      await tx.recordLoginFailure(['pair:alice', 'client:10.0.0.1'], at(1));
      await tx.recordLoginFailure(['pair:alice'], at(2));
    });
    await context.store.write((tx) => tx.forgetLoginFailure(['pair:alice', 'client:10.0.0.1'], at(1)));
    expect(await context.store.recentLoginFailures('pair:alice', at(0), 10)).toEqual([at(2), at(1)]);
    expect(await context.store.recentLoginFailures('client:10.0.0.1', at(0), 10)).toEqual([at(1)]);
    await context.store.write((tx) => tx.forgetLoginFailure(['client:10.0.0.1'], at(5)));
    expect(await context.store.recentLoginFailures('client:10.0.0.1', at(0), 10)).toEqual([at(1)]);
  });

  it('makes counting a key and recording one more failure atomic: forty concurrent claims under a limit of five record five', async () => {
    // A second store on the same database stands for a second server process.
    const other = await openStore(context.location);
    try {
      const claim = (store: LedgerStore) => store.write(async (tx) => {
        await tx.lockLoginKeys(['client:10.0.0.9', 'pair:bob']);
        if ((await tx.recentLoginFailures('pair:bob', at(0), 5)).length >= 5) return false;
        await tx.recordLoginFailure(['pair:bob', 'client:10.0.0.9'], at(3));
        return true;
      });
      const claims = await Promise.all(Array.from({ length: 40 }, (_, index) => claim(index % 2 === 0 ? context.store : other)));
      expect(claims.filter(Boolean)).toHaveLength(5);
      expect(await context.store.recentLoginFailures('pair:bob', at(0), 100)).toHaveLength(5);
      expect(await context.store.recentLoginFailures('client:10.0.0.9', at(0), 100)).toHaveLength(5);
    } finally {
      await other.close();
    }
  });
});

describe('storage contract: deleting a user\'s API keys', () => {
  const context = freshStorePerTest();

  it('deletes every key of one user and no other user\'s', async () => {
    const robot = serviceAccountFixture('robot');
    const other = serviceAccountFixture('other');
    await context.store.write(async (tx) => {
      await tx.insertUser(robot);
      await tx.insertUser(other);
      for (const key of [apiKeyFixture(robot, 'one'), apiKeyFixture(robot, 'two'), apiKeyFixture(other, 'three')]) await tx.insertApiKey(key);
    });
    await context.store.write((tx) => tx.deleteUserApiKeys(robot.id));
    expect(await context.store.findUserByApiKeyHash('key-hash-one')).toBeUndefined();
    expect(await context.store.findUserByApiKeyHash('key-hash-two')).toBeUndefined();
    expect((await context.store.findUserByApiKeyHash('key-hash-three'))?.id).toBe(other.id);
    expect((await context.store.allApiKeys()).map((key) => key.id)).toEqual(['api-key-three']);
  });
});

describe('storage contract: the credentials version', () => {
  const context = freshStorePerTest();
  const robot = serviceAccountFixture('robot');

  /** Runs `change` in a write and answers whether the version moved (and how it read inside the write). */
  async function moves(change: (tx: LedgerTx) => Promise<unknown>): Promise<boolean> {
    const before = await context.store.credentialsVersion();
    const inside = await context.store.write(async (tx) => {
      await change(tx);
      return tx.credentialsVersion();
    });
    const after = await context.store.credentialsVersion();
    // A write sees its own change of a user or key, as everyone does once it has committed.
    expect(inside).toBe(after);
    return after !== before;
  }

  it('moves with every change of a user or an API key, and only then', async () => {
    expect(await moves((tx) => tx.insertUser(robot))).toBe(true);
    expect(await moves((tx) => tx.insertApiKey(apiKeyFixture(robot, 'one')))).toBe(true);
    expect(await moves((tx) => tx.updateUser(robot.id, { is_active: false }))).toBe(true);
    expect(await moves((tx) => tx.updateUser(robot.id, { permissions: { 'journals:create': true } }))).toBe(true);
    expect(await moves((tx) => tx.deleteUserApiKeys(robot.id))).toBe(true);
    expect(await moves((tx) => tx.setSetting('company_name', 'Acme'))).toBe(false);
    expect(await moves((tx) => tx.recordLoginFailure(['robot@example.com'], '2026-03-01T00:00:00.000Z'))).toBe(false);
    expect(await moves((tx) => tx.insertCurrency(currencyFixture('USD')))).toBe(false);
  });

  it('reads the same inside a write as outside until something changes, and is read with a key\'s user', async () => {
    await context.store.write(async (tx) => {
      await tx.insertUser(robot);
      await tx.insertApiKey(apiKeyFixture(robot, 'one'));
    });
    const version = await context.store.credentialsVersion();
    expect(await context.store.write((tx) => tx.credentialsVersion())).toBe(version);
    expect(await context.store.read((reads) => reads.credentialsVersion())).toBe(version);
    expect((await context.store.findUserByApiKeyHash('key-hash-one'))?.credentials_version).toBe(version);
  });

  it('is back to what it was when the write that changed a user rolls back', async () => {
    await context.store.write((tx) => tx.insertUser(robot));
    const version = await context.store.credentialsVersion();
    await expect(context.store.write(async (tx) => {
      await tx.updateUser(robot.id, { is_active: false });
      expect(await tx.credentialsVersion()).not.toBe(version);
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    expect(await context.store.credentialsVersion()).toBe(version);
    expect(await context.store.write((tx) => tx.credentialsVersion())).toBe(version);
  });

  it('is as committed for a later job of the same group when an earlier job changed a user and failed', async () => {
    await context.store.write((tx) => tx.insertUser(robot));
    const version = await context.store.credentialsVersion();
    const outcomes = await Promise.allSettled([
      context.store.write((tx) => tx.getSetting('company_name')),
      context.store.write(async (tx) => {
        await tx.updateUser(robot.id, { is_active: false });
        await tx.credentialsVersion();
        throw new Error('changed my mind');
      }),
      context.store.write((tx) => tx.credentialsVersion()),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[2] as PromiseFulfilledResult<string>).value).toBe(version);
  });

  it('moves for a later job of the same group when an earlier job changed a user', async () => {
    await context.store.write((tx) => tx.insertUser(robot));
    const version = await context.store.credentialsVersion();
    // Queued together behind a first write, so that a store that groups writes runs the last two in one transaction.
    const [, , seen] = await Promise.all([
      context.store.write((tx) => tx.getSetting('company_name')),
      context.store.write((tx) => tx.updateUser(robot.id, { is_active: false })),
      context.store.write((tx) => tx.credentialsVersion()),
    ]);
    expect(seen).not.toBe(version);
    expect(seen).toBe(await context.store.credentialsVersion());
  });
});

describe('storage contract: idempotency keys', () => {
  const context = freshStorePerTest();
  const at = (hour: number) => `2026-03-15T${String(hour).padStart(2, '0')}:00:00.000Z`;
  const reserve = (principal: string, key: string, hash = 'hash-1', createdAt = at(1)) =>
    context.store.write((tx) => tx.reserveIdempotencyKey(principal, key, hash, createdAt));

  it('reserves a key once per principal and key, keeping the first request\'s hash', async () => {
    expect(await reserve('user-alice', 'key-1', 'hash-1')).toBe(true);
    expect(await reserve('user-alice', 'key-1', 'hash-1')).toBe(false);
    expect(await reserve('user-alice', 'key-1', 'hash-2')).toBe(false);
    expect(await reserve('user-bob', 'key-1', 'hash-3')).toBe(true);
    expect(await reserve('user-alice', 'key-2', 'hash-4')).toBe(true);
    expect(await context.store.getIdempotencyRecord('user-alice', 'key-1'))
      .toEqual({ request_hash: 'hash-1', status_code: null, response_body: null, created_at: at(1) });
    expect(await context.store.getIdempotencyRecord('user-bob', 'key-1')).toMatchObject({ request_hash: 'hash-3' });
    expect(await context.store.getIdempotencyRecord('user-carol', 'key-1')).toBeUndefined();
    expect(await context.store.getIdempotencyRecord('user-alice', 'key-3')).toBeUndefined();
  });

  it('reserves a key for exactly one of several jobs reserving it at the same time', async () => {
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, index) => reserve('user-alice', 'key-1', `hash-${index}`)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await context.store.getIdempotencyRecord('user-alice', 'key-1'))?.request_hash).toBe(`hash-${outcomes.indexOf(true)}`);
  });

  it('completes a reservation with the answer to replay', async () => {
    await reserve('user-alice', 'key-1');
    const body = JSON.stringify({ data: { id: 'entry-0001', amount: '170141183460469231731687303715884105727', note: 'Zürich ✓' } });
    await context.store.write((tx) => tx.completeIdempotencyKey('user-alice', 'key-1', 201, body));
    expect(await context.store.getIdempotencyRecord('user-alice', 'key-1'))
      .toEqual({ request_hash: 'hash-1', status_code: 201, response_body: body, created_at: at(1) });
    expect(await reserve('user-alice', 'key-1')).toBe(false);
  });

  it('releases a reservation, pending or completed, so that the key can be reserved again', async () => {
    await reserve('user-alice', 'pending');
    await context.store.write((tx) => tx.releaseIdempotencyKey('user-alice', 'pending'));
    expect(await context.store.getIdempotencyRecord('user-alice', 'pending')).toBeUndefined();
    expect(await reserve('user-alice', 'pending', 'hash-2')).toBe(true);
    await reserve('user-alice', 'done');
    await context.store.write((tx) => tx.completeIdempotencyKey('user-alice', 'done', 200, '{}'));
    await context.store.write((tx) => tx.releaseIdempotencyKey('user-alice', 'done'));
    expect(await context.store.getIdempotencyRecord('user-alice', 'done')).toBeUndefined();
    await context.store.write((tx) => tx.releaseIdempotencyKey('user-alice', 'never-reserved'));
  });

  it('locks a key for the rest of its write transaction; the next transaction can lock it again', async () => {
    expect(await context.store.write(async (tx) => [await tx.lockIdempotencyKey('user-alice', 'key-1'),
      await tx.lockIdempotencyKey('user-alice', 'key-1'), await tx.lockIdempotencyKey('user-bob', 'key-1')])).toEqual([true, true, true]);
    expect(await context.store.write((tx) => tx.lockIdempotencyKey('user-alice', 'key-1'))).toBe(true);
  });

  it('deletes the keys created strictly before a time, whoever reserved them and whatever their state', async () => {
    await reserve('user-alice', 'old', 'hash', at(1));
    await reserve('user-bob', 'old-done', 'hash', at(2));
    await context.store.write((tx) => tx.completeIdempotencyKey('user-bob', 'old-done', 201, '{}'));
    await reserve('user-alice', 'boundary', 'hash', at(3));
    await reserve('user-alice', 'new', 'hash', at(4));
    await context.store.write((tx) => tx.deleteIdempotencyKeysBefore(at(3)));
    expect(await context.store.getIdempotencyRecord('user-alice', 'old')).toBeUndefined();
    expect(await context.store.getIdempotencyRecord('user-bob', 'old-done')).toBeUndefined();
    expect(await context.store.getIdempotencyRecord('user-alice', 'boundary')).toMatchObject({ created_at: at(3) });
    expect(await context.store.getIdempotencyRecord('user-alice', 'new')).toMatchObject({ created_at: at(4) });
    expect(await reserve('user-alice', 'old')).toBe(true);
  });
});
