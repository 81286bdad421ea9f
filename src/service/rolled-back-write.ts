/**
 * A write that is run for real and then undone: every dry run (a period close's preview, a post's
 * `dry_run`), which only the executor (execute-command.ts) asks for. `work` runs in a real write
 * transaction, so every rule holds exactly as in the committed write (the same locks, the same
 * checks, the database's own constraints such as one reversal per entry); then it is rolled back
 * and what it produced is carried out.
 */
import type { LedgerStore, LedgerTx, WriteOptions } from './ports/ledger-store.js';

/** Thrown inside the transaction to roll it back while carrying the result out. */
class Rollback<T> extends Error {
  constructor(readonly result: T) {
    super('rolled back on purpose');
  }
}

/** Runs `work` in one write transaction, rolls the transaction back and returns what `work` returned. */
export async function writeRolledBack<T>(store: LedgerStore, work: (tx: LedgerTx) => Promise<T>, options?: WriteOptions): Promise<T> {
  try {
    await store.write(async (tx) => {
      throw new Rollback(await work(tx));
    }, options);
  } catch (error) {
    if (error instanceof Rollback) return error.result as T;
    throw error;
  }
  throw new Error('a rolled-back write returned without rolling back');
}
