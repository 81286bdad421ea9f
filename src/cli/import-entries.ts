/**
 * `journal-entries import`: reads JSON lines or CSV, validates every entry with the API's schema
 * and posts them all in one transaction. The first bad entry rejects the whole file, and the
 * error names its line number in the file.
 */
import { parse } from 'csv-parse/sync';
import { LedgerError, validationError } from '../domain/errors.js';
import type { Actor } from '../service/actor.js';
import type { LedgerService } from '../service/ledger-service.js';
import { CreateEntryBody, type CreateEntryInput } from '../schemas/journal-entry.js';
import { assertMatches } from '../schemas/validate.js';
import { progressBar } from './progress-bar.js';
import { readInput } from './read-input.js';

interface SourcedEntry {
  entry: CreateEntryInput;
  line: number;
}

export async function importEntries(service: LedgerService, actor: Actor, file: string, format?: string): Promise<number> {
  const kind = format ?? (file.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
  if (kind !== 'csv' && kind !== 'jsonl') throw validationError(`Unknown format ${kind}`, 'format', 'Use jsonl or csv');
  const text = readInput(file);
  const entries = kind === 'csv' ? fromCsv(text) : fromJsonLines(text);
  if (entries.length === 0) throw validationError(`${file} holds no entries`, 'file');
  entries.forEach(({ entry, line }) => atLine(line, () => assertMatches(CreateEntryBody, entry)));
  const progress = progressBar(entries.length);
  try {
    await service.postJournalEntries(actor, entries.map(({ entry }) => entry), progress.update);
  } catch (error) {
    const index = /^entries\[(\d+)\]/.exec((error as LedgerError).field ?? '')?.[1];
    if (error instanceof LedgerError && index !== undefined) {
      const source = entries[Number(index)]!;
      throw new LedgerError(error.code, `Line ${source.line}: ${error.message.replace(/^Entry \d+: /, '')}`, {
        field: error.field, suggestion: `Fix the entry on line ${source.line}; nothing was imported`,
      });
    }
    throw error;
  } finally {
    progress.done();
  }
  return entries.length;
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

function fromJsonLines(text: string): SourcedEntry[] {
  const entries: SourcedEntry[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const line = index + 1;
    const entry = atLine(line, () => {
      try {
        return JSON.parse(raw) as CreateEntryInput;
      } catch (error) {
        throw validationError(`not valid JSON (${(error as Error).message})`, 'file');
      }
    });
    entries.push({ entry, line });
  });
  return entries;
}

const CSV_COLUMNS = ['entry', 'entry_date', 'description', 'reference', 'account_id', 'debit_amount', 'credit_amount', 'line_description'];

/** Consecutive rows with the same `entry` value form one entry; empty cells are absent. */
function fromCsv(text: string): SourcedEntry[] {
  let records: { record: Record<string, string>; line: number }[];
  try {
    records = (parse(text, { columns: true, skip_empty_lines: true, trim: true, info: true, bom: true }) as
      { record: Record<string, string>; info: { lines: number } }[]).map(({ record, info }) => ({ record, line: info.lines }));
  } catch (error) {
    throw validationError(`The CSV file cannot be read: ${(error as Error).message}`, 'file');
  }
  const missing = CSV_COLUMNS.filter((column) => !(column in (records[0]?.record ?? {})) && ['entry', 'entry_date', 'account_id'].includes(column));
  if (records.length > 0 && missing.length > 0) {
    throw validationError(`The CSV header lacks ${missing.join(', ')}`, 'file', `Use the columns ${CSV_COLUMNS.join(',')}`);
  }
  const entries: SourcedEntry[] = [];
  let currentKey: string | undefined;
  for (const { record, line } of records) {
    const optional = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
    const row = {
      account_id: record.account_id ?? '',
      debit_amount: optional(record.debit_amount),
      credit_amount: optional(record.credit_amount),
      description: optional(record.line_description),
    };
    if (record.entry !== currentKey || entries.length === 0) {
      currentKey = record.entry;
      const entry: CreateEntryInput = { entry_date: record.entry_date ?? '', description: record.description ?? '', lines: [] };
      const reference = optional(record.reference);
      if (reference !== undefined) entry.reference = reference;
      entries.push({ entry, line });
    }
    entries[entries.length - 1]!.entry.lines.push(row);
  }
  return entries;
}
