/**
 * The database does not exist yet. Kept apart from open-ledger.ts so that the CLI's error
 * reporting can recognise it without loading the storage and service modules: `--help`,
 * `--version` and usage errors then start without them.
 */
import { StoreOpenError } from '../service/ports/store-errors.js';

/** A SQLite file that does not exist, or a PostgreSQL database without the ledger's schema. */
export class MissingDatabaseError extends StoreOpenError {
  constructor(readonly location: string) {
    super('NOT_FOUND', `No ledger database at ${location}. Run \`ledger init\` (or pass --db / LEDGER_DB) first.`,
      'Run `ledger init` to create it');
  }
}
