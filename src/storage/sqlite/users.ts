/** Users, API keys, sessions (refresh tokens), failed logins and idempotency keys. */
import type { ApiKeyRecord, LedgerReads, LedgerWrites, RefreshTokenRecord } from '../../service/ports/ledger-store.js';
import { mapPage, page } from '../shared/paging.js';
import type { SqliteQueries } from './queries.js';
import { type UserRow, toUser } from '../shared/rows.js';
import type { ApiKeyUser, NewUserRecord, StoredUser, UserChanges } from '../../service/ports/credentials-store.js';
import type { IdempotencyRecord } from '../../service/ports/idempotency-store.js';
import type { PageRequest, StorePage } from '../../service/ports/store-pages.js';
import type { User } from '../../domain/types.js';

export abstract class SqliteCredentialReads implements Partial<LedgerReads> {
  declare readonly q: SqliteQueries;

  async getUser(id: string): Promise<StoredUser | undefined> {
    const row = this.q.get<UserRow>('SELECT * FROM users WHERE id = ?', id);
    return row && toUser(row);
  }

  async getUserWithSession(id: string, sessionId: string): Promise<(StoredUser & { session_open: boolean; }) | undefined> {
    const row = this.q.get<UserRow & { session_open: number }>(`SELECT u.*, EXISTS (SELECT 1 FROM refresh_tokens r
      WHERE r.family_id = ? AND r.user_id = u.id AND r.revoked_at IS NULL) AS session_open FROM users u WHERE u.id = ?`, sessionId, id);
    return row && { ...toUser(row), session_open: row.session_open === 1 };
  }

  async findUserByEmail(email: string): Promise<StoredUser | undefined> {
    const row = this.q.get<UserRow>('SELECT * FROM users WHERE email = ?', email);
    return row && toUser(row);
  }

  async findUserByApiKeyHash(keyHash: string): Promise<ApiKeyUser | undefined> {
    const row = this.q.get<UserRow & { api_key_id: string; credentials_version: number }>(`SELECT u.*, k.id AS api_key_id,
      (SELECT version FROM catalog_versions WHERE name = 'credentials') AS credentials_version
      FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?`, keyHash);
    return row && { ...toUser(row), api_key_id: row.api_key_id, credentials_version: String(row.credentials_version) };
  }

  async credentialsVersion(): Promise<string> {
    return String(this.q.get<{ version: number }>("SELECT version FROM catalog_versions WHERE name = 'credentials'")!.version);
  }

  async listUsers(request: PageRequest): Promise<StorePage<User>> {
    const rows = this.q.all<UserRow>('SELECT * FROM users WHERE id > ? ORDER BY id LIMIT ?', String(request.after?.[0] ?? ''), request.limit + 1);
    return mapPage(page(rows, request.limit, (u) => [u.id]), (row) => {
      const { password_hash: _hash, ...user } = toUser(row);
      return user;
    });
  }

  async listStoredUsers(request: PageRequest): Promise<StorePage<StoredUser>> {
    const rows = this.q.all<UserRow>('SELECT * FROM users WHERE id > ? ORDER BY id LIMIT ?', String(request.after?.[0] ?? ''), request.limit + 1);
    return mapPage(page(rows, request.limit, (u) => [u.id]), toUser);
  }

  async allApiKeys(): Promise<ApiKeyRecord[]> {
    return this.q.all<ApiKeyRecord>('SELECT id, user_id, key_hash, created_at FROM api_keys ORDER BY id');
  }

  async countUsers(): Promise<number> {
    return this.q.get<{ count: number }>('SELECT COUNT(*) AS count FROM users')!.count;
  }

  async countActiveAdmins(): Promise<number> {
    return this.q.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM users WHERE is_active = 1 AND json_extract(permissions, '$.admin') = 1")!.count;
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    return this.q.get<RefreshTokenRecord>('SELECT * FROM refresh_tokens WHERE token_hash = ?', tokenHash);
  }

  async recentLoginFailures(key: string, since: string, limit: number): Promise<string[]> {
    return this.q.all<{ failed_at: string }>(
      'SELECT failed_at FROM login_failures WHERE key = ? AND failed_at > ? ORDER BY failed_at DESC LIMIT ?', key, since, limit)
      .map((row) => row.failed_at);
  }

  async getIdempotencyRecord(principalId: string, key: string): Promise<IdempotencyRecord | undefined> {
    return this.q.get('SELECT request_hash, status_code, response_body, created_at FROM idempotency_keys WHERE principal_id = ? AND key = ?',
      principalId, key);
  }
}

export abstract class SqliteCredentialWrites implements Partial<LedgerWrites> {
  declare readonly q: SqliteQueries;

  async insertUser(user: NewUserRecord): Promise<void> {
    this.q.run(`INSERT INTO users (id, name, email, user_type, password_hash, permissions, is_active, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, user.id, user.name, user.email, user.user_type, user.password_hash,
    JSON.stringify(user.permissions), user.is_active ? 1 : 0, user.created_at);
  }

  async updateUser(id: string, changes: UserChanges): Promise<void> {
    const { permissions, ...rest } = changes;
    this.q.update('users', id, permissions === undefined ? rest : { ...rest, permissions: JSON.stringify(permissions) });
  }

  async insertApiKey(key: ApiKeyRecord): Promise<void> {
    this.q.run('INSERT INTO api_keys (id, user_id, key_hash, created_at) VALUES (?, ?, ?, ?)', key.id, key.user_id, key.key_hash, key.created_at);
  }

  async deleteUserApiKeys(userId: string): Promise<void> {
    this.q.run('DELETE FROM api_keys WHERE user_id = ?', userId);
  }

  async insertRefreshToken(token: RefreshTokenRecord): Promise<void> {
    this.q.run(`INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at, revoked_at, replaced_by)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, token.id, token.user_id, token.family_id, token.token_hash, token.created_at,
    token.expires_at, token.revoked_at, token.replaced_by);
  }

  async revokeRefreshToken(id: string, revokedAt: string, replacedBy: string | null): Promise<void> {
    this.q.run('UPDATE refresh_tokens SET revoked_at = ?, replaced_by = ? WHERE id = ? AND revoked_at IS NULL', revokedAt, replacedBy, id);
  }

  async revokeRefreshFamily(familyId: string, revokedAt: string): Promise<void> {
    this.q.run('UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL', revokedAt, familyId);
  }

  async revokeUserRefreshTokens(userId: string, revokedAt: string): Promise<void> {
    this.q.run('UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL', revokedAt, userId);
  }

  async recordLoginFailure(keys: readonly string[], failedAt: string): Promise<void> {
    for (const key of keys) this.q.run('INSERT INTO login_failures (key, failed_at) VALUES (?, ?)', key, failedAt);
  }

  async lockLoginKeys(): Promise<void> {
    // Every write transaction holds SQLite's one write lock (BEGIN IMMEDIATE): nothing to add.
  }

  async forgetLoginFailure(keys: readonly string[], failedAt: string): Promise<void> {
    for (const key of keys) {
      this.q.run('DELETE FROM login_failures WHERE rowid = (SELECT rowid FROM login_failures WHERE key = ? AND failed_at = ? LIMIT 1)',
        key, failedAt);
    }
  }

  async clearLoginFailures(key: string): Promise<void> {
    this.q.run('DELETE FROM login_failures WHERE key = ?', key);
  }

  async deleteLoginFailuresBefore(before: string): Promise<void> {
    this.q.run('DELETE FROM login_failures WHERE failed_at < ?', before);
  }

  // One writer at a time holds the database (a write transaction is BEGIN IMMEDIATE): no other
  // transaction can be acting under the key while this one runs.
  async lockIdempotencyKey(): Promise<boolean> {
    return true;
  }

  async reserveIdempotencyKey(principalId: string, key: string, requestHash: string, createdAt: string): Promise<boolean> {
    const result = this.q.run(`INSERT INTO idempotency_keys (principal_id, key, request_hash, created_at)
      VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, principalId, key, requestHash, createdAt);
    return result.changes === 1;
  }

  async completeIdempotencyKey(principalId: string, key: string, statusCode: number, responseBody: string): Promise<void> {
    this.q.run('UPDATE idempotency_keys SET status_code = ?, response_body = ? WHERE principal_id = ? AND key = ?',
      statusCode, responseBody, principalId, key);
  }

  async releaseIdempotencyKey(principalId: string, key: string): Promise<void> {
    this.q.run('DELETE FROM idempotency_keys WHERE principal_id = ? AND key = ?', principalId, key);
  }

  async deleteIdempotencyKeysBefore(createdBefore: string): Promise<void> {
    this.q.run('DELETE FROM idempotency_keys WHERE created_at < ?', createdBefore);
  }
}
