/**
 * The ledger's MCP tools. Each one calls the same service function as the matching HTTP route,
 * with an input schema derived from that route's TypeBox schemas (tool-inputs.ts), and returns the
 * route's JSON body as structured content with a short text. A tool with a permission is checked
 * before its arguments are validated, as /api/v1 does; the service checks it again. The bank and
 * reconciliation tools are in bank-tools.ts, listed after these.
 */
import type { Static } from 'typebox';
import { LedgerError, validationError } from '../domain/errors.js';
import { withAccountIds } from './account-numbers.js';
import { BANK_TOOLS } from './bank-tools.js';
import { dryRunText, entryLine, pageText } from './summaries.js';
import { type ToolContext, readerOf } from './tool-context.js';
import {
  AgedBalancesQuery, BalanceSheetQuery, ClosePeriodArguments, EntryListQuery, GeneralLedgerQuery, GetAccountArguments, GetByIdArguments,
  IncomeStatementQuery, ListAccountsArguments, ListExchangeRatesArguments, NoArguments, PageArguments, PostEntriesArguments, PostEntryArguments,
  ReverseArguments, SetExchangeRateArguments, TrialBalanceQuery,
} from './tool-inputs.js';
import { AMOUNTS, commandTool, type LedgerTool, tool } from './ledger-tool.js';
import { USE_CASES } from '../service/use-cases.js';
import { EventListQuery } from '../schemas/event.js';

export type { LedgerTool, ToolAnswer } from './ledger-tool.js';

export const TOOLS: readonly LedgerTool[] = [
  tool({
    name: 'list_currencies', title: 'List currencies', writes: false, input: PageArguments,
    description: 'List the ledger\'s currencies (ordered by code) with their asset_scale (decimal places of the minor unit). '
      + 'Example: {} or {"limit": 50}.',
    async run(context, args) {
      const page = await context.service.listCurrencies(args);
      return { body: { ...page }, text: pageText('currencies', page.data.length, page.has_more,
        page.data.map((c) => `${c.code} ${c.name} (${c.symbol}, ${c.asset_scale} decimals) id ${c.id}`)) };
    },
  }),
  tool({
    name: 'list_accounts', title: 'List accounts with balances', writes: false, input: ListAccountsArguments,
    description: 'List accounts ordered by account_number, each with its balance (all time, or within balance_period_id); '
      + `filters account_type, currency_id, is_active, parent_id; paged by limit and cursor. ${AMOUNTS} `
      + 'Example: {"account_type": "expense", "is_active": true}.',
    async run(context, { balance_period_id, ...filter }) {
      const page = await context.service.listAccounts(filter);
      const data = [];
      for (const account of page.data) {
        data.push({ ...account, balance: await context.service.getAccountBalance(account.id, balance_period_id) });
      }
      return { body: { ...page, data }, text: pageText('accounts', data.length, page.has_more,
        data.map((a) => `${a.account_number} ${a.name} (${a.account_type}) balance ${a.balance.display_balance} id ${a.id}`)) };
    },
  }),
  tool({
    name: 'get_account', title: 'Get an account', writes: false, input: GetAccountArguments,
    description: `Get one account by id or by account_number, with its balance (all time, or within period_id). ${AMOUNTS} `
      + 'Example: {"account_number": "1000"}.',
    async run(context, args) {
      const id = await accountIdOf(context, args);
      const account = await context.service.getAccount(id);
      const balance = await context.service.getAccountBalance(id, args.period_id);
      return { body: { data: { ...account, balance } },
        text: `${account.account_number} ${account.name} (${account.account_type}, normal ${account.normal_balance}) balance ${balance.display_balance}` };
    },
  }),
  tool({
    name: 'list_periods', title: 'List periods', writes: false, input: PageArguments,
    description: 'List financial periods (ordered by start_date) with their status (open or closed). An entry is posted into '
      + 'the open period that contains its entry_date. Example: {}.',
    async run(context, args) {
      const page = await context.service.listPeriods(args);
      return { body: { ...page }, text: pageText('periods', page.data.length, page.has_more,
        page.data.map((p) => `${p.name} ${p.start_date}..${p.end_date} ${p.status} id ${p.id}`)) };
    },
  }),
  tool({
    name: 'list_journal_entries', title: 'List journal entries', writes: false, expensive: true, input: EntryListQuery,
    description: 'List journal entries with their lines, ordered by entry_date then posting order (sort "desc": newest first); '
      + `filters period_id, start_date, end_date (YYYY-MM-DD, inclusive), account_id; paged by limit and cursor. ${AMOUNTS} `
      + 'Example: {"start_date": "2026-03-01", "end_date": "2026-03-31", "limit": 20}.',
    async run(context, args) {
      const page = await context.service.listJournalEntries(args);
      return { body: { ...page }, text: pageText('entries', page.data.length, page.has_more, page.data.map(entryLine)) };
    },
  }),
  tool({
    name: 'get_journal_entry', title: 'Get a journal entry', writes: false, input: GetByIdArguments,
    description: `Get one journal entry with its lines, its reversal links and its hash. ${AMOUNTS} Example: {"id": "0190..."}.`,
    async run(context, args) {
      const entry = await context.service.getJournalEntry(args.id);
      return { body: { data: entry }, text: entryLine(entry) };
    },
  }),
  commandTool({
    useCase: USE_CASES.post_journal_entry, title: 'Post a journal entry', input: PostEntryArguments,
    description: 'Post a balanced journal entry (needs journals:create). At least 2 lines, each naming its account by account_id or '
      + 'account_number and carrying exactly one of debit_amount or credit_amount; debits must equal credits, all accounts in one '
      + `currency, entry_date inside an open period. ${AMOUNTS} dry_run: true checks every rule and shows the result without `
      + 'posting; idempotency_key makes a retry safe. An entry dated on or before the lock date (settings) is refused (PERIOD_LOCKED) '
      + 'unless the caller holds periods:override and gives override_reason. Each posted entry has an entry_number (1, 2, ...). '
      + 'Example: {"entry_date": "2026-03-01", "description": "Cash sale", '
      + '"lines": [{"account_number": "1000", "debit_amount": "25000"}, {"account_number": "4000", "credit_amount": "25000"}]}.',
    async command(context, { dry_run, idempotency_key, ...entry }) {
      const [input] = await withAccountIds(context.service, [entry], () => '');
      return { input: input!, dryRun: dry_run, idempotencyKey: idempotency_key };
    },
    text: (outcome) => (outcome.kind === 'dry-run' ? dryRunText(outcome.data) : `Posted ${entryLine(outcome.data)}`),
  }),
  commandTool({
    useCase: USE_CASES.post_journal_entries, title: 'Post a batch of journal entries', input: PostEntriesArguments,
    description: 'Post 1 to 10,000 journal entries in one transaction, all or none (needs journals:create). Each entry is what '
      + `post_journal_entry takes. ${AMOUNTS} dry_run: true checks every rule and posts nothing; idempotency_key makes a retry `
      + 'safe. Example: {"entries": [{"entry_date": "2026-03-02", "description": "Rent", "lines": [{"account_number": "6000", '
      + '"debit_amount": "120000"}, {"account_number": "1000", "credit_amount": "120000"}]}]}.',
    async command(context, { dry_run, idempotency_key, entries }) {
      const inputs = await withAccountIds(context.service, entries, (index) => `entries[${index}].`);
      return { input: { entries: inputs }, dryRun: dry_run, idempotencyKey: idempotency_key };
    },
    text: (outcome) => (outcome.kind === 'dry-run' ? dryRunText(outcome.data)
      : [`Posted ${outcome.data.length} entries:`, ...outcome.data.map(entryLine)].join('\n')),
  }),
  commandTool({
    useCase: USE_CASES.reverse_journal_entry, title: 'Reverse a journal entry', input: ReverseArguments,
    description: 'Correct a posted entry by posting its reversal: the same lines with debits and credits swapped (needs '
      + 'journals:reverse). Entries are never edited or deleted; an entry can be reversed once. entry_date (YYYY-MM-DD) defaults '
      + 'to the original date and must fall in an open period. dry_run: true shows the reversal without posting. '
      + 'Example: {"id": "0190...", "entry_date": "2026-03-31"}.',
    text: (outcome) => (outcome.kind === 'dry-run' ? dryRunText(outcome.data) : `Posted ${entryLine(outcome.data)}`),
  }),
  commandTool({
    useCase: USE_CASES.close_period, title: 'Close a period', input: ClosePeriodArguments,
    description: 'Close a financial period permanently (needs periods:close): posts its closing entries (one per currency), which '
      + 'move every revenue and expense balance of the period to that currency\'s retained earnings account, and refuses further '
      + 'posts into it. It cannot be undone: call it first with preview: true, which returns the closing entries (closing_entries; '
      + 'closing_entry is the default currency\'s) and commits nothing. '
      + 'Example: {"id": "0190...", "preview": true}.',
    // The close's dry run is its preview.
    command: async (_context, { id, preview }) => ({ input: { id }, dryRun: preview === true }),
    text(outcome) {
      const result = outcome.data;
      // One closing entry per currency with revenue or expense activity, the default currency's first.
      const what = result.closing_entries.length === 0 ? 'no closing entry (no revenue or expense activity)'
        : result.closing_entries.map(entryLine).join('; ');
      return `${result.preview ? 'Preview, nothing was changed. Closing' : 'Closed'} period ${result.period.name}: ${what}`;
    },
  }),
  tool({
    name: 'trial_balance', title: 'Trial balance', writes: false, expensive: true, input: TrialBalanceQuery,
    description: 'Trial balance: every account\'s debit and credit totals, net balance and debit/credit balance columns: balances '
      + 'of all time or through as_of_date, or the movement within period_id or start_date..end_date (basis and label say which), in '
      + 'one currency (currency_id) or all; is_balanced says whether debits equal credits. ' + 'presentation_currency_id (the base currency) translates every account into it (docs/currencies.md); a missing rate is RATE_MISSING. '
      + `${AMOUNTS} Example: {"as_of_date": "2026-03-31"}.`,
    async run(context, args) {
      const report = await context.service.trialBalance(args);
      const rows = report.rows.map((row) => `${row.account_number} ${row.account_name}: Dr ${row.display_debit_total} Cr ${row.display_credit_total}`);
      return { body: { data: report }, text: [`Trial balance (${report.is_balanced ? 'balanced' : 'NOT balanced'})`, ...rows].join('\n') };
    },
  }),
  tool({
    name: 'balance_sheet', title: 'Balance sheet', writes: false, expensive: true, input: BalanceSheetQuery,
    description: 'Balance sheet of one currency as of a date (as_of_date, inclusive) or through the end of period_id: assets, '
      + 'liabilities and equity with totals. ' + 'presentation_currency_id (the base currency) translates every account into it (docs/currencies.md); a missing rate is RATE_MISSING. '
      + `${AMOUNTS} Example: {"as_of_date": "2026-03-31"}.`,
    async run(context, args) {
      const report = await context.service.balanceSheet(args);
      return { body: { data: report }, text: `Balance sheet: assets ${report.display_total_assets}, liabilities and equity `
        + `${report.display_total_liabilities_and_equity} (${report.is_balanced ? 'balanced' : 'NOT balanced'})` };
    },
  }),
  tool({
    name: 'income_statement', title: 'Income statement', writes: false, expensive: true, input: IncomeStatementQuery,
    description: 'Income statement of one currency for period_id, a date range (start_date, end_date) or all time: revenue and '
      + 'expense accounts and net income; closing entries are left out. columns ("month" or "quarter") adds the months or quarters of '
      + 'the range side by side. ' + 'presentation_currency_id (the base currency) translates every account into it (docs/currencies.md); a missing rate is RATE_MISSING. '
      + `${AMOUNTS} Example: {"start_date": "2026-01-01", "end_date": "2026-06-30", "columns": "month"}.`,
    async run(context, args) {
      const report = await context.service.incomeStatement(args);
      return { body: { data: report }, text: `Income statement: revenue ${report.display_total_revenue}, expenses `
        + `${report.display_total_expenses}, net income ${report.display_net_income}` };
    },
  }),
  tool({
    name: 'general_ledger', title: 'General ledger', writes: false, expensive: true, input: GeneralLedgerQuery,
    description: 'The lines of one account (account_id) with a running balance, within period_id or start_date..end_date, paged '
      + `by limit and cursor. ${AMOUNTS} Example: {"account_id": "0190...", "period_id": "0190..."}.`,
    async run(context, args) {
      const report = await context.service.generalLedger(args);
      return { body: { data: report }, text: pageText(`lines of ${report.account_number} ${report.account_name}`, report.lines.length,
        report.has_more, report.lines.map((line) => `${line.entry_date} ${line.description}: Dr ${line.display_debit} `
          + `Cr ${line.display_credit}, balance ${line.display_running_balance}`)) };
    },
  }),
  tool({
    name: 'aged_balances', title: 'Aged balances', writes: false, expensive: true, input: AgedBalancesQuery,
    description: 'Aged receivables or payables of a control account (account_id, has_subledger true) as of as_of_date (default '
      + 'today): each sub-account with a balance, its open amounts in buckets by days past due: current (not yet due), days_1_30, '
      + 'days_31_60, days_61_90 and days_over_90. An amount is due on its entry\'s metadata.due_date, else its entry date plus terms_days '
      + '(default 30). Aged first in, first out (payments settle the oldest items first), with the totals. A credit '
      + `balance shows as negative amounts. ${AMOUNTS} Example: {"account_id": "0190...", "as_of_date": "2026-06-30"}.`,
    async run(context, args) {
      const report = await context.service.agedBalances(args);
      const rows = report.rows.map((row) => `${row.account_number} ${row.account_name}: current ${row.display_current}, 1-30 `
        + `${row.display_days_1_30}, 31-60 ${row.display_days_31_60}, 61-90 ${row.display_days_61_90}, over 90 `
        + `${row.display_days_over_90}, total ${row.display_total}`);
      return { body: { data: report },
        text: [`Aged balances of ${report.account_number} ${report.account_name} as of ${report.as_of_date}: total `
          + `${report.totals.display_total}`, ...rows].join('\n') };
    },
  }),
  tool({
    name: 'verify', title: 'Verify the books', writes: false, expensive: true, permission: 'admin', input: NoArguments,
    description: 'Check every invariant of the books on one snapshot (needs admin): every entry balances, stored totals match the '
      + 'lines, closes and reversals are sound, the hash chains are intact; ok is false and problems name what is wrong. Example: {}.',
    async run(context) {
      const result = await context.service.verifyLedger(await readerOf(context));
      return { body: { data: result }, text: result.ok ? `Verified ${result.checked.entries} entries: no problems`
        : [`${result.problems.length} problems:`, ...result.problems.map((p) => `${p.check}: ${p.message}`)].join('\n') };
    },
  }),
  commandTool({
    useCase: USE_CASES.set_exchange_rate, title: 'Set an exchange rate', input: SetExchangeRateArguments,
    description: 'Set the rate of a currency from a day on (needs rates:write): rate is the value of one major unit of the currency '
      + 'in the base currency, a decimal string with at most 12 decimal places (never a JSON number), kept exactly. A second rate for '
      + 'the same currency and day replaces the first (replaced: true). The base currency itself has no rate. Name the currency by '
      + 'currency_id or currency_code. Example: {"currency_code": "EUR", "rate_date": "2026-01-15", "rate": "1.0842"}.',
    async command(context, { currency_code, ...input }) {
      const currencyId = await currencyIdOf(context, input.currency_id, currency_code, true);
      return { input: { ...input, currency_id: currencyId! } };
    },
    text(outcome) {
      const rate = outcome.data;
      return `${outcome.created ? 'Set' : 'Replaced'} the rate of ${rate.currency_code} from ${rate.rate_date}: ${rate.rate} (id ${rate.id})`;
    },
  }),
  tool({
    name: 'list_exchange_rates', title: 'List exchange rates', writes: false, input: ListExchangeRatesArguments,
    description: 'List exchange rates by date, then currency: the value of one major unit of each currency in the base currency from '
      + 'rate_date on (the rate for a day is the latest on or before it). Filters currency_id or currency_code, start_date, end_date; '
      + 'paged by limit and cursor. Example: {"currency_code": "EUR", "start_date": "2026-01-01"}.',
    async run(context, { currency_code, ...input }) {
      const currencyId = await currencyIdOf(context, input.currency_id, currency_code, false);
      const page = await context.service.listExchangeRates({ ...input, currency_id: currencyId });
      return { body: { ...page }, text: pageText('exchange rates', page.data.length, page.has_more,
        page.data.map((rate) => `${rate.rate_date} ${rate.currency_code} ${rate.rate}`)) };
    },
  }),
  tool({
    name: 'list_events', title: 'Read the change feed', writes: false, permission: 'events:read', input: EventListQuery,
    description: 'Every committed change since a seq, oldest first, numbered without gaps (needs events:read): entry.posted (data: the '
      + 'entry with its lines), account.created, period.closed, ... Pass after (the last seq you have; 0 for the first), types '
      + '(comma-separated), limit; continue with cursor while has_more. Example: {"after": "120", "types": "entry.posted"}.',
    async run(context, input) {
      const page = await context.service.execute(USE_CASES.list_events, { actor: await readerOf(context), input });
      return { body: { ...page }, text: pageText('events', page.data.length, page.has_more,
        page.data.map((event) => `${event.seq} ${event.occurred_at} ${event.type} ${event.id}`)) };
    },
  }),
  ...BANK_TOOLS,
];

/** The currency named by id or by code (exactly one when `required`, at most one otherwise). */
async function currencyIdOf(context: ToolContext, id: string | undefined, code: string | undefined, required: boolean): Promise<string | undefined> {
  if (id !== undefined && code !== undefined) throw validationError('Give currency_id or currency_code, not both', 'currency_code');
  if (code === undefined) {
    if (id === undefined && required) throw validationError('currency_id or currency_code is required', 'currency_id', 'Name the currency, e.g. "currency_code": "EUR"');
    return id;
  }
  const currencies = [];
  let cursor: string | undefined;
  do {
    const page = await context.service.listCurrencies({ limit: 200, cursor });
    currencies.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  const found = currencies.find((currency) => currency.code.toLowerCase() === code.toLowerCase());
  if (found === undefined) {
    throw validationError(`Currency ${code} does not exist`, 'currency_code', 'Call list_currencies for the ledger\'s currencies');
  }
  return found.id;
}

async function accountIdOf(context: ToolContext, args: Static<typeof GetAccountArguments>): Promise<string> {
  if (args.id !== undefined) return args.id;
  if (args.account_number === undefined) throw validationError('id or account_number is required', 'id');
  const found = (await context.service.chartOfAccounts()).find((account) => account.account_number === args.account_number);
  if (found === undefined) {
    throw new LedgerError('NOT_FOUND', `Account number ${args.account_number} does not exist`, {
      field: 'account_number', suggestion: 'Call list_accounts or read ledger://accounts for the chart of accounts',
    });
  }
  return found.id;
}
