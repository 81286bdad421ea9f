/** `ledger accounts list|get|create`. */
import { type Command, Option } from 'commander';
import type { AccountView } from '../../schemas/account.js';
import { LOCAL_OPERATOR } from '../../service/actor.js';
import { printJson } from '../output.js';
import { collect } from '../paging.js';
import { parseLimit } from '../parse.js';
import { printFields, withCode, yesNo } from '../render/format.js';
import { printTable } from '../render/table.js';
import { checkedBody } from '../checked-body.js';
import { resolveAccount, resolvedIds } from '../resolve-names.js';
import { withService } from '../with-service.js';
import { currencyCodes } from '../currency-codes.js';
import type { LedgerService } from '../../service/ledger-service.js';

const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'];

/** The accounts with their currency's code and their control account's number, as people know them. */
async function printAccounts(service: LedgerService, accounts: AccountView[]): Promise<void> {
  const codes = await currencyCodes(service);
  const numbers = new Map(accounts.map((account) => [account.id, account.account_number]));
  for (const { parent_id: parentId } of accounts) {
    // A control account outside the rows shown (a --parent or --type filter, a page) is read by its id.
    if (parentId !== null && !numbers.has(parentId)) numbers.set(parentId, await parentNumber(service, parentId));
  }
  printTable(['ID', 'NUMBER', 'NAME', 'TYPE', 'NORMAL', 'CURRENCY', 'PARENT', 'ACTIVE'],
    accounts.map((a) => [a.id, a.account_number, a.has_subledger ? `${a.name} (control)` : a.name, a.account_type,
      a.normal_balance, codes(a.currency_id), a.parent_id === null ? '' : numbers.get(a.parent_id)!, yesNo(a.is_active)]));
}

async function parentNumber(service: LedgerService, id: string): Promise<string> {
  return (await service.getAccount(id).catch(() => undefined))?.account_number ?? id;
}

export function registerAccountCommands(program: Command): void {
  const accounts = program.command('accounts').description('The chart of accounts');

  accounts.command('list')
    .description('List accounts, ordered by account number')
    .addOption(new Option('--type <type>', 'only accounts of this type').choices(ACCOUNT_TYPES))
    .option('--currency <currency>', 'only accounts in this currency (id, code or name)')
    .option('--parent <account>', 'only sub-accounts of this control account (id, number or name)')
    .option('--limit <n>', 'return one page of at most n accounts', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExample:\n  $ ledger accounts list --type revenue')
    .action(withService(async (service, { json }, options: { type?: AccountView['account_type']; currency?: string; parent?: string; limit?: number; cursor?: string }) => {
      const ids = await resolvedIds(service, { currency: options.currency, parent: options.parent });
      const filter = { account_type: options.type, currency_id: ids.currency, parent_id: ids.parent };
      const page = await collect((cursor) => service.listAccounts({ ...filter, limit: options.limit ?? 200, cursor }), options);
      if (json) printJson(page);
      else await printAccounts(service, page.data);
    }));

  accounts.command('get <account>')
    .description('Show an account with its balance (by id, number or name)')
    .addHelpText('after', '\nExamples:\n  $ ledger accounts get 1010\n  $ ledger accounts get "Petty cash"')
    .action(withService(async (service, { json }, _options, text: string) => {
      const account = await service.getAccount(await resolveAccount(service, text, 'account'));
      const balance = await service.getAccountBalance(account.id);
      if (json) {
        printJson({ data: { ...account, balance } });
        return;
      }
      const { code } = await service.getCurrency(account.currency_id);
      const parent = account.parent_id === null ? null : await service.getAccount(account.parent_id).catch(() => undefined);
      printFields([
        ['ID', account.id], ['Number', account.account_number], ['Name', account.name], ['Type', account.account_type],
        ['Normal balance', account.normal_balance], ['Currency', code],
        ['Control account', yesNo(account.has_subledger)],
        ['Parent', parent === null ? null : parent === undefined ? account.parent_id : `${parent.account_number} ${parent.name}`],
        ['Entity', account.entity_id], ['XBRL tag', account.xbrl_tag], ['Active', yesNo(account.is_active)],
        ['Debits', withCode(balance.display_debits, code)], ['Credits', withCode(balance.display_credits, code)],
        ['Balance', withCode(balance.display_balance, code)],
      ]);
    }));

  accounts.command('create')
    .description('Create an account; with --parent and --entity a sub-account of a control account')
    .requiredOption('--number <number>', 'unique account number')
    .requiredOption('--name <name>', 'display name')
    .option('--currency <currency>', 'currency id, code or name (inherited for a sub-account)')
    .addOption(new Option('--type <type>', 'account type (inherited for a sub-account)').choices(ACCOUNT_TYPES))
    .addOption(new Option('--normal-balance <side>', 'normal side (inherited for a sub-account)').choices(['debit', 'credit']))
    .option('--subledger', 'make it a control account that takes sub-accounts')
    .option('--parent <account>', 'the control account this sub-account belongs to (id, number or name)')
    .option('--entity <entity-id>', 'the customer, supplier or other entity of the sub-account')
    .option('--xbrl <tag>', 'XBRL classification tag')
    .addHelpText('after', `
Examples:
  $ ledger accounts create --number 1000 --name Cash --currency <usd-id> --type asset --normal-balance debit
  $ ledger accounts create --number 1200 --name Receivables --currency <usd-id> --type asset --normal-balance debit --subledger
  $ ledger accounts create --number 1200-001 --name "Receivable: Acme" --parent <1200-id> --entity acme`)
    .action(withService(async (service, { json }, options: { number: string; name: string; currency?: string; type?: AccountView['account_type']; normalBalance?: 'debit' | 'credit'; subledger?: boolean; parent?: string; entity?: string; xbrl?: string }) => {
      const ids = await resolvedIds(service, { currency: options.currency, parent: options.parent });
      const body = await checkedBody(async () => (await import('../../schemas/account.js')).CreateAccountBody, {
        account_number: options.number, name: options.name, currency_id: ids.currency, account_type: options.type,
        normal_balance: options.normalBalance, has_subledger: options.subledger, parent_id: ids.parent,
        entity_id: options.entity, xbrl_tag: options.xbrl,
      });
      const account = await service.createAccount(LOCAL_OPERATOR, body);
      if (json) printJson({ data: account });
      else process.stdout.write(`Created account ${account.account_number} ${account.name} (${account.id})\n`);
    }));

  accounts.command('delete <account>')
    .description('Delete an account nothing uses (created by mistake, in the wrong currency say); an account in use stays')
    .addHelpText('after', '\nAn account that a journal line, a sub-account, a setting, a bank rule, statement or reconciliation uses is\n'
      + 'refused (ACCOUNT_IN_USE, exit 1): deactivate it instead.\n\nExample:\n  $ ledger accounts delete 1001')
    .action(withService(async (service, { json }, _options, text: string) => {
      const account = await service.deleteAccount(LOCAL_OPERATOR, await resolveAccount(service, text, 'account'));
      if (json) printJson({ data: account });
      else process.stdout.write(`Deleted account ${account.account_number} ${account.name} (${account.id})\n`);
    }));
}
