/** `ledger periods list|get|create|close`. */
import type { Command } from 'commander';
import type { PeriodView } from '../../schemas/period.js';
import { LOCAL_OPERATOR } from '../../service/actor.js';
import { printJson } from '../output.js';
import { collect } from '../paging.js';
import { parseLimit } from '../parse.js';
import { printTable } from '../render/table.js';
import { checkedBody } from '../checked-body.js';
import { resolvePeriod } from '../resolve-names.js';
import { actorFromApiKey, withService } from '../with-service.js';
import { currencyCodes } from '../currency-codes.js';
import { printEntry } from './journal-entries.js';

function printPeriods(periods: PeriodView[]): void {
  printTable(['ID', 'NAME', 'START', 'END', 'STATUS', 'CLOSED AT', 'CLOSING ENTRY'],
    periods.map((p) => [p.id, p.name, p.start_date, p.end_date, p.status, p.closed_at ?? '', p.closing_entry_id ?? '']));
}

export function registerPeriodCommands(program: Command): void {
  const periods = program.command('periods').description('Financial periods');

  periods.command('list')
    .description('List periods, ordered by start date')
    .option('--limit <n>', 'return one page of at most n periods', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExample:\n  $ ledger periods list')
    .action(withService(async (service, { json }, options: { limit?: number; cursor?: string }) => {
      const page = await collect((cursor) => service.listPeriods({ limit: options.limit ?? 200, cursor }), options);
      if (json) printJson(page);
      else printPeriods(page.data);
    }));

  periods.command('get <period>')
    .description('Show a period (by id or name)')
    .addHelpText('after', '\nExample:\n  $ ledger periods get "June 2026"')
    .action(withService(async (service, { json }, _options, text: string) => {
      const period = await service.getPeriod(await resolvePeriod(service, text, 'period'));
      if (json) printJson({ data: period });
      else printPeriods([period]);
    }));

  periods.command('delete <period>')
    .description('Delete an open period that holds no entries (a period created by mistake)')
    .addHelpText('after', '\nA closed period, or one with entries, is refused (PERIOD_IN_USE, exit 1).\n\nExample:\n  $ ledger periods delete "April 1-3"')
    .action(withService(async (service, { json }, _options, text: string) => {
      const period = await service.deletePeriod(LOCAL_OPERATOR, await resolvePeriod(service, text, 'period'));
      if (json) printJson({ data: period });
      else process.stdout.write(`Deleted period ${period.name} (${period.start_date} to ${period.end_date})\n`);
    }));

  periods.command('create')
    .description('Create a period (inclusive dates; periods must not overlap)')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--start <date>', 'first day, YYYY-MM-DD')
    .requiredOption('--end <date>', 'last day, YYYY-MM-DD')
    .addHelpText('after', '\nExample:\n  $ ledger periods create --name "January 2026" --start 2026-01-01 --end 2026-01-31')
    .action(withService(async (service, { json }, options: { name: string; start: string; end: string }) => {
      const body = await checkedBody(async () => (await import('../../schemas/period.js')).CreatePeriodBody,
        { name: options.name, start_date: options.start, end_date: options.end });
      const period = await service.createPeriod(LOCAL_OPERATOR, body);
      if (json) printJson({ data: period });
      else process.stdout.write(`Created period ${period.name} ${period.start_date}..${period.end_date} (${period.id})\n`);
    }));

  periods.command('close <period>')
    .description('Close a period permanently, posting one closing entry per currency (needs an API key); --preview only shows them')
    .option('--preview', 'show the closing entries without closing anything')
    .addHelpText('after', '\nExamples:\n  $ ledger periods close "June 2026" --preview\n  $ LEDGER_API_KEY=tsk_... ledger periods close 0193...')
    .action(withService(async (service, global, options: { preview?: boolean }, text: string) => {
      const actor = await actorFromApiKey(service, global, 'periods close');
      const result = await service.closePeriod(actor, await resolvePeriod(service, text, 'period'), options.preview === true);
      if (global.json) {
        printJson({ data: result });
        return;
      }
      process.stdout.write(result.preview
        ? `Preview of closing ${result.period.name} (nothing was changed):\n`
        : `Closed ${result.period.name}.\n`);
      // One closing entry per currency with revenue or expense activity, the default currency's first.
      const codes = await currencyCodes(service);
      result.closing_entries.forEach((entry, index) => {
        if (index > 0) process.stdout.write('\n');
        printEntry(entry, codes);
      });
      if (result.closing_entries.length === 0) process.stdout.write('No revenue or expense activity: no closing entry.\n');
    }));
}
