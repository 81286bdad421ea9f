/**
 * A consistent copy of a live SQLite ledger with SQLite's online backup API (better-sqlite3's
 * `db.backup()`), while other processes (`ledger serve`) keep writing to it.
 *
 * SQLite restarts an online backup whenever another connection writes to the source between two
 * steps, so under steady posting a backup made of small steps could restart forever. Here the
 * source connection first opens a read transaction, and every step runs inside it: the backup
 * copies the one WAL snapshot that transaction sees (writers are not blocked in WAL mode), never
 * restarts, and can still go in small steps that report progress.
 */
import Database from 'better-sqlite3';

export interface SqliteBackupSummary {
  /** Journal entries in the copy: those committed when the backup's snapshot was taken. */
  entries: number;
  pages: number;
  bytes: number;
}

export interface SqliteBackupOptions {
  /** Called after each step with the pages copied so far and the pages in all. */
  onProgress?: ((copiedPages: number, totalPages: number) => void) | undefined;
  /** Pages copied per step; by default 1024 (4 MiB at SQLite's default page size). */
  pagesPerStep?: number | undefined;
}

/**
 * Copies the ledger at `sourcePath` into `targetPath`, which must be a new, empty file the caller
 * created (so that it never overwrites anything).
 */
export async function backupSqliteFile(sourcePath: string, targetPath: string, options: SqliteBackupOptions = {}): Promise<SqliteBackupSummary> {
  const { onProgress, pagesPerStep = 1024 } = options;
  const source = new Database(sourcePath, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 10000');
    source.exec('BEGIN');
    // The first read starts the read transaction: from here on the snapshot is fixed.
    const { entries } = source.prepare('SELECT COUNT(*) AS entries FROM journal_entries').get() as { entries: number };
    const result = await source.backup(targetPath, {
      progress: ({ totalPages, remainingPages }) => {
        onProgress?.(totalPages - remainingPages, totalPages);
        return pagesPerStep;
      },
    });
    source.exec('COMMIT');
    onProgress?.(result.totalPages, result.totalPages);
    const pageSize = source.pragma('page_size', { simple: true }) as number;
    return { entries, pages: result.totalPages, bytes: result.totalPages * pageSize };
  } finally {
    source.close();
  }
}
