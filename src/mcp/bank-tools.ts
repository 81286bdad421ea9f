/**
 * The MCP tools for bank statements and reconciliation (docs/agents.md, "Agent workflow for bank
 * lines"). Like every tool, each calls the service function its /api/v1 route calls and answers the
 * route's body. Statements are imported by people (the API, the CLI, the web UI): an agent reads
 * the lines, their suggestions and candidates, proposes with dry runs, and posts or matches with a
 * key whose holder granted it bank:write (and journals:create to post). A bank post needs both
 * permissions: the tools declare bank:write and the service refuses a key without journals:create.
 */
import { validationError } from '../domain/errors.js';
import type { BankLineView, ReconciliationDetailView } from '../schemas/bank.js';
import type { EntryView } from '../schemas/journal-entry.js';
import { accountIdOf } from './account-numbers.js';
import { USE_CASES } from '../service/use-cases.js';
import { AMOUNTS, commandTool, type LedgerTool, tool } from './ledger-tool.js';
import { entryLine, pageText } from './summaries.js';
import {
  AcceptBankLinesArguments, BankLineArguments, ClearReconciliationLinesArguments, ExcludeBankLineArguments, ListBankLinesArguments,
  ListBankRulesArguments, ListBankStatementsArguments, MatchBankLineArguments, PostBankLineArguments, ReconciliationArguments,
  StartReconciliationArguments,
} from './tool-inputs.js';

const BANK_AMOUNTS = `${AMOUNTS} A bank line's amount is signed: positive is money into the account (a deposit; on a card, a payment), `
  + 'negative money out.';

function lineText(line: BankLineView): string {
  const suggestion = line.suggestion === null ? ''
    : `, suggests ${line.suggestion.counter_account_number} ${line.suggestion.counter_account_name} (rule "${line.suggestion.rule_name}")`;
  const entries = line.journal_entry_ids.length === 0 ? '' : `, entries ${line.journal_entry_ids.join(', ')}`;
  return `${line.posted_date} ${line.display_amount} "${line.description}" ${line.status}${suggestion}${entries} id ${line.id}`;
}

function dryRunText(result: { entries: EntryView[] }): string {
  return [`Dry run, nothing was posted. Would post ${result.entries.length === 1 ? 'this entry' : `${result.entries.length} entries`}:`,
    ...result.entries.map(entryLine)].join('\n');
}

function reconciliationText(report: ReconciliationDetailView): string {
  return `Reconciliation ${report.id} (${report.status}) as of ${report.statement_date}: statement ${report.display_statement_balance}, `
    + `cleared ${report.display_cleared_balance}, difference ${report.display_difference}; ${report.outstanding.length} outstanding `
    + `journal lines, ${report.unmatched_bank_lines.length} unmatched bank lines`;
}

export const BANK_TOOLS: readonly LedgerTool[] = [
  tool({
    name: 'list_bank_lines', title: 'List bank lines', writes: false, expensive: true, input: ListBankLinesArguments,
    description: 'List bank lines (imported from statements), oldest first; each unmatched line carries the suggestion of the bank rules '
      + '(the counter account it would post to, the rule and why) or null. Filters account_id (or account_number), statement_id, status '
      + `("unmatched", "matched", "excluded"), start_date, end_date; paged by limit and cursor. ${BANK_AMOUNTS} `
      + 'Example: {"account_number": "1000", "status": "unmatched"}.',
    async run(context, { account_number, ...filter }) {
      const accountId = await accountIdOf(context.service, filter.account_id, account_number, { id: 'account_id', number: 'account_number' });
      const page = await context.service.listBankLines({ ...filter, account_id: accountId });
      return { body: { ...page }, text: pageText('bank lines', page.data.length, page.has_more, page.data.map(lineText)) };
    },
  }),
  tool({
    name: 'get_bank_line_candidates', title: 'Candidate entries for a bank line', writes: false, input: BankLineArguments,
    description: 'Posted entries an unmatched bank line could be matched to (with match_bank_line): a line of exactly its signed amount on '
      + 'the bank account, dated within 7 days, not matched yet; best first, each with a score (0-100) and a reason. '
      + 'Example: {"id": "0190..."}.',
    async run(context, { id }) {
      const candidates = await context.service.bankLineCandidates(id);
      return { body: candidates, text: pageText('candidates', candidates.data.length, false, candidates.data.map((candidate) =>
        `${candidate.entry_date} "${candidate.description ?? ''}" score ${candidate.score}: ${candidate.reason} entry ${candidate.journal_entry_id}`)) };
    },
  }),
  commandTool({
    useCase: USE_CASES.post_bank_line, title: 'Post a bank line', input: PostBankLineArguments,
    description: 'Post an unmatched bank line as a new two-line entry (the bank account on the line\'s side, the counter account opposite) '
      + 'through every posting rule, and match the line to it (needs bank:write and journals:create). counter_account_id (or '
      + 'counter_account_number) defaults to the suggestion\'s; description to the suggestion\'s, else the line\'s; entry_date to the '
      + 'line\'s date. dry_run: true shows the entry without posting; idempotency_key makes a retry safe. '
      + 'Example: {"id": "0190...", "dry_run": true}.',
    async command(context, { counter_account_number, dry_run, idempotency_key, ...input }) {
      const counterId = await accountIdOf(context.service, input.counter_account_id, counter_account_number,
        { id: 'counter_account_id', number: 'counter_account_number' });
      return { input: { ...input, ...(counterId === undefined ? {} : { counter_account_id: counterId }) }, dryRun: dry_run,
        idempotencyKey: idempotency_key };
    },
    text: (outcome) => (outcome.kind === 'dry-run' ? dryRunText(outcome.data)
      : `Posted bank line ${outcome.data.id} as entry ${outcome.data.journal_entry_ids.join(', ')}`),
  }),
  commandTool({
    useCase: USE_CASES.accept_bank_lines, title: 'Accept suggestions for bank lines', input: AcceptBankLinesArguments,
    description: 'Post every listed bank line by its suggestion, in one transaction: all or none (needs bank:write and journals:create). '
      + 'A line without a suggestion, or already matched or excluded, fails the whole batch. dry_run: true shows the entries without '
      + 'posting; idempotency_key makes a retry safe. Example: {"line_ids": ["0190...", "0190..."], "dry_run": true}.',
    text: (outcome) => (outcome.kind === 'dry-run' ? dryRunText(outcome.data)
      : [`Posted ${outcome.data.length} bank lines:`, ...outcome.data.map(lineText)].join('\n')),
  }),
  commandTool({
    useCase: USE_CASES.match_bank_line, title: 'Match a bank line to entries', input: MatchBankLineArguments,
    description: 'Match an unmatched bank line to posted entries whose lines on the bank account add up to exactly its amount (one '
      + 'deposit paying several invoices, or one entry); otherwise AMOUNT_MISMATCH (needs bank:write). Find entries with '
      + 'get_bank_line_candidates. idempotency_key makes a retry safe. Example: {"id": "0190...", "journal_entry_ids": ["0190..."]}.',
    text: ({ data: line }) => `Matched bank line ${line.id} to ${line.journal_entry_ids.join(', ')}`,
  }),
  commandTool({
    useCase: USE_CASES.exclude_bank_line, title: 'Exclude a bank line', input: ExcludeBankLineArguments,
    description: 'Exclude an unmatched bank line from the books, with a reason (a charge the bank reversed, a transfer booked elsewhere); '
      + 'kept, never deleted; unmatch_bank_line takes it back (needs bank:write). Example: {"id": "0190...", "reason": "Reversed by the bank"}.',
    text: ({ data: line }) => `Excluded bank line ${line.id}: ${line.excluded_reason ?? ''}`,
  }),
  commandTool({
    useCase: USE_CASES.unmatch_bank_line, title: 'Unmatch a bank line', input: BankLineArguments,
    description: 'Take a match or an exclusion back: the line is unmatched again and its entries stay posted (needs bank:write). A line of '
      + 'a finished reconciliation is refused with RECONCILED. Example: {"id": "0190..."}.',
    text: ({ data: line }) => `Bank line ${line.id} is unmatched; its entries stay posted`,
  }),
  tool({
    name: 'list_bank_statements', title: 'List bank statements', writes: false, input: ListBankStatementsArguments,
    description: 'List imported bank and card statements in import order: period, line counts (new and duplicate) and the file\'s '
      + `balances signed by the account's normal side; filter account_id (or account_number); paged. ${AMOUNTS} Example: {"account_number": "1000"}.`,
    async run(context, { account_number, ...filter }) {
      const accountId = await accountIdOf(context.service, filter.account_id, account_number, { id: 'account_id', number: 'account_number' });
      const page = await context.service.listBankStatements({ ...filter, account_id: accountId });
      return { body: { ...page }, text: pageText('statements', page.data.length, page.has_more, page.data.map((statement) =>
        `${statement.start_date ?? '?'}..${statement.end_date ?? '?'} ${statement.format}: ${statement.new_count} new, `
        + `${statement.duplicate_count} duplicate lines, closing balance ${statement.display_closing_balance ?? 'not stated'} id ${statement.id}`)) };
    },
  }),
  tool({
    name: 'list_bank_rules', title: 'List bank rules', writes: false, input: ListBankRulesArguments,
    description: 'List the bank rules in the order they apply (priority, then creation): the first rule whose conditions all hold '
      + 'suggests its counter account for an unmatched line. amount_min and amount_max are minor units compared with the absolute amount. '
      + 'Example: {}.',
    async run(context, args) {
      const page = await context.service.listBankRules(args);
      return { body: { ...page }, text: pageText('rules', page.data.length, page.has_more, page.data.map((rule) =>
        `${rule.priority} "${rule.name}": ${JSON.stringify(rule.match)} -> counter account ${rule.counter_account_id} id ${rule.id}`)) };
    },
  }),
  commandTool({
    useCase: USE_CASES.start_reconciliation, title: 'Start a reconciliation', input: StartReconciliationArguments,
    description: 'Start reconciling a bank or card account (account_id or account_number) against a statement: statement_date and '
      + 'statement_balance (the statement\'s closing balance in minor units, signed by the account\'s normal side: a bank\'s money, a '
      + 'card\'s amount owed). Answers the report: cleared and outstanding journal lines, unmatched bank lines and the difference '
      + '(needs bank:write). One open reconciliation per account. Example: {"account_number": "1000", "statement_date": "2026-03-31", '
      + '"statement_balance": "243250"}.',
    async command(context, { account_number, ...input }) {
      const accountId = await accountIdOf(context.service, input.account_id, account_number, { id: 'account_id', number: 'account_number' });
      if (accountId === undefined) throw validationError('account_id is required', 'account_id', 'Give account_id or account_number');
      return { input: { ...input, account_id: accountId } };
    },
    text: ({ data: report }) => reconciliationText(report),
  }),
  tool({
    name: 'get_reconciliation', title: 'Get a reconciliation', writes: false, expensive: true, input: ReconciliationArguments,
    description: 'A reconciliation\'s report: statement and cleared balance, difference, the cleared journal lines, the outstanding ones '
      + '(in the books, dated on or before statement_date, not cleared: their journal_line_id is what clear_reconciliation_lines takes) '
      + `and the unmatched bank lines dated on or before it. ${AMOUNTS} Example: {"id": "0190..."}.`,
    async run(context, { id }) {
      const report = await context.service.getReconciliation(id);
      return { body: { data: report }, text: reconciliationText(report) };
    },
  }),
  commandTool({
    useCase: USE_CASES.clear_reconciliation_lines, title: 'Clear journal lines', input: ClearReconciliationLinesArguments,
    description: 'Mark journal lines of the account cleared in an open reconciliation: an opening balance, or a line the bank shows in '
      + 'another form; journal_line_ids from the report\'s outstanding list (needs bank:write). Example: {"id": "0190...", '
      + '"journal_line_ids": ["0190..."]}.',
    text: ({ data: report }) => reconciliationText(report),
  }),
  commandTool({
    useCase: USE_CASES.finish_reconciliation, title: 'Finish a reconciliation', input: ReconciliationArguments,
    description: 'Finish a reconciliation whose difference is exactly zero (otherwise RECONCILIATION_DIFFERENCE): its lines stay '
      + 'reconciled for good, and their bank lines can no longer be unmatched (needs bank:write). Example: {"id": "0190..."}.',
    text: ({ data: report }) => reconciliationText(report),
  }),
];
