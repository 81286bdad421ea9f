/**
 * `ledger bank rules list|get|create|update|delete|preview`: the rules that suggest how to post bank
 * lines (/api/v1/bank-rules). People type amount bounds in major units ("12.50"); they are turned
 * into the API's minor units exactly, at the scale of the rule's currency, by the one amount parser
 * (domain/money/amount.ts). `--file` takes the API's body as it is, in minor units.
 */
import { type Command, Option } from 'commander';
import { notFound, validationError } from '../../domain/errors.js';
import { parseMajorUnits, toDecimalString } from '../../domain/money/amount.js';
import type { BankRuleView, CreateBankRuleInput } from '../../schemas/bank.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { type AccountLabels, accountLabels } from '../account-labels.js';
import { checkedBody } from '../checked-body.js';
import { printJson } from '../output.js';
import { collect } from '../paging.js';
import { parseInteger, parseLimit } from '../parse.js';
import { oneLine, printRules } from '../render/bank.js';
import { withCode } from '../render/format.js';
import { printTable } from '../render/table.js';
import { resolveAccount } from '../resolve-names.js';
import { actorFromApiKey, withService } from '../with-service.js';
import { readJsonFile } from './journal-entries.js';

interface RuleOptions {
  name?: string;
  priority?: number;
  account?: string;
  allAccounts?: boolean;
  contains?: string;
  regex?: string;
  min?: string;
  max?: string;
  direction?: 'in' | 'out';
  counter?: string;
  description?: string;
  file?: string;
}

type Match = CreateBankRuleInput['match'];

const AMOUNT_HELP = 'in major units as you would write it (12.50), compared with the size of the amount (money in or out)';

/** The options every rule command that describes a rule takes. */
function ruleOptions(command: Command, purpose: 'create' | 'update' | 'preview'): Command {
  return command
    .option('--name <name>', purpose === 'update' ? 'a new display name' : 'display name')
    .option('--priority <n>', 'lower applies first (default 100)', parseInteger)
    .option('--account <account>', 'only lines of this bank or card account (id, number or name); default: every bank account')
    .option('--contains <text>', 'the description contains this text (case-insensitive)')
    .option('--regex <expression>', 'the description matches this regular expression (case-insensitive, JavaScript syntax)')
    .option('--min <amount>', `at least this amount, ${AMOUNT_HELP}`)
    .option('--max <amount>', `at most this amount, ${AMOUNT_HELP}`)
    .addOption(new Option('--direction <direction>', 'only money in or only money out').choices(['in', 'out']))
    .option('--counter <account>', 'the account a matching line posts against (id, number or name)')
    .option('--description <text>', 'the posted entry\'s description (default: the bank line\'s)')
    .option('--file <rule.json>', `the API's ${purpose === 'update' ? 'PATCH' : 'rule'} body as JSON (amounts in minor units) instead of the options; - for stdin`);
}

const RULE_OPTION_NAMES = ['name', 'priority', 'account', 'allAccounts', 'contains', 'regex', 'min', 'max', 'direction', 'counter', 'description'] as const;

function refuseOptionsWithFile(options: RuleOptions): void {
  const given = RULE_OPTION_NAMES.filter((name) => options[name] !== undefined);
  if (options.file !== undefined && given.length > 0) {
    throw validationError(`--file gives the whole rule; leave out --${given[0]!.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`, '--file',
      'Put every field in the file, or use the options alone');
  }
}

/** A bound typed in major units, as the API's minor-unit string. */
function minorUnits(text: string | undefined, scale: number, option: string): string | undefined {
  if (text === undefined) return undefined;
  const amount = parseMajorUnits(text, scale, option);
  if (amount < 0n) {
    throw validationError(`${option} is the size of an amount, without a sign`, option, 'Use --direction out for money out; bounds compare the absolute amount');
  }
  return toDecimalString(amount);
}

/**
 * The scale of the rule's currency: its bank account's, else its counter account's (a post needs
 * both in one currency). An account that does not exist is answered as the service answers it.
 */
function scaleFor(labels: AccountLabels, accountId: string | null | undefined, counterId: string): number {
  if (accountId !== null && accountId !== undefined) {
    const account = labels.of(accountId);
    if (account === undefined) throw notFound('Account', accountId, 'account_id');
    return account.scale;
  }
  const counter = labels.of(counterId);
  if (counter === undefined) throw notFound('Account', counterId, 'counter_account_id');
  return counter.scale;
}

/** The conditions the options give; bounds converted at `scale`. */
function matchOf(options: RuleOptions, scale: () => number): Partial<Match> {
  const needsScale = options.min !== undefined || options.max !== undefined;
  const at = needsScale ? scale() : 0;
  const match: Partial<Match> = {
    description_contains: options.contains, description_regex: options.regex, direction: options.direction,
    amount_min: minorUnits(options.min, at, '--min'), amount_max: minorUnits(options.max, at, '--max'),
  };
  return Object.fromEntries(Object.entries(match).filter(([, value]) => value !== undefined)) as Partial<Match>;
}

/** The API's rule body from the options (create and preview). */
async function ruleBody(service: LedgerService, options: RuleOptions): Promise<Record<string, unknown>> {
  if (options.file !== undefined) return readJsonFile(options.file) as Record<string, unknown>;
  if (options.name === undefined) throw validationError('A rule needs --name (or --file with the whole rule)', '--name');
  if (options.counter === undefined) {
    throw validationError('A rule needs --counter: the account its lines post against (or --file with the whole rule)', '--counter');
  }
  const accountId = options.account === undefined ? undefined : await resolveAccount(service, options.account);
  const counterId = await resolveAccount(service, options.counter, '--counter');
  const labels = await accountLabels(service);
  return {
    name: options.name, priority: options.priority, account_id: accountId, counter_account_id: counterId, description: options.description,
    match: matchOf(options, () => scaleFor(labels, accountId, counterId)),
  };
}

/** The API's PATCH body from the options: match conditions given replace those of the rule, the others stay. */
async function patchBody(service: LedgerService, id: string, options: RuleOptions): Promise<Record<string, unknown>> {
  if (options.file !== undefined) return readJsonFile(options.file) as Record<string, unknown>;
  if (options.account !== undefined && options.allAccounts === true) {
    throw validationError('--account and --all-accounts exclude each other', '--all-accounts');
  }
  const rule = await service.getBankRule(id);
  const accountId = options.allAccounts === true ? null
    : options.account === undefined ? undefined : await resolveAccount(service, options.account);
  const counterId = options.counter === undefined ? undefined : await resolveAccount(service, options.counter, '--counter');
  const labels = await accountLabels(service);
  const given = matchOf(options, () => scaleFor(labels, accountId === undefined ? rule.account_id : accountId, counterId ?? rule.counter_account_id));
  return {
    name: options.name, priority: options.priority, account_id: accountId, counter_account_id: counterId, description: options.description,
    match: Object.keys(given).length === 0 ? undefined : { ...rule.match, ...given },
  };
}

function printRule(verb: string, rule: BankRuleView, labels: AccountLabels): void {
  process.stdout.write(`${verb} rule ${rule.name} (${rule.id}):\n`);
  printRules([rule], labels);
}

export function registerBankRuleCommands(bank: Command): void {
  const rules = bank.command('rules').description('Rules that suggest how to post bank lines: the first matching rule, by priority, suggests');

  rules.command('list')
    .description('List rules in the order they apply: priority, then creation')
    .option('--limit <n>', 'return one page of at most n rules', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExample:\n  $ ledger bank rules list')
    .action(withService(async (service, { json }, options: { limit?: number; cursor?: string }) => {
      const page = await collect((cursor) => service.listBankRules({ limit: options.limit ?? 200, cursor }), options);
      if (json) printJson(page);
      else printRules(page.data, await accountLabels(service));
    }));

  rules.command('get <id>')
    .description('Show a rule')
    .addHelpText('after', '\nExample:\n  $ ledger bank rules get 0193...')
    .action(withService(async (service, { json }, _options, id: string) => {
      const rule = await service.getBankRule(id);
      if (json) printJson({ data: rule });
      else printRules([rule], await accountLabels(service));
    }));

  ruleOptions(rules.command('create'), 'create')
    .description('Create a rule (needs an API key with bank:write)')
    .addHelpText('after', `
Every condition given must hold. --min and --max are in major units of the rule's currency (its
--account's, else its --counter's): 12.50 is 1250 minor units in a currency with 2 decimals.

Examples:
  $ ledger bank rules create --name "Bank fees" --account 1000 --contains entgelt --direction out --counter 6100 --api-key tsk_...
  $ ledger bank rules create --name Groceries --regex '\\b(rewe|edeka)\\b' --max 150.00 --counter 6200 --priority 10 --api-key tsk_...
  $ ledger bank rules create --file rule.json --api-key tsk_...`)
    .action(withService(async (service, global, options: RuleOptions) => {
      refuseOptionsWithFile(options);
      const actor = await actorFromApiKey(service, global, 'bank rules create');
      const body = await checkedBody(async () => (await import('../../schemas/bank.js')).CreateBankRuleBody, await ruleBody(service, options));
      const rule = await service.createBankRule(actor, body);
      if (global.json) printJson({ data: rule });
      else printRule('Created', rule, await accountLabels(service));
    }));

  ruleOptions(rules.command('update <id>'), 'update')
    .description('Change a rule (needs an API key with bank:write)')
    .option('--all-accounts', 'the rule applies to every bank account (instead of --account)')
    .addHelpText('after', `
Conditions given replace the rule's conditions of the same kind; the others stay. --min and --max are
in major units. To remove a condition, give the whole "match" object in --file (the API's PATCH body).

Examples:
  $ ledger bank rules update 0193... --priority 5 --max 60.00 --api-key tsk_...
  $ ledger bank rules update 0193... --all-accounts --api-key tsk_...`)
    .action(withService(async (service, global, options: RuleOptions, id: string) => {
      refuseOptionsWithFile(options);
      const actor = await actorFromApiKey(service, global, 'bank rules update');
      const body = await checkedBody(async () => (await import('../../schemas/bank.js')).UpdateBankRuleBody, await patchBody(service, id, options));
      const rule = await service.updateBankRule(actor, id, body);
      if (global.json) printJson({ data: rule });
      else printRule('Updated', rule, await accountLabels(service));
    }));

  rules.command('delete <id>')
    .description('Delete a rule (needs an API key with bank:write); lines it suggested for lose the suggestion')
    .addHelpText('after', '\nExample:\n  $ ledger bank rules delete 0193... --api-key tsk_...')
    .action(withService(async (service, global, _options, id: string) => {
      const actor = await actorFromApiKey(service, global, 'bank rules delete');
      const rule = await service.deleteBankRule(actor, id);
      if (global.json) printJson({ data: rule });
      else process.stdout.write(`Deleted rule ${rule.name} (${rule.id})\n`);
    }));

  ruleOptions(rules.command('preview'), 'preview')
    .description('Try a rule on the unmatched lines without saving it: the lines it would suggest for, and why (needs an API key with bank:write)')
    .option('--limit <n>', 'show at most n lines (default 50)', parseLimit)
    .addHelpText('after', '\nExample:\n  $ ledger bank rules preview --name Coffee --contains kaffee --counter 6200 --api-key tsk_...')
    .action(withService(async (service, global, options: RuleOptions & { limit?: number }) => {
      const { limit, ...ruleOnly } = options;
      refuseOptionsWithFile(ruleOnly);
      const actor = await actorFromApiKey(service, global, 'bank rules preview');
      const body = await checkedBody(async () => (await import('../../schemas/bank.js')).PreviewBankRuleBody,
        { rule: await ruleBody(service, ruleOnly), limit: limit === undefined ? undefined : Math.min(limit, 200) });
      const preview = await service.previewBankRule(actor, body);
      if (global.json) {
        printJson({ data: preview });
        return;
      }
      const labels = await accountLabels(service);
      printTable(['BANK LINE', 'DATE', 'AMOUNT', 'DESCRIPTION', 'WHY', 'SUGGESTED NOW BY'], preview.matches.map((match) => [
        match.line.id, match.line.posted_date, withCode(match.line.display_amount, labels.currencyCode(match.line.account_id)),
        oneLine(match.line.description), match.reason, match.line.suggestion?.rule_name ?? '',
      ]), { rightAligned: [2] });
      process.stdout.write(`${preview.matches.length} of ${preview.examined} unmatched lines examined would match; nothing was saved\n`);
    }));
}
