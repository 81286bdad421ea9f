/** `ledger export --format hledger|beancount|csv [--start D] [--end D] [--out FILE]`: the ledger, for audits and migrations. */
import { once } from 'node:events';
import { closeSync, constants, lstatSync, openSync, writeSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { parseDate } from '../../domain/dates.js';
import { validationError } from '../../domain/errors.js';
import type { ExportFormatName, ExportPrice } from '../export/formats.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { printJson } from '../output.js';
import { withService } from '../with-service.js';

interface Writer {
  write(text: string): Promise<void>;
  close(): void;
}

/**
 * The --out file is created new (O_EXCL), readable by its owner only like the database it comes
 * from; an existing file is replaced only with --force, and never through a symbolic link
 * (O_NOFOLLOW), so an export cannot be steered onto another file. A file that cannot be written
 * (no such folder, a folder, no permission) is the caller's mistake: exit 1.
 */
function fileWriter(path: string, force: boolean): Writer {
  let fd: number;
  try {
    const replace = force ? constants.O_TRUNC : constants.O_EXCL;
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | replace, EXPORT_FILE_MODE);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    if (reason === 'EEXIST' && !isFolder(path)) {
      throw validationError(`--out ${path} already exists`, '--out', 'Name a new file, or pass --force to replace it');
    }
    if (reason === 'ELOOP') {
      throw validationError(`--out ${path} is a symbolic link; the export is never written through one`, '--out',
        'Name the file itself, not a link to it');
    }
    throw validationError(`cannot write --out ${path} (${reason === 'EEXIST' ? 'EISDIR' : reason})`, '--out', 'Name a file in an existing folder that you may write to');
  }
  return { write: async (text) => { writeSync(fd, text); }, close: () => closeSync(fd) };
}

const EXPORT_FILE_MODE = 0o600;

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Standard output goes through process.stdout, never writeSync(1): libuv makes a pipe's descriptor
 * non-blocking, so a direct write to a slow reader fails with EAGAIN. Waiting for 'drain' keeps
 * memory flat for an export of any size.
 */
function stdoutWriter(): Writer {
  return {
    write: async (text) => {
      if (!process.stdout.write(text)) await once(process.stdout, 'drain');
    },
    close: () => {},
  };
}

/**
 * Every stored exchange rate dated on or before `end` (a rate before --start still values what
 * follows it), as the value of one unit of its currency in the base currency. None while the
 * ledger has no base currency.
 */
async function exportPrices(service: LedgerService, end: string | undefined): Promise<{ prices: ExportPrice[]; currencyIds: Set<string> }> {
  const baseId = (await service.getSettings()).base_currency_id;
  const prices: ExportPrice[] = [];
  const currencyIds = new Set<string>();
  if (baseId === null) return { prices, currencyIds };
  const baseCode = (await service.currency(baseId)).code;
  let cursor: string | undefined;
  do {
    const page = await service.listExchangeRates({ end_date: end, limit: 200, cursor });
    for (const rate of page.data) {
      prices.push({ rate_date: rate.rate_date, code: rate.currency_code, rate: rate.rate, base_code: baseCode });
      currencyIds.add(rate.currency_id);
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  if (prices.length > 0) currencyIds.add(baseId);
  return { prices, currencyIds };
}

export function registerExportCommand(program: Command): void {
  program.command('export')
    .description('Write every journal entry (or those dated from --start to --end) as an hledger journal, a Beancount file or CSV')
    .addOption(new Option('--format <format>', 'output format').choices(['hledger', 'beancount', 'csv']).makeOptionMandatory())
    .option('--start <date>', 'only entries dated on or after this day')
    .option('--end <date>', 'only entries dated on or before this day')
    .option('--out <file>', 'write to this new file instead of standard output')
    .option('--force', 'replace --out when it exists (never through a symbolic link)')
    .addHelpText('after', '\nExamples:\n  $ ledger export --format hledger --out books.journal && hledger -f books.journal bal\n  $ ledger export --format beancount --out books.beancount && bean-check books.beancount')
    .action(withService(async (service, { json }, options: { format: ExportFormatName; start?: string; end?: string; out?: string; force?: boolean }) => {
      // Checked before the file is opened, so that a mistake leaves no empty file behind.
      if (options.start !== undefined) parseDate(options.start, '--start');
      if (options.end !== undefined) parseDate(options.end, '--end');
      const { EXPORT_FORMATS } = await import('../export/formats.js');
      const format = EXPORT_FORMATS[options.format];
      const accounts = new Map((await service.allAccounts()).map((account) => [account.id, account]));
      const currencies = new Map<string, Awaited<ReturnType<typeof service.currency>>>();
      const { prices, currencyIds } = format.prices === undefined ? { prices: [], currencyIds: new Set<string>() } : await exportPrices(service, options.end);
      for (const currencyId of [...[...accounts.values()].map((account) => account.currency_id), ...currencyIds]) {
        if (!currencies.has(currencyId)) currencies.set(currencyId, await service.currency(currencyId));
      }
      const context = { accounts, currencies, companyName: (await service.getSettings()).company_name };
      const out = options.out === undefined ? stdoutWriter() : fileWriter(options.out, options.force === true);
      let count = 0;
      try {
        await out.write(format.header(context));
        if (format.prices !== undefined) await out.write(format.prices(prices));
        let cursor: string | undefined;
        do {
          const page = await service.listJournalEntries({ start_date: options.start, end_date: options.end, limit: 200, cursor });
          await out.write(page.data.map((entry) => format.entry(entry, context)).join(''));
          count += page.data.length;
          cursor = page.next_cursor ?? undefined;
        } while (cursor !== undefined);
      } finally {
        out.close();
      }
      if (options.out !== undefined) {
        if (json) printJson({ data: { format: options.format, file: options.out, entries: count } });
        else process.stderr.write(`Exported ${count} entries to ${options.out}\n`);
      }
    }));
}
