/**
 * The storage port's credentials concern: users, API keys, login sessions (refresh tokens) and the
 * login throttle. Composed into LedgerReads and LedgerWrites (ledger-store.ts).
 */
import type { User } from '../../domain/types.js';
import type { PageRequest, StorePage } from './store-pages.js';

export interface StoredUser extends User {
  password_hash: string | null;
}

/** A user found by one of its API keys, with the id of the key that matched. */
export interface ApiKeyUser extends StoredUser {
  api_key_id: string;
  /** The credentials version (`credentialsVersion`) this user and key were read at. */
  credentials_version: string;
}

export interface ApiKeyRecord {
  id: string;
  user_id: string;
  key_hash: string;
  created_at: string;
}

export interface RefreshTokenRecord {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  replaced_by: string | null;
}

export interface NewUserRecord extends User {
  password_hash: string | null;
}

export interface CredentialReads {
  getUser(id: string): Promise<StoredUser | undefined>;
  /**
   * The user of an access token, read with whether its login session (refresh-token family) is
   * still open: some token of the family not revoked. Logout, refresh-token reuse, deactivation
   * and "sign out everywhere" revoke the family, which ends its access tokens at once.
   */
  getUserWithSession(id: string, sessionId: string): Promise<(StoredUser & { session_open: boolean }) | undefined>;
  findUserByEmail(email: string): Promise<StoredUser | undefined>;
  findUserByApiKeyHash(keyHash: string): Promise<ApiKeyUser | undefined>;
  /**
   * A value that changes whenever any user or API key changes, in any process (the database keeps
   * it). Equal values mean that every user and key is as it was: what was read at one value still
   * holds. Inside a write transaction, the value as that transaction sees it.
   */
  credentialsVersion(): Promise<string>;
  listUsers(page: PageRequest): Promise<StorePage<User>>;
  countUsers(): Promise<number>;
  /** Active users whose permissions include admin. */
  countActiveAdmins(): Promise<number>;
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /** Times (ISO) of the newest failed logins recorded for the key since `since`, newest first, at most `limit`. */
  recentLoginFailures(key: string, since: string, limit: number): Promise<string[]>;
}

/** What an update of a user may change. */
export type UserChanges = Partial<Pick<StoredUser, 'name' | 'permissions' | 'is_active' | 'password_hash'>>;

export interface CredentialWrites {
  insertUser(user: NewUserRecord): Promise<void>;
  updateUser(id: string, changes: UserChanges): Promise<void>;
  insertApiKey(key: ApiKeyRecord): Promise<void>;
  /** Deletes every API key of the user (a rotation deletes the old key before inserting the new one). */
  deleteUserApiKeys(userId: string): Promise<void>;
  insertRefreshToken(token: RefreshTokenRecord): Promise<void>;
  revokeRefreshToken(id: string, revokedAt: string, replacedBy: string | null): Promise<void>;
  revokeRefreshFamily(familyId: string, revokedAt: string): Promise<void>;
  /** Revokes every refresh token of the user: every login session ends. */
  revokeUserRefreshTokens(userId: string, revokedAt: string): Promise<void>;

  /** Records one failed login under each key (an e-mail, a client address). */
  recordLoginFailure(keys: readonly string[], failedAt: string): Promise<void>;
  /**
   * Holds the throttle's keys until the transaction ends, so that counting a key's failures and
   * recording one more is atomic among all processes on the database (a login counts its attempt
   * before the password is hashed). SQLite's single write lock already does this.
   */
  lockLoginKeys(keys: readonly string[]): Promise<void>;
  /** Deletes one failure recorded at `failedAt` under each key: an attempt counted beforehand that succeeded. */
  forgetLoginFailure(keys: readonly string[], failedAt: string): Promise<void>;
  clearLoginFailures(key: string): Promise<void>;
  deleteLoginFailuresBefore(before: string): Promise<void>;
}
