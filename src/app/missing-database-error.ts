/**
 * The database file does not exist. Kept apart from open-ledger.ts so that the CLI's error
 * reporting can recognise it without loading the storage and service modules: `--help`,
 * `--version` and usage errors then start without them.
 */
export class MissingDatabaseError extends Error {
  constructor(readonly path: string) {
    super(`No ledger database at ${path}. Run \`ledger init\` (or pass --db / LEDGER_DB) first.`);
  }
}
