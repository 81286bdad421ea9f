/**
 * `ledger backup <file>`: a consistent copy of a SQLite ledger while servers keep writing to it.
 * The copy is a driver operation (SQLite's online backup), so it lives in the SQLite adapter and is
 * reached from here, the composition root, which knows which kind of database --db names.
 */
import { closeSync, openSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { validationError } from '../domain/errors.js';
import { describeDatabaseLocation, parseDatabaseLocation } from './database-location.js';
import { ledgerExists, MissingDatabaseError } from './open-ledger.js';

export interface BackupSummary {
  from: string;
  to: string;
  entries: number;
  pages: number;
  bytes: number;
}

export type BackupProgress = (copiedPages: number, totalPages: number) => void;

/**
 * Creates the target file, refusing one that exists (atomically: two backups cannot both win it).
 * A backup holds what the ledger holds (password hashes, the signing secret), so it is owner-only.
 */
function createTarget(target: string): void {
  try {
    closeSync(openSync(target, 'wx', 0o600));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw validationError(`${target} already exists; ledger backup never overwrites a file`, 'file',
        'Choose a new file name, or move the old backup away first');
    }
    if (code === 'ENOENT') {
      throw validationError(`The folder ${dirname(target)} does not exist`, 'file', 'Create the folder first, or choose another path');
    }
    throw error;
  }
}

export async function backupLedger(location: string, target: string, onProgress?: BackupProgress): Promise<BackupSummary> {
  const source = parseDatabaseLocation(location);
  if (source.kind === 'postgres') {
    throw validationError(`ledger backup copies a SQLite file; ${describeDatabaseLocation(source)} is a PostgreSQL database`, 'db',
      'Back up PostgreSQL with pg_dump (see docs/postgres.md), or make a SQLite copy of the ledger with '
      + '`ledger copy --from <postgres-url> --to backup.db`');
  }
  if (!(await ledgerExists(location))) throw new MissingDatabaseError(source.path);
  const targetPath = resolve(target);
  if (targetPath === resolve(source.path)) {
    throw validationError('The backup file is the ledger itself', 'file', 'Choose another file');
  }
  createTarget(targetPath);
  const { backupSqliteFile } = await import('../storage/sqlite/backup.js');
  try {
    const copied = await backupSqliteFile(source.path, targetPath, { onProgress });
    return { from: source.path, to: target, ...copied };
  } catch (error) {
    // A failed backup leaves no half-written file behind (the file was created above, empty).
    rmSync(targetPath, { force: true });
    throw error;
  }
}
