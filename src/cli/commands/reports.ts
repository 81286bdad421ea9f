/** `ledger reports trial-balance|balance-sheet|income-statement|general-ledger`. */
import { type Command, Option } from 'commander';
import type { BalanceSheet } from '../../domain/reports/balance-sheet.js';
import type { IncomeStatement } from '../../domain/reports/income-statement.js';
import type { GeneralLedgerView } from '../../schemas/report.js';
import { printJson } from '../output.js';
import { parseLimit } from '../parse.js';
import { printFields } from '../render/format.js';
import { printTable } from '../render/table.js';
import { withService } from '../with-service.js';

export function registerReportCommands(program: Command): void {
  const reports = program.command('reports').description('Trial balance, balance sheet, income statement, general ledger');

  reports.command('trial-balance')
    .description('Debit and credit totals per account: balances (all time or --as-of) or the movement of --period or --start/--end')
    .option('--as-of <date>', 'balances including entries dated up to and including this day')
    .option('--period <period-id>', 'the movement of this period')
    .option('--start <date>', 'the movement from this day (inclusive)')
    .option('--end <date>', 'the movement up to this day (inclusive)')
    .option('--currency <currency-id>', 'only accounts in this currency')
    .addHelpText('after', '\nExamples:\n  $ ledger reports trial-balance --as-of 2026-03-31\n'
      + '  $ ledger reports trial-balance --start 2026-01-01 --end 2026-03-31')
    .action(withService(async (service, { json }, options: { asOf?: string; period?: string; start?: string; end?: string; currency?: string }) => {
      const report = await service.trialBalance({
        as_of_date: options.asOf, period_id: options.period, start_date: options.start, end_date: options.end, currency_id: options.currency,
      });
      if (json) {
        printJson({ data: report });
        return;
      }
      process.stdout.write(`${report.label}\n`);
      printTable(['NUMBER', 'ACCOUNT', 'TYPE', 'DEBITS', 'CREDITS', 'BALANCE', 'DEBIT BALANCE', 'CREDIT BALANCE'], report.rows.map((row) => [
        row.account_number, row.account_name, row.account_type, row.display_debit_total, row.display_credit_total,
        row.display_net_balance, row.debit_balance === '0' ? '' : row.display_debit_balance,
        row.credit_balance === '0' ? '' : row.display_credit_balance,
      ]), { rightAligned: [3, 4, 5, 6, 7] });
      for (const total of report.totals) {
        // People read currency codes, not ids; the id stays in the --json output.
        const { code } = await service.getCurrency(total.currency_id);
        process.stdout.write(`Total ${code}: debits ${total.display_debit_total}, credits ${total.display_credit_total}`
          + `, debit balances ${total.display_debit_balance}, credit balances ${total.display_credit_balance}`
          + ` (${total.is_balanced ? 'balanced' : 'NOT BALANCED'})\n`);
      }
    }));

  reports.command('balance-sheet')
    .description('Assets, liabilities and equity as of a date (inclusive) or through the end of a period')
    .option('--as-of <date>', 'include entries dated up to and including this day')
    .option('--period <period-id>', 'through the end of this period')
    .option('--currency <currency-id>', 'report currency (default: the retained earnings account\'s)')
    .addHelpText('after', '\nExample:\n  $ ledger reports balance-sheet --as-of 2026-06-30')
    .action(withService(async (service, { json }, options: { asOf?: string; period?: string; currency?: string }) => {
      const report = await service.balanceSheet({ as_of_date: options.asOf, period_id: options.period, currency_id: options.currency });
      if (json) printJson({ data: report });
      else printBalanceSheet(report);
    }));

  reports.command('income-statement')
    .description('Revenue, expenses and net income of a period, a date range or all time (closing entries excluded)')
    .option('--period <period-id>', 'only this period (default: all time)')
    .option('--start <date>', 'from this day (inclusive)')
    .option('--end <date>', 'up to this day (inclusive)')
    .addOption(new Option('--columns <interval>', 'one column per month or quarter, side by side').choices(['month', 'quarter']))
    .option('--currency <currency-id>', 'report currency (default: the retained earnings account\'s)')
    .addHelpText('after', '\nExamples:\n  $ ledger reports income-statement --period 0193...\n'
      + '  $ ledger reports income-statement --start 2026-01-01 --end 2026-06-30 --columns month')
    .action(withService(async (service, { json }, options: { period?: string; start?: string; end?: string; columns?: 'month' | 'quarter'; currency?: string }) => {
      const report = await service.incomeStatement({
        period_id: options.period, start_date: options.start, end_date: options.end, columns: options.columns, currency_id: options.currency,
      });
      if (json) printJson({ data: report });
      else if (report.columns !== undefined) printIncomeColumns(report);
      else printIncomeStatement(report);
    }));

  reports.command('general-ledger')
    .description('Every line of an account (a control account: of its sub-accounts) with running balances')
    .requiredOption('--account <account-id>', 'the account')
    .option('--start <date>', 'first day')
    .option('--end <date>', 'last day')
    .option('--period <period-id>', 'the dates of this period')
    .addOption(new Option('--sort <order>', 'oldest first (asc) or newest first (desc)').choices(['asc', 'desc']))
    .option('--limit <n>', 'return one page of at most n lines (--cursor continues)', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExample:\n  $ ledger reports general-ledger --account 0193... --start 2026-01-01 --end 2026-03-31')
    .action(withService(async (service, { json }, options: { account: string; start?: string; end?: string; period?: string; sort?: 'asc' | 'desc'; limit?: number; cursor?: string }) => {
      const query = { account_id: options.account, start_date: options.start, end_date: options.end, period_id: options.period, sort: options.sort };
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
      printFields([['Account', `${report.account_number} ${report.account_name}`],
        ['Range', `${report.start_date ?? 'beginning'} to ${report.end_date ?? 'today'}`],
        ['Starting balance', report.display_starting_balance]]);
      printTable(['DATE', 'DESCRIPTION', 'ACCOUNT', 'DEBIT', 'CREDIT', 'BALANCE'], report.lines.map((line) => [
        line.entry_date, line.description, line.account_number, line.debit_amount === '0' ? '' : line.display_debit,
        line.credit_amount === '0' ? '' : line.display_credit, line.display_running_balance,
      ]), { rightAligned: [3, 4, 5] });
      printFields([['Ending balance', report.display_ending_balance]]);
      if (report.has_more) process.stdout.write(`More lines: --cursor ${report.next_cursor}\n`);
    }));
}

function printBalanceSheet(report: BalanceSheet): void {
  const rows: string[][] = [];
  for (const [title, section] of [['Assets', report.assets], ['Liabilities', report.liabilities], ['Equity', report.equity]] as const) {
    for (const account of section.accounts) rows.push([title, account.account_number ?? '', account.account_name, account.display_balance]);
    rows.push(['', '', `Total ${title.toLowerCase()}`, section.display_total]);
  }
  rows.push(['', '', 'Total liabilities and equity', report.display_total_liabilities_and_equity]);
  printTable(['SECTION', 'NUMBER', 'ACCOUNT', 'BALANCE'], rows, { rightAligned: [3] });
  process.stdout.write(`As of ${report.as_of_date ?? 'all dates'}: ${report.is_balanced ? 'balanced' : 'NOT BALANCED'}\n`);
}

function printIncomeStatement(report: IncomeStatement): void {
  const rows = [
    ...report.revenue.map((row) => ['Revenue', row.account_number, row.account_name, row.display_amount]),
    ['', '', 'Total revenue', report.display_total_revenue],
    ...report.expenses.map((row) => ['Expenses', row.account_number, row.account_name, row.display_amount]),
    ['', '', 'Total expenses', report.display_total_expenses],
    ['', '', 'Net income', report.display_net_income],
  ];
  printTable(['SECTION', 'NUMBER', 'ACCOUNT', 'AMOUNT'], rows, { rightAligned: [3] });
}

/** Month or quarter columns side by side, then the whole range's total (like `hledger is -M`). */
function printIncomeColumns(report: IncomeStatement): void {
  const columns = report.columns ?? [];
  process.stdout.write(`Income statement ${report.start_date} to ${report.end_date}\n`);
  const amounts = (row: IncomeStatement['revenue'][number]) => (row.column_amounts ?? []).map((cell) => cell.display_amount);
  const rows = [
    ...report.revenue.map((row) => ['Revenue', row.account_number, row.account_name, ...amounts(row), row.display_amount]),
    ['', '', 'Total revenue', ...columns.map((column) => column.display_total_revenue), report.display_total_revenue],
    ...report.expenses.map((row) => ['Expenses', row.account_number, row.account_name, ...amounts(row), row.display_amount]),
    ['', '', 'Total expenses', ...columns.map((column) => column.display_total_expenses), report.display_total_expenses],
    ['', '', 'Net income', ...columns.map((column) => column.display_net_income), report.display_net_income],
  ];
  const amountColumns = [...columns.keys(), columns.length].map((index) => index + 3);
  printTable(['SECTION', 'NUMBER', 'ACCOUNT', ...columns.map((column) => column.label), 'TOTAL'], rows, { rightAligned: amountColumns });
}
