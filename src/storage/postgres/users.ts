/** Users, API keys, sessions (refresh tokens), failed logins and idempotency keys. */
import type {
  ApiKeyRecord, IdempotencyRecord, LedgerReads, LedgerWrites, RefreshTokenRecord,
} from '../../service/ports/ledger-store.js';
import { mapPage, page } from '../shared/paging.js';
import { type UserRow, toUser } from '../shared/rows.js';
import type { PgQueries } from './queries.js';
import type { ApiKeyUser, NewUserRecord, StoredUser, UserChanges } from '../../service/ports/credentials-store.js';
import type { PageRequest, StorePage } from '../../service/ports/store-pages.js';
import type { User } from '../../domain/types.js';

export abstract class PostgresCredentialReads implements Partial<LedgerReads> {
  declare readonly q: PgQueries;

  async getUser(id: string): Promise<StoredUser | undefined> {
    const row = await this.q.get<UserRow>('SELECT * FROM users WHERE id = $1', id);
    return row && toUser(row);
  }

  async getUserWithSession(id: string, sessionId: string): Promise<(StoredUser & { session_open: boolean; }) | undefined> {
    const row = await this.q.get<UserRow & { session_open: boolean }>(`SELECT u.*, EXISTS (SELECT 1 FROM refresh_tokens r
      WHERE r.family_id = $1 AND r.user_id = u.id AND r.revoked_at IS NULL) AS session_open FROM users u WHERE u.id = $2`, sessionId, id);
    return row && { ...toUser(row), session_open: row.session_open };
  }

  async findUserByEmail(email: string): Promise<StoredUser | undefined> {
    // SQLite compares e-mails case-insensitively (COLLATE NOCASE); so does this, by its index.
    const row = await this.q.get<UserRow>('SELECT * FROM users WHERE lower(email) = lower($1)', email);
    return row && toUser(row);
  }

  async findUserByApiKeyHash(keyHash: string): Promise<ApiKeyUser | undefined> {
    // One statement, one snapshot: the version is the one the user and key were read at.
    const row = await this.q.get<UserRow & { api_key_id: string; credentials_version: string }>(`SELECT u.*, k.id AS api_key_id,
      (SELECT version::text FROM catalog_versions WHERE name = 'credentials') AS credentials_version
      FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = $1`, keyHash);
    return row && { ...toUser(row), api_key_id: row.api_key_id, credentials_version: row.credentials_version };
  }

  async credentialsVersion(): Promise<string> {
    return (await this.q.get<{ version: string }>("SELECT version::text AS version FROM catalog_versions WHERE name = 'credentials'"))!.version;
  }

  async listUsers(request: PageRequest): Promise<StorePage<User>> {
    const rows = await this.q.all<UserRow>('SELECT * FROM users WHERE id > $1 ORDER BY id LIMIT $2', String(request.after?.[0] ?? ''), request.limit + 1);
    return mapPage(page(rows, request.limit, (u) => [u.id]), (row) => {
      const { password_hash: _hash, ...user } = toUser(row);
      return user;
    });
  }

  async listStoredUsers(request: PageRequest): Promise<StorePage<StoredUser>> {
    const rows = await this.q.all<UserRow>('SELECT * FROM users WHERE id > $1 ORDER BY id LIMIT $2', String(request.after?.[0] ?? ''), request.limit + 1);
    return mapPage(page(rows, request.limit, (u) => [u.id]), toUser);
  }

  async allApiKeys(): Promise<ApiKeyRecord[]> {
    return this.q.all<ApiKeyRecord & Record<string, unknown>>('SELECT id, user_id, key_hash, created_at FROM api_keys ORDER BY id');
  }

  async countUsers(): Promise<number> {
    // In a write transaction, the first-user setup of two processes at once runs one after the other.
    if (this.q.locking) await this.q.run("SELECT pg_advisory_xact_lock(hashtext('ledger.setup'))");
    return (await this.q.get<{ count: number }>('SELECT count(*) AS count FROM users'))!.count;
  }

  async countActiveAdmins(): Promise<number> {
    // In a write transaction every active admin row is locked, so two requests removing two
    // different admins at once run one after the other and the second sees the first's change.
    const admins = "SELECT id FROM users WHERE is_active AND (permissions::jsonb ->> 'admin') = 'true'";
    return (await this.q.get<{ count: number }>(
      `SELECT count(*) AS count FROM (${admins}${this.q.locking ? ' FOR UPDATE' : ''}) AS admins`))!.count;
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    // In a write transaction the token is locked: of two rotations at once, one wins.
    return this.q.get<RefreshTokenRecord & Record<string, unknown>>(
      `SELECT * FROM refresh_tokens WHERE token_hash = $1${this.q.locking ? ' FOR UPDATE' : ''}`, tokenHash);
  }

  async recentLoginFailures(key: string, since: string, limit: number): Promise<string[]> {
    const rows = await this.q.all<{ failed_at: string }>(
      'SELECT failed_at FROM login_failures WHERE key = $1 AND failed_at > $2 ORDER BY failed_at DESC LIMIT $3', key, since, limit);
    return rows.map((row) => row.failed_at);
  }

  async getIdempotencyRecord(principalId: string, key: string): Promise<IdempotencyRecord | undefined> {
    return this.q.get<IdempotencyRecord & Record<string, unknown>>(
      'SELECT request_hash, status_code, response_body, created_at FROM idempotency_keys WHERE principal_id = $1 AND key = $2',
      principalId, key);
  }
}

/** `credentialsChanged` is told before each write of a user or an API key (the transaction's version then moves). */
export abstract class PostgresCredentialWrites implements Partial<LedgerWrites> {
  declare readonly q: PgQueries;
  declare readonly credentialsChanged: () => void;

  async insertUser(user: NewUserRecord): Promise<void> {
    this.credentialsChanged();
    await this.q.run(`INSERT INTO users (id, name, email, user_type, password_hash, permissions, is_active, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, user.id, user.name, user.email, user.user_type, user.password_hash,
    JSON.stringify(user.permissions), user.is_active, user.created_at);
  }

  async updateUser(id: string, changes: UserChanges): Promise<void> {
    this.credentialsChanged();
    const { permissions, ...rest } = changes;
    await this.q.update('users', id, permissions === undefined ? rest : { ...rest, permissions: JSON.stringify(permissions) });
  }

  async insertApiKey(key: ApiKeyRecord): Promise<void> {
    this.credentialsChanged();
    await this.q.run('INSERT INTO api_keys (id, user_id, key_hash, created_at) VALUES ($1, $2, $3, $4)', key.id, key.user_id, key.key_hash, key.created_at);
  }

  async deleteUserApiKeys(userId: string): Promise<void> {
    this.credentialsChanged();
    await this.q.run('DELETE FROM api_keys WHERE user_id = $1', userId);
  }

  async insertRefreshToken(token: RefreshTokenRecord): Promise<void> {
    await this.q.run(`INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at, revoked_at, replaced_by)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, token.id, token.user_id, token.family_id, token.token_hash, token.created_at,
    token.expires_at, token.revoked_at, token.replaced_by);
  }

  async revokeRefreshToken(id: string, revokedAt: string, replacedBy: string | null): Promise<void> {
    await this.q.run('UPDATE refresh_tokens SET revoked_at = $1, replaced_by = $2 WHERE id = $3 AND revoked_at IS NULL', revokedAt, replacedBy, id);
  }

  async revokeRefreshFamily(familyId: string, revokedAt: string): Promise<void> {
    await this.q.run('UPDATE refresh_tokens SET revoked_at = $1 WHERE family_id = $2 AND revoked_at IS NULL', revokedAt, familyId);
  }

  async revokeUserRefreshTokens(userId: string, revokedAt: string): Promise<void> {
    await this.q.run('UPDATE refresh_tokens SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL', revokedAt, userId);
  }

  async recordLoginFailure(keys: readonly string[], failedAt: string): Promise<void> {
    await this.q.run('INSERT INTO login_failures (key, failed_at) SELECT key, $2 FROM unnest($1::text[]) AS key', [...keys], failedAt);
  }

  async lockLoginKeys(keys: readonly string[]): Promise<void> {
    // Transaction-scoped advisory locks, taken in one order so that two logins never wait on each
    // other crosswise (a deadlock would still only roll back and rerun the job).
    const sorted = [...new Set(keys)].sort();
    await this.q.run("SELECT pg_advisory_xact_lock(hashtextextended('ledger.login:' || key, 0)) FROM unnest($1::text[]) WITH ORDINALITY AS k(key, n) ORDER BY n",
      sorted);
  }

  async forgetLoginFailure(keys: readonly string[], failedAt: string): Promise<void> {
    for (const key of keys) {
      await this.q.run(`DELETE FROM login_failures WHERE ctid = (
        SELECT ctid FROM login_failures WHERE key = $1 AND failed_at = $2 LIMIT 1)`, key, failedAt);
    }
  }

  async clearLoginFailures(key: string): Promise<void> {
    await this.q.run('DELETE FROM login_failures WHERE key = $1', key);
  }

  async deleteLoginFailuresBefore(before: string): Promise<void> {
    await this.q.run('DELETE FROM login_failures WHERE failed_at < $1', before);
  }

  async lockIdempotencyKey(principalId: string, key: string): Promise<boolean> {
    // A transaction advisory lock: released at COMMIT or ROLLBACK, or when a dead server's connection goes.
    const row = await this.q.get<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
      `${principalId}\n${key}`);
    return row!.locked;
  }

  async reserveIdempotencyKey(principalId: string, key: string, requestHash: string, createdAt: string): Promise<boolean> {
    // A concurrent reservation of the same key (any process) waits for the first to commit and then inserts nothing.
    return (await this.q.run(`INSERT INTO idempotency_keys (principal_id, key, request_hash, created_at)
      VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, principalId, key, requestHash, createdAt)) === 1;
  }

  async completeIdempotencyKey(principalId: string, key: string, statusCode: number, responseBody: string): Promise<void> {
    await this.q.run('UPDATE idempotency_keys SET status_code = $1, response_body = $2 WHERE principal_id = $3 AND key = $4',
      statusCode, responseBody, principalId, key);
  }

  async releaseIdempotencyKey(principalId: string, key: string): Promise<void> {
    await this.q.run('DELETE FROM idempotency_keys WHERE principal_id = $1 AND key = $2', principalId, key);
  }

  async deleteIdempotencyKeysBefore(createdBefore: string): Promise<void> {
    await this.q.run('DELETE FROM idempotency_keys WHERE created_at < $1', createdBefore);
  }
}
