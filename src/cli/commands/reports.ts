/** `ledger reports trial-balance|balance-sheet|income-statement|general-ledger|aged-balances`. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { BalanceSheet } from '../../domain/reports/balance-sheet.js';
import type { IncomeStatement } from '../../domain/reports/income-statement.js';
import type { TrialBalance } from '../../domain/reports/trial-balance.js';
import type { AgedBalancesView, GeneralLedgerView } from '../../schemas/report.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { printJson } from '../output.js';
import { parseLimit } from '../parse.js';
import { groupThousands, printFields } from '../render/format.js';
import { printTable } from '../render/table.js';
import { resolveCurrency, resolvedIds } from '../resolve-names.js';
import { currencyCodes as allCurrencyCodes, type CurrencyCodes } from '../currency-codes.js';
import { withService } from '../with-service.js';

function parseTermsDays(text: string): number {
  if (!/^\d{1,4}$/.test(text) || Number(text) > 3650) throw new InvalidArgumentError('--terms takes a whole number of days from 0 to 3650');
  return Number(text);
}

export function registerReportCommands(program: Command): void {
  const reports = program.command('reports').description('Trial balance, balance sheet, income statement, general ledger, aged balances');

  reports.command('trial-balance')
    .description('Debit and credit totals per account: balances (all time or --as-of) or the movement of --period or --start/--end')
    .option('--as-of <date>', 'balances including entries dated up to and including this day')
    .option('--period <period>', 'the movement of this period')
    .option('--start <date>', 'the movement from this day (inclusive)')
    .option('--end <date>', 'the movement up to this day (inclusive)')
    .option('--currency <currency>', 'only accounts in this currency')
    .option('--presentation-currency <currency>', 'translate every account into this currency (the base currency only; id or code): docs/currencies.md')
    .addHelpText('after', '\nExamples:\n  $ ledger reports trial-balance --as-of 2026-03-31 --currency USD\n'
      + '  $ ledger reports trial-balance --start 2026-01-01 --end 2026-03-31\n'
      + '  $ ledger reports trial-balance --as-of 2026-03-31 --presentation-currency USD')
    .action(withService(async (service, { json }, options: ReportOptions & { asOf?: string; start?: string; end?: string }) => {
      const ids = await resolvedIds(service, { period: options.period, currency: options.currency });
      const report = await service.trialBalance({
        as_of_date: options.asOf, period_id: ids.period, start_date: options.start, end_date: options.end, currency_id: ids.currency,
        presentation_currency_id: await presentationOf(service, options),
      });
      if (json) {
        printJson({ data: report });
        return;
      }
      printCompanyLine(report.company_name);
      if (report.presentation_currency_id !== undefined) {
        await printTranslatedTrialBalance(service, report);
        return;
      }
      process.stdout.write(`${report.label}\n`);
      // Grouped by currency (by code), each group followed by its totals: amounts of different
      // currencies never share a column unlabelled. People read codes; the ids stay in --json.
      const codes = await currencyCodes(service, [...report.rows, ...report.totals].map((row) => row.currency_id));
      const rows: string[][] = [];
      for (const [id, code] of codes) {
        for (const row of report.rows.filter((candidate) => candidate.currency_id === id)) {
          rows.push([code, row.account_number ?? "", row.account_name, row.account_type, ...[
            row.display_debit_total, row.display_credit_total, row.display_net_balance,
            row.debit_balance === '0' ? '' : row.display_debit_balance, row.credit_balance === '0' ? '' : row.display_credit_balance,
          ].map(groupThousands)]);
        }
        const total = report.totals.find((candidate) => candidate.currency_id === id);
        if (total) {
          rows.push([code, '', `Total${total.is_balanced ? '' : ' (NOT BALANCED)'}`, '', ...[
            total.display_debit_total, total.display_credit_total, '', total.display_debit_balance, total.display_credit_balance,
          ].map(groupThousands)]);
        }
      }
      printTable(['CURRENCY', 'NUMBER', 'ACCOUNT', 'TYPE', 'DEBITS', 'CREDITS', 'BALANCE', 'DEBIT BALANCE', 'CREDIT BALANCE'], rows,
        { rightAligned: [4, 5, 6, 7, 8] });
      process.stdout.write(report.is_balanced ? 'Balanced\n' : 'NOT BALANCED\n');
    }));

  reports.command('balance-sheet')
    .description('Assets, liabilities and equity as of a date (inclusive) or through the end of a period')
    .option('--as-of <date>', 'include entries dated up to and including this day')
    .option('--period <period>', 'through the end of this period')
    .option('--currency <currency>', 'report currency (default: the retained earnings account\'s)')
    .option('--presentation-currency <currency>', 'translate every account into this currency (the base currency only; id or code): docs/currencies.md')
    .addHelpText('after', '\nExamples:\n  $ ledger reports balance-sheet --as-of 2026-06-30\n  $ ledger reports balance-sheet --as-of 2026-06-30 --presentation-currency USD')
    .action(withService(async (service, { json }, options: ReportOptions & { asOf?: string }) => {
      const ids = await resolvedIds(service, { period: options.period, currency: options.currency });
      const report = await service.balanceSheet({
        as_of_date: options.asOf, period_id: ids.period, currency_id: ids.currency, presentation_currency_id: await presentationOf(service, options),
      });
      if (json) {
        printJson({ data: report });
        return;
      }
      printCompanyLine(report.company_name);
      printBalanceSheet(report, (await service.getCurrency(report.currency_id)).code, await originalCodes(service, report.presentation_currency_id));
    }));

  reports.command('income-statement')
    .description('Revenue, expenses and net income of a period, a date range or all time (closing entries excluded)')
    .option('--period <period>', 'only this period (default: all time)')
    .option('--start <date>', 'from this day (inclusive)')
    .option('--end <date>', 'up to this day (inclusive)')
    .addOption(new Option('--columns <interval>', 'one column per month or quarter, side by side').choices(['month', 'quarter']))
    .option('--currency <currency>', 'report currency (default: the retained earnings account\'s)')
    .option('--presentation-currency <currency>', 'translate every account into this currency (the base currency only; id or code): docs/currencies.md')
    .addHelpText('after', '\nExamples:\n  $ ledger reports income-statement --period "June 2026"\n'
      + '  $ ledger reports income-statement --start 2026-01-01 --end 2026-06-30 --columns month\n'
      + '  $ ledger reports income-statement --start 2026-01-01 --end 2026-03-31 --presentation-currency USD')
    .action(withService(async (service, { json }, options: ReportOptions & { start?: string; end?: string; columns?: 'month' | 'quarter' }) => {
      const ids = await resolvedIds(service, { period: options.period, currency: options.currency });
      const report = await service.incomeStatement({
        period_id: ids.period, start_date: options.start, end_date: options.end, columns: options.columns, currency_id: ids.currency,
        presentation_currency_id: await presentationOf(service, options),
      });
      if (json) {
        printJson({ data: report });
        return;
      }
      const { code } = await service.getCurrency(report.currency_id);
      printCompanyLine(report.company_name);
      if (report.columns !== undefined) printIncomeColumns(report, code);
      else printIncomeStatement(report, code, await originalCodes(service, report.presentation_currency_id));
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
      const { code } = await service.getCurrency(report.currency_id);
      printCompanyLine(report.company_name);
      printFields([['Account', `${report.account_number} ${report.account_name}`], ['Currency', code],
        ['Range', `${report.start_date ?? 'beginning'} to ${report.end_date ?? 'today'}`],
        ['Starting balance', groupThousands(report.display_starting_balance)]]);
      printTable(['DATE', 'NO.', 'DESCRIPTION', 'ACCOUNT', 'DEBIT', 'CREDIT', 'BALANCE'], report.lines.map((line) => [
        line.entry_date, `#${line.entry_number}`, line.description, line.account_number, line.debit_amount === '0' ? '' : groupThousands(line.display_debit),
        line.credit_amount === '0' ? '' : groupThousands(line.display_credit), groupThousands(line.display_running_balance),
      ]), { rightAligned: [4, 5, 6] });
      printFields([['Ending balance', groupThousands(report.display_ending_balance)]]);
      if (report.has_more) process.stdout.write(`More lines: --cursor ${report.next_cursor}\n`);
    }));

  reports.command('aged-balances')
    .description('Aged receivables or payables: each sub-account of a control account in age buckets as of a date')
    .requiredOption('--account <account>', 'the control account (id, number or name), such as accounts receivable')
    .option('--as-of <date>', 'age on this day, entries dated after it left out (default: today)')
    .option('--terms <days>', 'payment terms: an amount falls due this many days after its entry, unless its metadata.due_date says (default 30)',
      parseTermsDays)
    .addHelpText('after', '\nOpen amounts are aged first in, first out: payments settle the oldest items first. Buckets count days past due:\n'
      + 'current (not yet due), 1-30, 31-60, 61-90, over 90.\n'
      + '\nExample:\n  $ ledger reports aged-balances --account 1200 --as-of 2026-06-30 --terms 14')
    .action(withService(async (service, { json }, options: { account: string; asOf?: string; terms?: number }) => {
      const ids = await resolvedIds(service, { account: options.account });
      const report = await service.agedBalances({ account_id: ids.account, as_of_date: options.asOf, terms_days: options.terms });
      if (json) printJson({ data: report });
      else printAgedBalances(report, (await service.getCurrency(report.currency_id)).code);
    }));
}

/** A report's first line names the company (the company_name setting), when one is set. */
interface ReportOptions {
  period?: string;
  currency?: string;
  presentationCurrency?: string;
}

/** The presentation currency asked for, by id or code. */
async function presentationOf(service: LedgerService, options: ReportOptions): Promise<string | undefined> {
  return options.presentationCurrency === undefined ? undefined : resolveCurrency(service, options.presentationCurrency, '--presentation-currency');
}

/** On a translated report: every currency's code, for the ORIGINAL column. */
async function originalCodes(service: LedgerService, presentation: string | undefined): Promise<CurrencyCodes | undefined> {
  return presentation === undefined ? undefined : allCurrencyCodes(service);
}

/** A translated row's own figure in its account's currency ("5,501.00 EUR"), or nothing. */
function originalText(row: { currency_id?: string | undefined; display_original_amount?: string | undefined }, codes: CurrencyCodes): string {
  if (row.display_original_amount === undefined || row.currency_id === undefined) return '';
  return `${groupThousands(row.display_original_amount)} ${codes(row.currency_id)}`;
}

/** Every account in the presentation currency, with what it holds in its own currency beside it. */
async function printTranslatedTrialBalance(service: LedgerService, report: TrialBalance): Promise<void> {
  const codes = (await originalCodes(service, report.presentation_currency_id))!;
  const base = codes(report.presentation_currency_id!);
  process.stdout.write(`${report.label}, translated into ${base} (docs/currencies.md)\n`);
  const rows = report.rows.map((row) => [row.account_number ?? '', row.account_name, row.account_type,
    ...[row.display_debit_total, row.display_credit_total, row.display_net_balance].map(groupThousands), originalText(row, codes)]);
  for (const total of report.totals) {
    rows.push(['', `Total${total.is_balanced ? '' : ' (NOT BALANCED)'}`, '',
      ...[total.display_debit_total, total.display_credit_total].map(groupThousands), '', '']);
  }
  printTable(['NUMBER', 'ACCOUNT', 'TYPE', `DEBITS ${base}`, `CREDITS ${base}`, `BALANCE ${base}`, 'ORIGINAL'], rows,
    { rightAligned: [3, 4, 5, 6] });
  process.stdout.write(report.is_balanced ? 'Balanced\n' : 'NOT BALANCED\n');
}

function printCompanyLine(companyName: string | null): void {
  if (companyName !== null) process.stdout.write(`${companyName}\n`);
}

/** The codes of the given currencies, in code order (each currency once). */
async function currencyCodes(service: LedgerService, ids: readonly string[]): Promise<[string, string][]> {
  const codes: [string, string][] = [];
  for (const id of new Set(ids)) codes.push([id, (await service.getCurrency(id)).code]);
  return codes.sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Every row led by the currency's code, its amounts (from `firstAmount` on) grouped in thousands. */
function withCurrency(code: string, rows: readonly string[][], firstAmount: number): string[][] {
  return rows.map((row) => [code, ...row.map((cell, index) => (index >= firstAmount ? groupThousands(cell) : cell))]);
}

function printBalanceSheet(report: BalanceSheet, code: string, originals?: CurrencyCodes): void {
  const rows: string[][] = [];
  const original = (account: BalanceSheet['assets']['accounts'][number]) => (originals ? [originalText(account, originals)] : []);
  const blank = originals ? [''] : [];
  for (const [title, section] of [['Assets', report.assets], ['Liabilities', report.liabilities], ['Equity', report.equity]] as const) {
    for (const account of section.accounts) rows.push([title, account.account_number ?? '', account.account_name, account.display_balance, ...original(account)]);
    rows.push(['', '', `Total ${title.toLowerCase()}`, section.display_total, ...blank]);
  }
  rows.push(['', '', 'Total liabilities and equity', report.display_total_liabilities_and_equity, ...blank]);
  printTable(['CURRENCY', 'SECTION', 'NUMBER', 'ACCOUNT', 'BALANCE', ...(originals ? ['ORIGINAL'] : [])], withCurrency(code, rows, 3),
    { rightAligned: originals ? [4, 5] : [4] });
  process.stdout.write(`As of ${report.as_of_date ?? 'all dates'}: ${report.is_balanced ? 'balanced' : 'NOT BALANCED'}\n`);
}

function printIncomeStatement(report: IncomeStatement, code: string, originals?: CurrencyCodes): void {
  const original = (row: IncomeStatement['revenue'][number]) => (originals ? [originalText(row, originals)] : []);
  const blank = originals ? [''] : [];
  const rows = [
    ...report.revenue.map((row) => ['Revenue', row.account_number, row.account_name, row.display_amount, ...original(row)]),
    ['', '', 'Total revenue', report.display_total_revenue, ...blank],
    ...report.expenses.map((row) => ['Expenses', row.account_number, row.account_name, row.display_amount, ...original(row)]),
    ['', '', 'Total expenses', report.display_total_expenses, ...blank],
    ['', '', 'Net income', report.display_net_income, ...blank],
  ];
  printTable(['CURRENCY', 'SECTION', 'NUMBER', 'ACCOUNT', 'AMOUNT', ...(originals ? ['ORIGINAL'] : [])], withCurrency(code, rows, 3),
    { rightAligned: originals ? [4, 5] : [4] });
}

/** Month or quarter columns side by side, then the whole range's total (like `hledger is -M`). */
function printIncomeColumns(report: IncomeStatement, code: string): void {
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
  const amountColumns = [...columns.keys(), columns.length].map((index) => index + 4);
  printTable(['CURRENCY', 'SECTION', 'NUMBER', 'ACCOUNT', ...columns.map((column) => column.label), 'TOTAL'], withCurrency(code, rows, 3),
    { rightAligned: amountColumns });
}

/** One row per sub-account with a balance, then the totals; the buckets are the API's. */
function printAgedBalances(report: AgedBalancesView, code: string): void {
  printCompanyLine(report.company_name);
  process.stdout.write(`Aged balances of ${report.account_number} ${report.account_name} as of ${report.as_of_date}, days past due `
    + `(terms ${report.terms_days} days unless an entry states its due date)\n`);
  const amounts = (row: AgedBalancesView['totals']) => [row.display_current, row.display_days_1_30, row.display_days_31_60,
    row.display_days_61_90, row.display_days_over_90, row.display_total];
  const rows = [
    ...report.rows.map((row) => [row.account_number, row.account_name, ...amounts(row)]),
    ['', 'Total', ...amounts(report.totals)],
  ];
  printTable(['CURRENCY', 'NUMBER', 'ACCOUNT', 'CURRENT', '1-30', '31-60', '61-90', 'OVER 90', 'TOTAL'], withCurrency(code, rows, 2),
    { rightAligned: [3, 4, 5, 6, 7, 8] });
}
