/**
 * API keys this process has checked, so that a post under a key need not read the key before it
 * is queued: on PostgreSQL that read is a round trip of its own on every request, which cost the
 * posting path about as much again as the post itself. How a remembered key is used safely is in
 * authenticate.ts (`confirmCredential`).
 */
import type { ApiKeyUser } from '../ports/ledger-store.js';

/** More keys than any deployment has agents; past it the least recently checked key is forgotten. */
const CAPACITY = 10_000;

export class CredentialCache {
  /** By the key's SHA-256, in the order they were last remembered (oldest first). */
  private readonly users = new Map<string, ApiKeyUser>();

  get(keyHash: string): ApiKeyUser | undefined {
    return this.users.get(keyHash);
  }

  /**
   * Remembers a key's active user as committed data showed it (never what a write transaction
   * read: it may see its own changes, which may yet roll back); an inactive user's key is forgotten.
   */
  remember(keyHash: string, user: ApiKeyUser): void {
    this.users.delete(keyHash);
    if (!user.is_active) return;
    this.users.set(keyHash, user);
    if (this.users.size > CAPACITY) this.users.delete(this.users.keys().next().value!);
  }

  forget(keyHash: string): void {
    this.users.delete(keyHash);
  }
}
