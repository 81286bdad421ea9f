/**
 * `ledger bank import|statements|lines|line|candidates|post|accept|match|exclude|unmatch` and
 * `ledger bank rules ...` (bank-rules.ts): bank and card statements and their lines, through the
 * same service calls as /api/v1/bank-statements, /bank-lines and /bank-rules. Every write acts as
 * the user of the API key, as over HTTP; `--json` prints the API's answer.
 */
import { type Command, Option } from 'commander';
import { validationError } from '../../domain/errors.js';
import type { BankLineView } from '../../schemas/bank.js';
import { type AccountLabels, accountLabels } from '../account-labels.js';
import { checkedBody } from '../checked-body.js';
import { printJson } from '../output.js';
import { collect } from '../paging.js';
import { parseLimit } from '../parse.js';
import { readInputBytes } from '../read-input.js';
import {
  oneLine, printBankLine, printBankLines, printCandidates, printStatements, printStatementSummary,
} from '../render/bank.js';
import { withCode } from '../render/format.js';
import { type CurrencyCodes, currencyCodes } from '../currency-codes.js';
import { printTable } from '../render/table.js';
import { resolveAccount, resolvedIds } from '../resolve-names.js';
import { actorFromApiKey, withService } from '../with-service.js';
import { printEntry, readJsonFile } from './journal-entries.js';
import { registerBankRuleCommands } from './bank-rules.js';

const FORMATS = ['csv', 'ofx', 'camt053'];
const STATUSES = ['unmatched', 'matched', 'excluded'];

interface ImportOptions {
  account: string;
  format: 'csv' | 'ofx' | 'camt053';
  map?: string;
  dryRun?: boolean;
}

interface LinesOptions {
  account?: string;
  statement?: string;
  status?: 'unmatched' | 'matched' | 'excluded';
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

interface PostOptions {
  counter?: string;
  description?: string;
  date?: string;
  dryRun?: boolean;
  idempotencyKey?: string;
}

function lineSummary(line: BankLineView, labels: AccountLabels): string {
  return `${line.posted_date}  ${withCode(line.display_amount, labels.currencyCode(line.account_id))}  ${oneLine(line.description)}`;
}

export function registerBankCommands(program: Command): void {
  const bank = program.command('bank').description('Bank and card statements: import them, post or match their lines, manage rules');

  bank.command('import <file>')
    .description('Import a bank or card statement file: all of its new lines, or nothing (needs an API key)')
    .requiredOption('--account <account>', 'the bank (asset) or card (liability) account the statement is of (id, number or name)')
    .addOption(new Option('--format <format>', 'the file\'s format').choices(FORMATS).makeOptionMandatory())
    .option('--map <mapping.json>', 'CSV only: a JSON file with the column mapping (the API\'s "csv" object)')
    .option('--dry-run', 'read and check the file and count its new and duplicate lines as the import would; import nothing')
    .addHelpText('after', `
The file's bytes are sent as they are: UTF-8 (with or without a BOM), Windows-1252, or what an XML
declaration or OFX header says, detected exactly as over HTTP. OFX covers 1.x (SGML), 2.x and QFX;
camt053 is ISO 20022 BkToCstmrStmt. A CSV file needs --map, for example:
  {"delimiter": ";", "skip_rows": 2, "date_column": "Buchungstag", "date_format": "DD.MM.YYYY",
   "description_column": "Verwendungszweck", "amount_column": "Betrag", "decimal_separator": ","}
The same file again is refused (DUPLICATE); lines imported before from an overlapping file are
skipped and counted as duplicates. A file with one bad line imports nothing.

Examples:
  $ ledger bank import march.ofx --account 1000 --format ofx --dry-run --api-key tsk_...
  $ ledger bank import march.ofx --account 1000 --format ofx --api-key tsk_...
  $ ledger bank import giro.csv --account "Giro account" --format csv --map giro-mapping.json --api-key tsk_...`)
    .action(withService(async (service, global, options: ImportOptions, file: string) => {
      if (options.format === 'csv' && options.map === undefined) {
        throw validationError('A CSV statement needs its column mapping: pass --map <mapping.json>', '--map',
          'Write the mapping as JSON: {"date_column", "date_format", "description_column", "amount_column" (or "debit_column" and "credit_column"), ...}; see `ledger bank import --help`');
      }
      if (options.format !== 'csv' && options.map !== undefined) {
        throw validationError(`--map is for CSV files only; a ${options.format} file names its own fields`, '--map', 'Leave --map out');
      }
      const actor = await actorFromApiKey(service, global, 'bank import');
      const body = await checkedBody(async () => (await import('../../schemas/bank.js')).ImportStatementBody, {
        account_id: await resolveAccount(service, options.account), format: options.format,
        content_base64: readInputBytes(file).toString('base64'),
        csv: options.map === undefined ? undefined : readJsonFile(options.map),
      });
      const { USE_CASES } = await import('../../service/use-cases.js');
      const outcome = await service.execute(USE_CASES.import_bank_statement, { actor, input: body, dryRun: options.dryRun });
      if (global.json) printJson({ data: outcome.data });
      else if (outcome.kind === 'dry-run') printStatementSummary(outcome.data.statement, await accountLabels(service), true);
      else printStatementSummary(outcome.data, await accountLabels(service));
    }));

  bank.command('statements')
    .description('List imported statements, in import order')
    .option('--account <account>', 'only statements of this account (id, number or name)')
    .option('--limit <n>', 'return one page of at most n statements', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExample:\n  $ ledger bank statements --account 1000')
    .action(withService(async (service, { json }, options: { account?: string; limit?: number; cursor?: string }) => {
      const ids = await resolvedIds(service, { account: options.account });
      const page = await collect((cursor) => service.listBankStatements({ account_id: ids.account, limit: options.limit ?? 200, cursor }), options);
      if (json) printJson(page);
      else printStatements(page.data, await accountLabels(service));
    }));

  bank.command('lines')
    .description('List bank lines, oldest first, each unmatched one with the suggestion of the rules')
    .option('--account <account>', 'only lines of this account (id, number or name)')
    .option('--statement <id>', 'only lines of this statement')
    .addOption(new Option('--status <status>', 'only lines with this status').choices(STATUSES))
    .option('--from <date>', 'only lines dated on or after this day')
    .option('--to <date>', 'only lines dated on or before this day')
    .option('--limit <n>', 'return one page of at most n lines', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page (with the same filters)')
    .addHelpText('after', '\nThe SUGGESTION column is the counter account the first matching rule would post to, RULE its name.\n'
      + '\nExamples:\n  $ ledger bank lines --account 1000 --status unmatched\n  $ ledger bank lines --from 2026-03-01 --to 2026-03-31 --json')
    .action(withService(async (service, { json }, options: LinesOptions) => {
      const ids = await resolvedIds(service, { account: options.account });
      const filter = { account_id: ids.account, statement_id: options.statement, status: options.status, start_date: options.from,
        end_date: options.to };
      const page = await collect((cursor) => service.listBankLines({ ...filter, limit: options.limit ?? 200, cursor }), options);
      if (json) printJson(page);
      else printBankLines(page.data, await accountLabels(service));
    }));

  bank.command('line <id>')
    .description('Show a bank line: its status, its entries or its suggestion and why')
    .addHelpText('after', '\nExample:\n  $ ledger bank line 0193...')
    .action(withService(async (service, { json }, _options, id: string) => {
      const line = await service.getBankLine(id);
      if (json) printJson({ data: line });
      else printBankLine(line, await accountLabels(service));
    }));

  bank.command('candidates <line-id>')
    .description('Posted entries an unmatched line could be matched to: the same amount on the bank account within 7 days, best first')
    .addHelpText('after', '\nExample:\n  $ ledger bank candidates 0193...\n  $ ledger bank match 0193... --entry <the best candidate\'s ENTRY> --api-key tsk_...')
    .action(withService(async (service, { json }, _options, id: string) => {
      const candidates = await service.bankLineCandidates(id);
      if (json) printJson(candidates);
      else printCandidates(candidates.data);
    }));

  bank.command('post <line-id>')
    .description('Post a bank line as a new two-line entry and match the line to it (needs an API key with bank:write and journals:create)')
    .option('--counter <account>', 'the account on the other side (id, number or name); default: the suggestion\'s')
    .option('--description <text>', 'the entry\'s description; default: the suggestion\'s, else the bank line\'s')
    .option('--date <date>', 'the entry\'s date; default: the bank line\'s date')
    .option('--dry-run', 'run every rule of the post and show the entry it would post; post nothing')
    .option('--idempotency-key <key>', 'a retry with the same key answers the first post instead of refusing the matched line (kept 24 hours)')
    .addHelpText('after', '\nExamples:\n  $ ledger bank post 0193... --dry-run --api-key tsk_...\n'
      + '  $ ledger bank post 0193... --counter 6100 --description "Account fee" --api-key tsk_...')
    .action(withService(async (service, global, options: PostOptions, id: string) => {
      const actor = await actorFromApiKey(service, global, 'bank post');
      const body = await checkedBody(async () => (await import('../../schemas/bank.js')).PostBankLineBody, {
        counter_account_id: options.counter === undefined ? undefined : await resolveAccount(service, options.counter, '--counter'),
        description: options.description, entry_date: options.date,
      });
      const { USE_CASES } = await import('../../service/use-cases.js');
      const outcome = await service.execute(USE_CASES.post_bank_line, {
        actor, input: { id, ...body }, dryRun: options.dryRun, idempotencyKey: options.idempotencyKey,
      });
      if (global.json) {
        printJson({ data: outcome.data });
        return;
      }
      if (outcome.kind === 'dry-run') {
        printPostDryRun(outcome.data.entries, await currencyCodes(service));
        return;
      }
      const line = outcome.data;
      const entry = await service.getJournalEntry(line.journal_entry_ids[0]!);
      process.stdout.write(`Posted bank line ${line.id} (${lineSummary(line, await accountLabels(service))}) as:\n`);
      printEntry(entry, await currencyCodes(service));
    }));

  bank.command('accept <line-ids...>')
    .description('Post every listed line by its suggestion in one transaction, all or none (needs an API key with bank:write and journals:create)')
    .option('--dry-run', 'run every rule and show the entries they would post; post nothing')
    .option('--idempotency-key <key>', 'a retry with the same key and lines answers the first accept instead of acting again (kept 24 hours)')
    .addHelpText('after', '\nA line without a suggestion fails the whole batch; nothing is posted then.\n'
      + '\nExamples:\n  $ ledger bank accept 0193...a 0193...b --dry-run --api-key tsk_...\n  $ ledger bank accept 0193...a 0193...b --api-key tsk_...')
    .action(withService(async (service, global, options: { dryRun?: boolean; idempotencyKey?: string }, lineIds: string[]) => {
      const actor = await actorFromApiKey(service, global, 'bank accept');
      const { USE_CASES } = await import('../../service/use-cases.js');
      const useCase = USE_CASES.accept_bank_lines;
      const input = await checkedBody(async () => useCase.input, { line_ids: lineIds });
      const outcome = await service.execute(useCase, { actor, input, dryRun: options.dryRun, idempotencyKey: options.idempotencyKey });
      if (global.json) {
        printJson({ data: outcome.data });
        return;
      }
      if (outcome.kind === 'dry-run') {
        printPostDryRun(outcome.data.entries, await currencyCodes(service));
        return;
      }
      const lines = outcome.data;
      const labels = await accountLabels(service);
      process.stdout.write(`Posted ${lines.length} bank ${lines.length === 1 ? 'line' : 'lines'}:\n`);
      printTable(['BANK LINE', 'DATE', 'AMOUNT', 'DESCRIPTION', 'ENTRY'], lines.map((line) => [
        line.id, line.posted_date, withCode(line.display_amount, labels.currencyCode(line.account_id)), oneLine(line.description),
        line.journal_entry_ids.join(', '),
      ]), { rightAligned: [2] });
    }));

  bank.command('match <line-id>')
    .description('Match a bank line to posted entries whose lines on the bank account add up to exactly its amount (needs an API key)')
    .requiredOption('--entry <ids...>', 'the journal entries (one or more: --entry A B, or --entry A --entry B)')
    .addHelpText('after', '\nOne deposit paying three invoices is one line matched to three entries.\n'
      + '\nExamples:\n  $ ledger bank match 0193... --entry 0194... --api-key tsk_...\n  $ ledger bank match 0193... --entry 0194...a --entry 0194...b --api-key tsk_...')
    .action(withService(async (service, global, options: { entry: string[] }, id: string) => {
      const actor = await actorFromApiKey(service, global, 'bank match');
      const body = await checkedBody(async () => (await import('../../schemas/bank.js')).MatchBankLineBody, { journal_entry_ids: options.entry });
      const line = await service.matchBankLine(actor, id, body);
      if (global.json) printJson({ data: line });
      else process.stdout.write(`Matched bank line ${line.id} (${lineSummary(line, await accountLabels(service))}) to ${line.journal_entry_ids.join(', ')}\n`);
    }));

  bank.command('exclude <line-id>')
    .description('Exclude a bank line from the books, with a reason: kept, never deleted (needs an API key)')
    .requiredOption('--reason <text>', 'why the line is not in the books')
    .addHelpText('after', '\nExample:\n  $ ledger bank exclude 0193... --reason "Card charge reversed the same day" --api-key tsk_...')
    .action(withService(async (service, global, options: { reason: string }, id: string) => {
      const actor = await actorFromApiKey(service, global, 'bank exclude');
      const body = await checkedBody(async () => (await import('../../schemas/bank.js')).ExcludeBankLineBody, { reason: options.reason });
      const line = await service.excludeBankLine(actor, id, body);
      if (global.json) printJson({ data: line });
      else process.stdout.write(`Excluded bank line ${line.id} (${lineSummary(line, await accountLabels(service))}): ${line.excluded_reason}\n`);
    }));

  bank.command('unmatch <line-id>')
    .description('Take a match or an exclusion back: the line is unmatched again and its entries stay posted (needs an API key)')
    .addHelpText('after', '\nA line of a finished reconciliation is refused (RECONCILED).\n\nExample:\n  $ ledger bank unmatch 0193... --api-key tsk_...')
    .action(withService(async (service, global, _options, id: string) => {
      const actor = await actorFromApiKey(service, global, 'bank unmatch');
      const line = await service.unmatchBankLine(actor, id);
      if (global.json) printJson({ data: line });
      else process.stdout.write(`Bank line ${line.id} (${lineSummary(line, await accountLabels(service))}) is unmatched; its entries stay posted\n`);
    }));

  registerBankRuleCommands(bank);
}

function printPostDryRun(entries: Parameters<typeof printEntry>[0][], codes: CurrencyCodes): void {
  process.stdout.write('Dry run (nothing was posted):\n');
  entries.forEach((entry, index) => {
    if (index > 0) process.stdout.write('\n');
    printEntry(entry, codes);
  });
}
