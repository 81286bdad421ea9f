/**
 * `ledger rates set|list|import`: exchange rates, the value of one unit of a currency in the base
 * currency from a day on. Writes act as the user of --api-key (rates:write), as over HTTP.
 */
import type { Command } from 'commander';
import { LedgerError, validationError } from '../../domain/errors.js';
import type { ExchangeRateView, SetExchangeRateInput } from '../../schemas/exchange-rate.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { printJson } from '../output.js';
import { collect } from '../paging.js';
import { parseLimit } from '../parse.js';
import { printTable } from '../render/table.js';
import { readInput } from '../read-input.js';
import { resolveCurrency } from '../resolve-names.js';
import { actorFromApiKey, withService } from '../with-service.js';

function printRates(rates: readonly ExchangeRateView[]): void {
  printTable(['DATE', 'CURRENCY', 'RATE', 'ID'], rates.map((rate) => [rate.rate_date, rate.currency_code, rate.rate, rate.id]));
}

/** The base currency's code, for "1 EUR = 1.0842 USD". */
async function baseCode(service: LedgerService): Promise<string> {
  const baseId = (await service.getSettings()).base_currency_id;
  return baseId === null ? 'base currency' : (await service.getCurrency(baseId)).code;
}

/** One rate of the CSV file, with the line it came from. */
interface CsvRate {
  line: number;
  input: SetExchangeRateInput;
}

const HEADER = ['currency', 'date', 'rate'];

/**
 * Reads `currency,date,rate` lines after that header; a currency by code (any case) or id. Dates
 * and rates are checked by the service, whose errors name `rates[i]`: `importRates` turns them
 * into the line.
 */
async function readRatesCsv(service: LedgerService, text: string): Promise<CsvRate[]> {
  const { parse } = await import('csv-parse/sync');
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), { info: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as unknown as typeof records;
  } catch (error) {
    throw validationError(`The file is not valid CSV: ${(error as Error).message}`, 'file', 'Write one rate per line: currency,date,rate');
  }
  const [header, ...rows] = records;
  if (header === undefined || header.record.map((cell) => cell.toLowerCase()).join(',') !== HEADER.join(',')) {
    throw validationError(`line 1: the header must be ${HEADER.join(',')}`, 'file', 'Start the file with the line currency,date,rate');
  }
  if (rows.length === 0) throw validationError('The file has no rates after its header', 'file', 'Add lines such as EUR,2026-01-15,1.0842');
  const currencies = (await collect((cursor) => service.listCurrencies({ limit: 200, cursor }), {})).data;
  const byKey = new Map<string, string>();
  for (const currency of currencies) {
    byKey.set(currency.id, currency.id);
    byKey.set(currency.code.toLowerCase(), currency.id);
  }
  return rows.map(({ record, info }) => {
    if (record.length !== 3) {
      throw validationError(`line ${info.lines}: expected 3 fields (currency,date,rate), found ${record.length}`, 'file',
        'Write one rate per line: currency,date,rate; a rate has a decimal point, never a decimal comma');
    }
    const [currency, date, rate] = record as [string, string, string];
    const currencyId = byKey.get(currency) ?? byKey.get(currency.toLowerCase());
    if (currencyId === undefined) {
      throw validationError(`line ${info.lines}: unknown currency ${JSON.stringify(currency)}`, 'currency',
        'Name a currency by its code or id (`ledger currencies list`)');
    }
    return { line: info.lines, input: { currency_id: currencyId, rate_date: date, rate } };
  });
}

/** Sets every rate of the file, all or none; a refusal names the file's line instead of `rates[i]`. */
async function importRates(service: LedgerService, actor: Parameters<LedgerService['setExchangeRates']>[0], rates: CsvRate[]) {
  try {
    return await service.setExchangeRates(actor, rates.map((rate) => rate.input));
  } catch (error) {
    const index = error instanceof LedgerError ? /^rates\[(\d+)\](?:\.(\w+))?/.exec(error.field ?? '') : null;
    if (!(error instanceof LedgerError) || index === null) throw error;
    const line = rates[Number(index[1])]!.line;
    const message = error.message.replace(/^rates\[\d+\](?:: |\.)/, '').replace(/rates\[(\d+)\]/g, (_, i: string) => `line ${rates[Number(i)]!.line}`);
    const column = index[2] === 'rate_date' ? 'date' : index[2] === 'currency_id' ? 'currency' : index[2] ?? 'file';
    throw new LedgerError(error.code, `line ${line}: ${message}`, { field: column, suggestion: error.suggestion });
  }
}

export function registerRateCommands(program: Command): void {
  const rates = program.command('rates').description('Exchange rates: the value of one unit of a currency in the base currency');

  rates.command('set <currency> <date> <rate>')
    .description('Set the rate of a currency from a day on (needs an API key with rates:write); replaces that day\'s rate')
    .addHelpText('after', `
<rate> is the value of one unit of <currency> in the base currency, a decimal with at most 12
decimal places, kept exactly. The rate for a date is the latest one on or before it.

Examples:
  $ ledger rates set EUR 2026-01-15 1.0842 --api-key tsk_...
  $ ledger rates set JPY 2026-01-15 0.0064 --api-key tsk_...`)
    .action(withService(async (service, global, _options, currency: string, date: string, rate: string) => {
      const actor = await actorFromApiKey(service, global, 'rates set');
      const { USE_CASES } = await import('../../service/use-cases.js');
      const set = await service.execute(USE_CASES.set_exchange_rate, {
        actor, input: { currency_id: await resolveCurrency(service, currency, 'currency'), rate_date: date, rate },
      });
      if (global.json) {
        printJson({ data: set.data });
        return;
      }
      // A rate new for its currency and day is created; one that replaced that day's rate is not.
      const what = set.created ? 'Set' : 'Replaced';
      process.stdout.write(`${what} the rate of ${set.data.currency_code} from ${set.data.rate_date}: 1 ${set.data.currency_code} = ${set.data.rate} `
        + `${await baseCode(service)} (${set.data.id})\n`);
    }));

  rates.command('list')
    .description('List rates by date, then currency')
    .option('--currency <currency>', 'only this currency (code, name or id)')
    .option('--start <date>', 'only rates dated on or after this day')
    .option('--end <date>', 'only rates dated on or before this day')
    .option('--limit <n>', 'return one page of at most n rates', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExamples:\n  $ ledger rates list\n  $ ledger rates list --currency EUR --start 2026-01-01 --end 2026-03-31')
    .action(withService(async (service, { json }, options: { currency?: string; start?: string; end?: string; limit?: number; cursor?: string }) => {
      const currencyId = options.currency === undefined ? undefined : await resolveCurrency(service, options.currency);
      const page = await collect((cursor) => service.listExchangeRates({
        currency_id: currencyId, start_date: options.start, end_date: options.end, limit: options.limit ?? 200, cursor,
      }), options);
      if (json) printJson(page);
      else printRates(page.data);
    }));

  rates.command('import <file>')
    .description('Set the rates of a CSV file (header currency,date,rate), all or none (needs an API key with rates:write)')
    .addHelpText('after', `
The file starts with the header currency,date,rate; each line names a currency by code or id, a day
(YYYY-MM-DD) and the rate as for \`rates set\`. A rate for a currency and day that has one replaces
it. One bad line imports nothing, and the error names it. At most 50,000 rates a file; "-" reads stdin.

Example:
  $ cat rates.csv
  currency,date,rate
  EUR,2026-01-15,1.0842
  GBP,2026-01-15,1.2710
  $ ledger rates import rates.csv --api-key tsk_...`)
    .action(withService(async (service, global, _options, file: string) => {
      const actor = await actorFromApiKey(service, global, 'rates import');
      const rows = await readRatesCsv(service, readInput(file));
      const result = await importRates(service, actor, rows);
      if (global.json) printJson({ data: result });
      else process.stdout.write(`Imported ${result.count} rates: ${result.created} new, ${result.replaced} replaced\n`);
    }));
}
