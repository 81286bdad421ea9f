/** `ledger export --format hledger|beancount|csv [--out FILE]`: the whole ledger, for audits and migrations. */
import { closeSync, openSync, writeSync } from 'node:fs';
import { type Command, Option } from 'commander';
import type { ExportFormatName } from '../export/formats.js';
import { printJson } from '../output.js';
import { withService } from '../with-service.js';

export function registerExportCommand(program: Command): void {
  program.command('export')
    .description('Write every journal entry as an hledger journal, a Beancount file or CSV')
    .addOption(new Option('--format <format>', 'output format').choices(['hledger', 'beancount', 'csv']).makeOptionMandatory())
    .option('--out <file>', 'write to this file instead of standard output')
    .addHelpText('after', '\nExamples:\n  $ ledger export --format hledger --out books.journal && hledger -f books.journal bal\n  $ ledger export --format beancount --out books.beancount && bean-check books.beancount')
    .action(withService(async (service, { json }, options: { format: ExportFormatName; out?: string }) => {
      const { EXPORT_FORMATS } = await import('../export/formats.js');
      const format = EXPORT_FORMATS[options.format];
      const store = service.ctx.store;
      const accounts = new Map((await store.allAccounts()).map((account) => [account.id, account]));
      const currencies = new Map<string, Awaited<ReturnType<typeof service.ctx.currency>>>();
      for (const account of accounts.values()) {
        if (!currencies.has(account.currency_id)) currencies.set(account.currency_id, await service.ctx.currency(account.currency_id));
      }
      const context = { accounts, currencies };
      const fd = options.out === undefined ? 1 : openSync(options.out, 'w');
      let count = 0;
      try {
        writeSync(fd, format.header(context));
        let cursor: string | undefined;
        do {
          const page = await service.listJournalEntries({ limit: 200, cursor });
          for (const entry of page.data) writeSync(fd, format.entry(entry, context));
          count += page.data.length;
          cursor = page.next_cursor ?? undefined;
        } while (cursor !== undefined);
      } finally {
        if (fd !== 1) closeSync(fd);
      }
      if (options.out !== undefined) {
        if (json) printJson({ data: { format: options.format, file: options.out, entries: count } });
        else process.stderr.write(`Exported ${count} entries to ${options.out}\n`);
      }
    }));
}
