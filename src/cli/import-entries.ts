/**
 * `journal-entries import`: reads JSON lines or CSV, validates every entry with the API's schema
 * and posts them all in one transaction. The file is streamed: entries are read, checked and
 * posted one after another, so a file of any size imports in flat memory. The first bad entry
 * rejects the whole file (the transaction rolls back), and the error names its line in the file.
 * A CSV file names accounts by number or id and gives amounts in major or minor units
 * (`csv-journal.ts` reads its rows).
 */
import { createReadStream, fstatSync, openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { LedgerError, validationError } from '../domain/errors.js';
import type { Actor } from '../service/actor.js';
import type { LedgerService } from '../service/ledger-service.js';
import { CreateEntryBody, type CreateEntryInput } from '../schemas/journal-entry.js';
import { assertMatches } from '../schemas/validate.js';
import { type CsvChart, type SourcedEntry, csvJournalReader } from './csv-journal.js';
import { collect } from './paging.js';
import { progressBar } from './progress-bar.js';

/** An open input: its bytes, how many have been read, and its size when known (a regular file). */
interface Source {
  stream: Readable;
  bytesRead(): number;
  size: number;
}

export async function importEntries(service: LedgerService, actor: Actor, file: string, format?: string): Promise<number> {
  const kind = format ?? (file.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
  if (kind !== 'csv' && kind !== 'jsonl') throw validationError(`Unknown format ${kind}`, 'format', 'Use jsonl or csv');
  // The chart is read before the transaction, for a CSV file's account numbers and currency scales.
  const readEntries = kind === 'csv' ? csvJournalReader(await chartForCsv(service)) : fromJsonLines;
  // Opened now, so that a missing file is reported before the transaction begins.
  let source = openSource(file);
  let reads = 0;
  let progress = progressBar(0);
  /** The entry being posted: a rejected entry is reported with its line in the file. */
  let current: SourcedEntry | undefined;
  const open = () => {
    // The store may run the transaction again from the start: the file is then read again.
    if (reads > 0) {
      source.stream.destroy();
      source = reopen(file);
    }
    reads += 1;
    const input = source;
    progress.done();
    progress = progressBar(input.size, mebibytes);
    return (async function* checked() {
      let posted = 0;
      for await (const sourced of readEntries(input.stream)) {
        current = sourced;
        atLine(sourced.line, () => assertMatches(CreateEntryBody, sourced.entry));
        yield sourced.entry;
        // Asked for the next entry: the one yielded is posted.
        posted += 1;
        progress.update(input.bytesRead(), `${posted.toLocaleString('en-US')} entries`);
      }
    })();
  };
  let count: number;
  try {
    count = await service.importJournalEntries(actor, open);
  } catch (error) {
    const index = /^entries\[(\d+)\]/.exec((error as LedgerError).field ?? '')?.[1];
    if (error instanceof LedgerError && index !== undefined && current !== undefined) {
      throw new LedgerError(error.code, `Line ${current.line}: ${error.message.replace(/^Entry \d+: /, '')}`, {
        field: error.field, suggestion: `Fix the entry on line ${current.line}; nothing was imported`,
      });
    }
    throw error;
  } finally {
    if (source.stream !== process.stdin) source.stream.destroy();
    progress.done();
  }
  if (count === 0) throw validationError(`${file} holds no entries`, 'file');
  return count;
}

function openSource(path: string): Source {
  if (path === '-') return { stream: process.stdin, bytesRead: () => 0, size: 0 };
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw validationError(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'file',
      'Check the path of the file');
  }
  const stat = fstatSync(fd);
  const stream = createReadStream('', { fd });
  return { stream, bytesRead: () => stream.bytesRead, size: stat.isFile() ? stat.size : 0 };
}

function reopen(path: string): Source {
  if (path === '-') {
    throw validationError('The import had to start again, and standard input cannot be read twice; nothing was imported', 'file',
      'Import from a file instead of standard input, or run the command again');
  }
  return openSource(path);
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

function atLine<T>(line: number, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    throw new LedgerError(error.code, `Line ${line}: ${error.message}`, {
      field: error.field, suggestion: `Fix the entry on line ${line}; nothing was imported`,
    });
  }
}

async function* fromJsonLines(stream: Readable): AsyncGenerator<SourcedEntry> {
  let line = 0;
  for await (const raw of createInterface({ input: stream, crlfDelay: Infinity })) {
    line += 1;
    if (raw.trim() === '') continue;
    const entry = atLine(line, () => {
      try {
        return JSON.parse(raw) as CreateEntryInput;
      } catch (error) {
        throw validationError(`not valid JSON (${(error as Error).message})`, 'file');
      }
    });
    yield { entry, line };
  }
}

/** Every account by number and by id, with its currency's code and scale. */
async function chartForCsv(service: LedgerService): Promise<CsvChart> {
  const [accounts, { data: currencies }] = await Promise.all([
    service.chartOfAccounts(),
    collect((cursor) => service.listCurrencies({ limit: 200, cursor }), {}),
  ]);
  const currencyById = new Map(currencies.map((currency) => [currency.id, currency]));
  const byNumber = new Map<string, { id: string; currency: { code: string; asset_scale: number } }>();
  const byId = new Map<string, { id: string; currency: { code: string; asset_scale: number } }>();
  for (const account of accounts) {
    const currency = currencyById.get(account.currency_id);
    if (currency === undefined) continue;
    const known = { id: account.id, currency: { code: currency.code, asset_scale: currency.asset_scale } };
    byNumber.set(account.account_number, known);
    byId.set(account.id, known);
  }
  return { byNumber, byId };
}
