/**
 * `ledger copy --from <db> --to <db>`: copies a whole ledger into an empty database, SQLite or
 * PostgreSQL either way. It opens two stores, so it does not go through withService (one store).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { DatabaseLocation } from '../../app/database-location.js';
import { validationError } from '../../domain/errors.js';
import type { CopySummary } from '../../service/copy-ledger.js';
import type { LedgerStore } from '../../service/ports/ledger-store.js';
import { globals } from '../global-options.js';
import { printJson } from '../output.js';
import { type ProgressBar, progressBar } from '../progress-bar.js';
import { printFields } from '../render/format.js';

interface CopyOptions {
  from: string;
  to: string;
}

/** Copying a database onto itself can only fail (it is not empty) or do nothing: refuse it plainly. */
function sameDatabase(a: DatabaseLocation, b: DatabaseLocation): boolean {
  if (a.kind === 'sqlite' && b.kind === 'sqlite') return resolve(a.path) === resolve(b.path);
  if (a.kind === 'postgres' && b.kind === 'postgres') {
    const [first, second] = [new URL(a.url), new URL(b.url)];
    return first.host === second.host && first.pathname === second.pathname
      && first.searchParams.get('host') === second.searchParams.get('host');
  }
  return false;
}

async function withStore<T>(open: () => Promise<LedgerStore>, work: (store: LedgerStore) => Promise<T>): Promise<T> {
  const store = await open();
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function printSummary(from: string, to: string, summary: CopySummary): void {
  process.stdout.write(`Copied the ledger from ${from} to ${to}\n`);
  printFields([
    ['Currencies', summary.currencies],
    ['Accounts', summary.accounts],
    ['Periods', summary.periods],
    ['Journal entries', summary.entries],
    ['Journal lines', summary.lines],
    ['Users', summary.users],
    ['API keys', summary.api_keys],
    ['Settings', summary.settings],
    ['Audit records', summary.audit_records],
    ['Bank statements', summary.bank_statements],
    ['Bank lines', summary.bank_lines],
    ['Bank rules', summary.bank_rules],
    ['Reconciliations', summary.reconciliations],
    ['Exchange rates', summary.exchange_rates],
  ]);
  process.stdout.write('Refresh tokens are not copied: users of the web UI log in again.\n');
}

export function registerCopyCommand(program: Command): void {
  program.command('copy')
    .description('Copy a whole ledger into an empty database (SQLite file or PostgreSQL), in one transaction')
    .requiredOption('--from <path|url>', 'the ledger to copy: a SQLite file or postgres://user:pass@host:port/dbname')
    .requiredOption('--to <path|url>', 'an empty database (created and initialised when missing)')
    .addHelpText('after', '\nExamples:\n  $ ledger copy --from ledger.db --to postgres://ledger:secret@127.0.0.1:5432/books'
      + '\n  $ ledger copy --from postgres://ledger:secret@127.0.0.1:5432/books --to backup.db')
    .action(async (options: CopyOptions, command: Command) => {
      const { json } = globals(command);
      const { describeDatabaseLocation, parseDatabaseLocation } = await import('../../app/database-location.js');
      const from = parseDatabaseLocation(options.from);
      const to = parseDatabaseLocation(options.to);
      if (sameDatabase(from, to)) {
        throw validationError('--from and --to name the same database', 'to', 'Copy into another, empty database');
      }
      const { initLedger, ledgerExists, openStore } = await import('../../app/open-ledger.js');
      const { copyLedger } = await import('../../service/copy-ledger.js');
      // The source is opened first: a missing source fails (exit 4) before the target is created.
      const summary = await withStore(() => openStore(options.from), async (source) => {
        if (!(await ledgerExists(options.to))) await initLedger(options.to);
        return withStore(() => openStore(options.to), async (target) => {
          let bar: ProgressBar | undefined;
          try {
            return await copyLedger(source, target, (copied, total) => {
              bar ??= progressBar(total);
              bar.update(copied);
            });
          } finally {
            bar?.done();
          }
        });
      });
      const [shownFrom, shownTo] = [describeDatabaseLocation(from), describeDatabaseLocation(to)];
      if (json) printJson({ data: { from: shownFrom, to: shownTo, ...summary } });
      else printSummary(shownFrom, shownTo, summary);
    });
}
