/**
 * Accounts remembered for the length of one write transaction: posting reads the accounts of
 * every entry, and the entries of a group or an import mostly use the same few. The write
 * transaction holds SQLite's write lock, so no other process can change an account while it runs;
 * this transaction's own account writes, and a job rolled back to its savepoint, forget them all.
 */
import type { Account } from '../../domain/types.js';
import type { LedgerReads, LedgerWrites } from '../../service/ports/ledger-store.js';

export class TransactionAccounts {
  private readonly accounts = new Map<string, Account>();

  forget(): void {
    this.accounts.clear();
  }

  /** `getAccounts` answered from memory where it can, and the account writes that make it forget. */
  wrap(reads: LedgerReads, writes: Pick<LedgerWrites, 'insertAccount' | 'updateAccount'>):
    Pick<LedgerReads, 'getAccounts'> & Pick<LedgerWrites, 'insertAccount' | 'updateAccount'> {
    return {
      getAccounts: async (ids) => {
        const missing = ids.filter((id) => !this.accounts.has(id));
        if (missing.length > 0) {
          for (const [id, account] of await reads.getAccounts(missing)) this.accounts.set(id, account);
        }
        const found = new Map<string, Account>();
        for (const id of ids) {
          const account = this.accounts.get(id);
          if (account) found.set(id, account);
        }
        return found;
      },
      insertAccount: async (account) => {
        this.forget();
        return writes.insertAccount(account);
      },
      updateAccount: async (id, changes) => {
        this.forget();
        return writes.updateAccount(id, changes);
      },
    };
  }
}
