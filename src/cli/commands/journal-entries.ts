/** `ledger journal-entries list|get|create|reverse|import`. */
import { readInput } from '../read-input.js';
import { type Command, Option } from 'commander';
import { validationError } from '../../domain/errors.js';
import type { DryRunEntryView } from '../../schemas/dry-run.js';
import type { EntryView } from '../../schemas/journal-entry.js';
import { printJson } from '../output.js';
import { collect } from '../paging.js';
import { parseLimit } from '../parse.js';
import { withCode } from '../render/format.js';
import { printTable } from '../render/table.js';
import { type CurrencyCodes, currencyCodes } from '../currency-codes.js';
import { resolvedIds } from '../resolve-names.js';
import { actorFromApiKey, withService } from '../with-service.js';

/** An entry and its lines, each amount with the code of the entry's currency. */
export function printEntry(entry: EntryView, codes: CurrencyCodes): void {
  const code = codes(entry.currency_id);
  const links = [
    entry.reverses_id ? `reverses ${entry.reverses_id}` : '',
    entry.reversed_by_id ? `reversed by ${entry.reversed_by_id}` : '',
  ].filter(Boolean).join(', ');
  process.stdout.write(`#${entry.entry_number}  ${entry.entry_date}  ${entry.description}${entry.reference ? `  [${entry.reference}]` : ''}\n`);
  process.stdout.write(`  id ${entry.id}  ${entry.entry_type}${links ? `  (${links})` : ''}\n`);
  if (entry.override_reason !== null) process.stdout.write(`  posted on or before the lock date: ${entry.override_reason}\n`);
  process.stdout.write(`  hash ${entry.hash}\n`);
  printTable(['ACCOUNT', 'NAME', 'DEBIT', 'CREDIT', 'MEMO'], entry.lines.map((line) => [
    line.account_number, line.account_name, line.debit_amount === '0' ? '' : withCode(line.display_debit, code),
    line.credit_amount === '0' ? '' : withCode(line.display_credit, code), line.description ?? '',
  ]), { rightAligned: [2, 3] });
}

/** A dry run: the entry as it would be posted, then each touched account's balance before and after. */
function printDryRun(result: DryRunEntryView, codes: CurrencyCodes): void {
  const code = codes(result.entry.currency_id);
  process.stdout.write('Dry run (nothing was posted):\n');
  printEntry(result.entry, codes);
  const names = new Map(result.entry.lines.map((line) => [line.account_id, line.account_name]));
  process.stdout.write('\n');
  printTable(['ACCOUNT', 'NAME', 'BALANCE BEFORE', 'BALANCE AFTER'], result.balances.map((row) => [
    row.account_number, names.get(row.account_id) ?? '', withCode(row.before.display_balance, code), withCode(row.after.display_balance, code),
  ]), { rightAligned: [2, 3] });
}

function printEntryList(entries: EntryView[], codes: CurrencyCodes): void {
  printTable(['NO.', 'ID', 'DATE', 'TYPE', 'DESCRIPTION', 'REFERENCE', 'AMOUNT'], entries.map((entry) => {
    const total = entry.lines.filter((line) => line.debit_amount !== '0').map((line) => line.display_debit);
    return [`#${entry.entry_number}`, entry.id, entry.entry_date, entry.entry_type, entry.description, entry.reference ?? '',
      withCode(total.length === 1 ? total[0]! : total.join(' + '), codes(entry.currency_id))];
  }));
}

interface ListOptions {
  period?: string;
  start?: string;
  end?: string;
  account?: string;
  search?: string;
  reference?: string;
  type?: 'standard' | 'reversal' | 'closing';
  minAmount?: string;
  maxAmount?: string;
  limit?: number;
  cursor?: string;
}

export function registerJournalEntryCommands(program: Command): void {
  const entries = program.command('journal-entries').description('Journal entries: post, list, reverse, import');

  entries.command('list')
    .description('List entries, ordered by entry date then posting order')
    .option('--period <period>', 'only entries in this period (id or name)')
    .option('--start <date>', 'only entries dated on or after this day')
    .option('--end <date>', 'only entries dated on or before this day')
    .option('--account <account>', 'only entries with a line on this account (id, number or name)')
    .option('--search <text>', 'only entries with every word of the text starting a word of their description, reference or line descriptions')
    .option('--reference <ref>', 'only entries with exactly this reference')
    .addOption(new Option('--type <type>', 'only entries of this type').choices(['standard', 'reversal', 'closing']))
    .option('--min-amount <minor-units>', 'only entries whose debits add up to at least this (smallest currency unit)')
    .option('--max-amount <minor-units>', 'only entries whose debits add up to at most this (smallest currency unit)')
    .option('--limit <n>', 'return one page of at most n entries', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page (with the same filters)')
    .addHelpText('after', '\nExamples:\n  $ ledger journal-entries list --search "office rent"\n  $ ledger journal-entries list --reference INV-2026-0042 --json')
    .action(withService(async (service, { json }, options: ListOptions) => {
      const ids = await resolvedIds(service, { period: options.period, account: options.account });
      const filter = {
        period_id: ids.period, start_date: options.start, end_date: options.end, account_id: ids.account,
        q: options.search, reference: options.reference, entry_type: options.type,
        min_amount: options.minAmount, max_amount: options.maxAmount,
      };
      const page = await collect((cursor) => service.listJournalEntries({ ...filter, limit: options.limit ?? 200, cursor }), options);
      if (json) printJson(page);
      else printEntryList(page.data, await currencyCodes(service));
    }));

  entries.command('get <id>')
    .description('Show an entry with its lines')
    .addHelpText('after', '\nExample:\n  $ ledger journal-entries get 0193...')
    .action(withService(async (service, { json }, _options, id: string) => {
      const entry = await service.getJournalEntry(id);
      if (json) printJson({ data: entry });
      else printEntry(entry, await currencyCodes(service));
    }));

  entries.command('create')
    .description('Post an entry from a JSON file holding the API body (needs an API key)')
    .requiredOption('--file <path>', 'JSON file: {"entry_date", "description", "reference"?, "metadata"?, "lines": [...]}; - for stdin')
    .option('--dry-run', 'run every rule and show the entry and the balances it would change; post nothing')
    .option('--idempotency-key <key>', 'a retry with the same key and file answers the first post instead of posting again (kept 24 hours)')
    .option('--override-reason <reason>', 'why an entry dated on or before the lock date is posted anyway (needs periods:override); kept on the entry')
    .addHelpText('after', `
Example:
  $ cat sale.json
  {"entry_date": "2026-03-01", "description": "Invoice 1001",
   "lines": [{"account_id": "<cash-id>", "debit_amount": "25000"},
             {"account_id": "<sales-id>", "credit_amount": "25000"}]}
  $ ledger journal-entries create --file sale.json --dry-run --api-key tsk_...
  $ ledger journal-entries create --file sale.json --idempotency-key sale-1001 --api-key tsk_...`)
    .action(withService(async (service, global, options: { file: string; dryRun?: boolean; idempotencyKey?: string; overrideReason?: string }) => {
      const actor = await actorFromApiKey(service, global, 'journal-entries create');
      const [{ parseWithSchema }, { USE_CASES }] = await Promise.all([import('../../schemas/validate.js'), import('../../service/use-cases.js')]);
      const useCase = USE_CASES.post_journal_entry;
      const input = parseWithSchema(useCase.input, readJsonFile(options.file));
      if (options.overrideReason !== undefined) input.override_reason = options.overrideReason;
      const outcome = await service.execute(useCase, { actor, input, dryRun: options.dryRun, idempotencyKey: options.idempotencyKey });
      if (global.json) printJson({ data: outcome.data });
      else if (outcome.kind === 'dry-run') printDryRun(outcome.data, await currencyCodes(service));
      else {
        process.stdout.write(outcome.kind === 'replayed' ? 'Posted before (replayed for this idempotency key):\n' : 'Posted:\n');
        printEntry(outcome.data, await currencyCodes(service));
      }
    }));

  entries.command('reverse <id>')
    .description('Reverse an entry: a new entry with debits and credits swapped (needs an API key)')
    .option('--date <date>', 'date of the reversal (default: the original entry date)')
    .option('--dry-run', 'run every rule and show the reversal and the balances it would change; post nothing')
    .option('--idempotency-key <key>', 'a retry with the same key answers the first reversal instead of refusing a second one (kept 24 hours)')
    .option('--override-reason <reason>', 'why a reversal dated on or before the lock date is posted anyway (needs periods:override)')
    .addHelpText('after', '\nExamples:\n  $ ledger journal-entries reverse 0193... --date 2026-03-31 --dry-run --api-key tsk_...'
      + '\n  $ ledger journal-entries reverse 0193... --date 2026-03-31 --api-key tsk_...')
    .action(withService(async (service, global, options: { date?: string; dryRun?: boolean; idempotencyKey?: string; overrideReason?: string },
      id: string) => {
      const actor = await actorFromApiKey(service, global, 'journal-entries reverse');
      const { USE_CASES } = await import('../../service/use-cases.js');
      const input = { id, entry_date: options.date, override_reason: options.overrideReason };
      const outcome = await service.execute(USE_CASES.reverse_journal_entry, {
        actor, input, dryRun: options.dryRun, idempotencyKey: options.idempotencyKey,
      });
      if (global.json) printJson({ data: outcome.data });
      else if (outcome.kind === 'dry-run') printDryRun(outcome.data, await currencyCodes(service));
      else {
        process.stdout.write(outcome.kind === 'replayed' ? 'Reversed before (replayed for this idempotency key):\n' : 'Posted reversal:\n');
        printEntry(outcome.data, await currencyCodes(service));
      }
    }));

  entries.command('import <file>')
    .description('Post every entry of a JSON-lines or CSV file in one transaction: all or nothing (needs an API key)')
    .addOption(new Option('--format <format>', 'file format (default: from the file extension)').choices(['jsonl', 'csv']))
    .addHelpText('after', `
JSON lines: one API entry body per line.
CSV: a header row with entry,entry_date,description,reference,account_number,debit,credit,line_description;
rows with the same "entry" value (consecutive) form one entry; debit and credit in major units (3200.00),
with at most the decimal places of the account's currency. The header may name account_id instead of
account_number, and debit_amount,credit_amount (minor units, 320000) instead of debit,credit.
A bad entry or row rejects the whole file and names its line number.

Examples:
  $ ledger journal-entries import entries.jsonl --api-key tsk_...
  $ ledger journal-entries import march.csv --api-key tsk_...`)
    .action(withService(async (service, global, options: { format?: string }, file: string) => {
      const actor = await actorFromApiKey(service, global, 'journal-entries import');
      const { importEntries } = await import('../import-entries.js');
      const count = await importEntries(service, actor, file, options.format);
      if (global.json) printJson({ data: { imported: count } });
      else process.stdout.write(`Imported ${count} entries.\n`);
    }));
}

export function readJsonFile(path: string): unknown {
  const text = readInput(path);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw validationError(`${path} is not valid JSON: ${(error as Error).message}`, 'file', 'Check the JSON syntax of the file');
  }
}

