/** `ledger reports trial-balance|balance-sheet|income-statement|general-ledger`. */
import { type Command, Option } from 'commander';
import type { BalanceSheet } from '../../domain/reports/balance-sheet.js';
import type { GeneralLedgerView } from '../../schemas/report.js';
import { printJson } from '../output.js';
import { parseLimit } from '../parse.js';
import { groupThousands, printFields } from '../render/format.js';
import { printTable } from '../render/table.js';
import { resolvedIds } from '../resolve-names.js';
import { withService } from '../with-service.js';

export function registerReportCommands(program: Command): void {
  const reports = program.command('reports').description('Trial balance, balance sheet, income statement, general ledger');

  reports.command('trial-balance')
    .description('Debit and credit totals per account, all time or for one period')
    .option('--period <period>', 'only this period')
    .option('--currency <currency>', 'only accounts in this currency')
    .addHelpText('after', '\nExample:\n  $ ledger reports trial-balance --period "June 2026" --currency USD')
    .action(withService(async (service, { json }, options: { period?: string; currency?: string }) => {
      const ids = await resolvedIds(service, options);
      const report = await service.trialBalance({ period_id: ids.period, currency_id: ids.currency });
      if (json) {
        printJson({ data: report });
        return;
      }
      // Grouped by currency (by code), each group followed by its totals: amounts of different
      // currencies never share a column unlabelled.
      const codes = new Map<string, string>();
      for (const id of new Set([...report.rows.map((row) => row.currency_id), ...report.totals.map((total) => total.currency_id)])) {
        codes.set(id, (await service.getCurrency(id)).code);
      }
      const rows: string[][] = [];
      for (const [id, code] of [...codes].sort(([, a], [, b]) => compareText(a, b))) {
        for (const row of report.rows.filter((candidate) => candidate.currency_id === id)) {
          rows.push([code, row.account_number, row.account_name, row.account_type, groupThousands(row.display_debit_total),
            groupThousands(row.display_credit_total), groupThousands(row.display_net_balance)]);
        }
        const total = report.totals.find((candidate) => candidate.currency_id === id);
        if (total) {
          rows.push([code, '', `Total${total.is_balanced ? '' : ' (NOT BALANCED)'}`, '', groupThousands(total.display_debit_total),
            groupThousands(total.display_credit_total), '']);
        }
      }
      printTable(['CURRENCY', 'NUMBER', 'ACCOUNT', 'TYPE', 'DEBITS', 'CREDITS', 'BALANCE'], rows, { rightAligned: [4, 5, 6] });
      process.stdout.write(report.is_balanced ? 'Balanced\n' : 'NOT BALANCED\n');
    }));

  reports.command('balance-sheet')
    .description('Assets, liabilities and equity as of a date (inclusive) or through the end of a period')
    .option('--as-of <date>', 'include entries dated up to and including this day')
    .option('--period <period>', 'through the end of this period')
    .option('--currency <currency>', 'report currency (default: the retained earnings account\'s)')
    .addHelpText('after', '\nExample:\n  $ ledger reports balance-sheet --as-of 2026-06-30')
    .action(withService(async (service, { json }, options: { asOf?: string; period?: string; currency?: string }) => {
      const ids = await resolvedIds(service, { period: options.period, currency: options.currency });
      const report = await service.balanceSheet({ as_of_date: options.asOf, period_id: ids.period, currency_id: ids.currency });
      if (json) printJson({ data: report });
      else printBalanceSheet(report, (await service.getCurrency(report.currency_id)).code);
    }));

  reports.command('income-statement')
    .description('Revenue, expenses and net income of a period, or of all time (closing entries excluded)')
    .option('--period <period>', 'only this period (default: all time)')
    .option('--currency <currency>', 'report currency (default: the retained earnings account\'s)')
    .addHelpText('after', '\nExample:\n  $ ledger reports income-statement --period 0193...')
    .action(withService(async (service, { json }, options: { period?: string; currency?: string }) => {
      const ids = await resolvedIds(service, options);
      const report = await service.incomeStatement({ period_id: ids.period, currency_id: ids.currency });
      if (json) {
        printJson({ data: report });
        return;
      }
      const code = (await service.getCurrency(report.currency_id)).code;
      const rows = [
        ...report.revenue.map((row) => [code, 'Revenue', row.account_number, row.account_name, row.display_amount]),
        [code, '', '', 'Total revenue', report.display_total_revenue],
        ...report.expenses.map((row) => [code, 'Expenses', row.account_number, row.account_name, row.display_amount]),
        [code, '', '', 'Total expenses', report.display_total_expenses],
        [code, '', '', 'Net income', report.display_net_income],
      ].map(([first, ...rest]) => [first!, ...rest.slice(0, -1), groupThousands(rest[rest.length - 1]!)]);
      printTable(['CURRENCY', 'SECTION', 'NUMBER', 'ACCOUNT', 'AMOUNT'], rows, { rightAligned: [4] });
    }));

  reports.command('general-ledger')
    .description('Every line of an account (a control account: of its sub-accounts) with running balances')
    .requiredOption('--account <account>', 'the account (id, number or name)')
    .option('--start <date>', 'first day')
    .option('--end <date>', 'last day')
    .option('--period <period>', 'the dates of this period')
    .addOption(new Option('--sort <order>', 'oldest first (asc) or newest first (desc)').choices(['asc', 'desc']))
    .option('--limit <n>', 'return one page of at most n lines (--cursor continues)', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExample:\n  $ ledger reports general-ledger --account 4000 --start 2026-01-01 --end 2026-03-31')
    .action(withService(async (service, { json }, options: { account: string; start?: string; end?: string; period?: string; sort?: 'asc' | 'desc'; limit?: number; cursor?: string }) => {
      const ids = await resolvedIds(service, { account: options.account, period: options.period });
      const query = { account_id: ids.account, start_date: options.start, end_date: options.end, period_id: ids.period, sort: options.sort };
      let report: GeneralLedgerView;
      if (options.limit !== undefined) {
        report = await service.generalLedger({ ...query, limit: options.limit, cursor: options.cursor });
      } else {
        // Every line: follow the pages and print them as one report.
        report = await service.generalLedger({ ...query, limit: 200, cursor: options.cursor });
        while (report.has_more && report.next_cursor !== null) {
          const next = await service.generalLedger({ ...query, limit: 200, cursor: report.next_cursor });
          report = { ...next, lines: [...report.lines, ...next.lines] };
        }
      }
      if (json) {
        printJson({ data: report });
        return;
      }
      const code = (await service.getCurrency(report.currency_id)).code;
      printFields([['Account', `${report.account_number} ${report.account_name}`], ['Currency', code],
        ['Range', `${report.start_date ?? 'beginning'} to ${report.end_date ?? 'today'}`],
        ['Starting balance', groupThousands(report.display_starting_balance)]]);
      printTable(['DATE', 'DESCRIPTION', 'ACCOUNT', 'DEBIT', 'CREDIT', 'BALANCE'], report.lines.map((line) => [
        line.entry_date, line.description, line.account_number, line.debit_amount === '0' ? '' : groupThousands(line.display_debit),
        line.credit_amount === '0' ? '' : groupThousands(line.display_credit), groupThousands(line.display_running_balance),
      ]), { rightAligned: [3, 4, 5] });
      printFields([['Ending balance', groupThousands(report.display_ending_balance)]]);
      if (report.has_more) process.stdout.write(`More lines: --cursor ${report.next_cursor}\n`);
    }));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function printBalanceSheet(report: BalanceSheet, code: string): void {
  const rows: string[][] = [];
  for (const [title, section] of [['Assets', report.assets], ['Liabilities', report.liabilities], ['Equity', report.equity]] as const) {
    for (const account of section.accounts) rows.push([code, title, account.account_number ?? '', account.account_name, groupThousands(account.display_balance)]);
    rows.push([code, '', '', `Total ${title.toLowerCase()}`, groupThousands(section.display_total)]);
  }
  rows.push([code, '', '', 'Total liabilities and equity', groupThousands(report.display_total_liabilities_and_equity)]);
  printTable(['CURRENCY', 'SECTION', 'NUMBER', 'ACCOUNT', 'BALANCE'], rows, { rightAligned: [4] });
  process.stdout.write(`As of ${report.as_of_date ?? 'all dates'}: ${report.is_balanced ? 'balanced' : 'NOT BALANCED'}\n`);
}
