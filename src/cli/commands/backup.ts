/** `ledger backup <file>`: a consistent copy of a SQLite ledger, also while `ledger serve` writes to it. */
import type { Command } from 'commander';
import { globals } from '../global-options.js';
import { printJson } from '../output.js';
import { type ProgressBar, progressBar } from '../progress-bar.js';
import { printFields } from '../render/format.js';

export function registerBackupCommand(program: Command): void {
  program.command('backup <file>')
    .description('Copy a SQLite ledger into a new file, consistently, while servers keep writing (SQLite\'s online backup)')
    .addHelpText('after', '\nExamples:\n  $ ledger backup backups/ledger-2026-03-31.db\n  $ ledger --db books.db backup /mnt/backups/books.db'
      + '\n\nA PostgreSQL ledger is backed up with pg_dump, or copied into a SQLite file with `ledger copy --to file.db`.')
    .action(async (file: string, _options: object, command: Command) => {
      const { db, json } = globals(command);
      const { backupLedger } = await import('../../app/backup-ledger.js');
      let bar: ProgressBar | undefined;
      let summary;
      try {
        summary = await backupLedger(db, file, (copied, total) => {
          bar ??= progressBar(total);
          bar.update(copied);
        });
      } finally {
        bar?.done();
      }
      if (json) {
        printJson({ data: summary });
        return;
      }
      process.stdout.write(`Backed up ${summary.from} to ${summary.to}\n`);
      printFields([
        ['Journal entries', summary.entries],
        ['Size', `${(summary.bytes / 1024 / 1024).toFixed(1)} MiB (${summary.pages} pages)`],
      ]);
    });
}
