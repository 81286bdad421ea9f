/**
 * `ledger reconcile start|status|clear|unclear|finish|list`: reconciling a bank or card account with
 * its statement (/api/v1/reconciliations). The statement balance is typed in major units, signed by
 * the account's normal side (a bank's money in hand, a card's amount owed), and turned into minor
 * units exactly by the one amount parser. Writes act as the user of the API key.
 */
import type { Command } from 'commander';
import { notFound } from '../../domain/errors.js';
import { parseMajorUnits, toDecimalString } from '../../domain/money/amount.js';
import type { ReconciliationDetailView } from '../../schemas/bank.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { accountLabels } from '../account-labels.js';
import { checkedBody } from '../checked-body.js';
import { printJson } from '../output.js';
import { collect } from '../paging.js';
import { parseLimit } from '../parse.js';
import { printReconciliationReport, printReconciliations } from '../render/reconciliation.js';
import { resolveAccount, resolvedIds } from '../resolve-names.js';
import type { GlobalOptions } from '../global-options.js';
import { actorFromApiKey, withService } from '../with-service.js';

async function printReport(service: LedgerService, global: GlobalOptions, report: ReconciliationDetailView): Promise<void> {
  if (global.json) printJson({ data: report });
  else printReconciliationReport(report, await accountLabels(service));
}

export function registerReconcileCommands(program: Command): void {
  const reconcile = program.command('reconcile').description('Reconcile a bank or card account with its statement, to the last cent');

  reconcile.command('start')
    .description('Start reconciling an account against a statement\'s closing balance (needs an API key with bank:write)')
    .requiredOption('--account <account>', 'the bank or card account (id, number or name)')
    .requiredOption('--date <date>', 'the statement\'s date, YYYY-MM-DD: lines dated on or before it count')
    .requiredOption('--balance <amount>', 'the statement\'s closing balance in major units (1234.56), signed by the account\'s normal side: '
      + 'a bank\'s money in hand, a card\'s amount owed; an overdraft is negative (--balance=-52.10)')
    .addHelpText('after', `
Lines of the account are cleared when they are matched to a bank line dated on or before --date,
were reconciled before, or are marked with \`ledger reconcile clear\` (an opening balance, say).

Examples:
  $ ledger reconcile start --account 1000 --date 2026-03-31 --balance 2432.50 --api-key tsk_...
  $ ledger reconcile start --account "Visa card" --date 2026-01-31 --balance 1085.43 --api-key tsk_...`)
    .action(withService(async (service, global, options: { account: string; date: string; balance: string }) => {
      const actor = await actorFromApiKey(service, global, 'reconcile start');
      const accountId = await resolveAccount(service, options.account);
      // The balance is read at the account's scale, so an unknown account is answered first, as the service would.
      const account = (await accountLabels(service)).of(accountId);
      if (account === undefined) throw notFound('Account', accountId, 'account_id');
      const scale = account.scale;
      const body = await checkedBody(async () => (await import('../../schemas/bank.js')).StartReconciliationBody, {
        account_id: accountId, statement_date: options.date,
        statement_balance: toDecimalString(parseMajorUnits(options.balance, scale, '--balance')),
      });
      await printReport(service, global, await service.startReconciliation(actor, body));
    }));

  reconcile.command('status <id>')
    .description('The reconciliation report: statement balance, previously reconciled, cleared lines, outstanding items, unmatched bank lines, difference')
    .addHelpText('after', '\nEvery figure is signed like the balance (a card\'s amount owed is positive).\n\nExample:\n  $ ledger reconcile status 0193...')
    .action(withService(async (service, global, _options, id: string) => {
      await printReport(service, global, await service.getReconciliation(id));
    }));

  for (const clear of [true, false]) {
    reconcile.command(`${clear ? 'clear' : 'unclear'} <id>`)
      .description(clear ? 'Mark journal lines of the account cleared: an opening balance, or a line the bank has in another form (needs an API key)'
        : 'Take marks back while the reconciliation is open (needs an API key)')
      .requiredOption('--line <journal-line-ids...>', 'the journal lines (ids from the report\'s JOURNAL LINE column)')
      .addHelpText('after', `\nExample:\n  $ ledger reconcile ${clear ? 'clear' : 'unclear'} 0193... --line 0194... --api-key tsk_...`)
      .action(withService(async (service, global, options: { line: string[] }, id: string) => {
        const actor = await actorFromApiKey(service, global, `reconcile ${clear ? 'clear' : 'unclear'}`);
        const body = await checkedBody(async () => (await import('../../schemas/bank.js')).ClearLinesBody, { journal_line_ids: options.line });
        await printReport(service, global, clear ? await service.clearReconciliationLines(actor, id, body)
          : await service.unclearReconciliationLines(actor, id, body));
      }));
  }

  reconcile.command('finish <id>')
    .description('Finish a reconciliation at a difference of exactly zero: its lines stay reconciled for good (needs an API key)')
    .addHelpText('after', '\nA difference other than zero is refused (RECONCILIATION_DIFFERENCE, exit 1).\n\nExample:\n  $ ledger reconcile finish 0193... --api-key tsk_...')
    .action(withService(async (service, global, _options, id: string) => {
      const actor = await actorFromApiKey(service, global, 'reconcile finish');
      await printReport(service, global, await service.finishReconciliation(actor, id));
    }));

  reconcile.command('list')
    .description('List reconciliations, newest statement first')
    .option('--account <account>', 'only reconciliations of this account (id, number or name)')
    .option('--limit <n>', 'return one page of at most n reconciliations', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExample:\n  $ ledger reconcile list --account 1000')
    .action(withService(async (service, { json }, options: { account?: string; limit?: number; cursor?: string }) => {
      const ids = await resolvedIds(service, { account: options.account });
      const page = await collect((cursor) => service.listReconciliations({ account_id: ids.account, limit: options.limit ?? 200, cursor }), options);
      if (json) printJson(page);
      else printReconciliations(page.data, await accountLabels(service));
    }));
}
