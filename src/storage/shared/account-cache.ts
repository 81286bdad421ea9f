/**
 * Accounts a write path remembers: posting reads the accounts of every entry, and the entries of a
 * group, a batch or an import mostly use the same few. Each adapter says how long they stay valid:
 * PostgreSQL across transactions while the database's accounts version is unchanged, SQLite for one
 * write transaction (which holds the file's write lock, so no other process changes an account
 * meanwhile). Both forget them when the transaction changes an account or rolls a job back.
 */
import type { Account } from '../../domain/types.js';

/** More accounts than this in memory, and the cache starts again. */
const MAX_CACHED_ACCOUNTS = 10_000;

export class AccountCache {
  private version: string | undefined;
  private readonly accounts = new Map<string, Account>();

  /** As a transaction begins: keeps the accounts only if no process has changed one since they were read. */
  validate(version: string): void {
    if (version === this.version) return;
    this.accounts.clear();
    this.version = version;
  }

  /** This process changed an account, or a transaction that may have read its own changes did not commit. */
  clear(): void {
    this.accounts.clear();
    this.version = undefined;
  }

  /** `getAccounts` answered from memory where it can; `load` reads the others, which are then remembered. */
  async getAccounts(ids: readonly string[], load: (ids: readonly string[]) => Promise<Map<string, Account>>): Promise<Map<string, Account>> {
    const found = new Map<string, Account>();
    const missing: string[] = [];
    for (const id of ids) {
      const account = this.accounts.get(id);
      if (account) found.set(id, account);
      else missing.push(id);
    }
    if (missing.length > 0) {
      for (const [id, account] of await load(missing)) {
        if (this.accounts.size >= MAX_CACHED_ACCOUNTS) this.accounts.clear();
        this.accounts.set(id, account);
        found.set(id, account);
      }
    }
    return found;
  }
}
