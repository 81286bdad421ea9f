/**
 * Bank statements, bank lines, bank rules and reconciliations (docs/banking.md). Writes need
 * `bank:write`; posting a line as an entry needs `journals:create` as well (checked by the service).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  AcceptBankLinesBody, BankLine, BankLineListQuery, BankRule, BankRuleListQuery, BankStatement, BankStatementDryRun, BankStatementListQuery,
  Candidate, ClearLinesBody, CreateBankRuleBody, ExcludeBankLineBody, ImportStatementBody, MatchBankLineBody, PostBankLineBody, PreviewBankRuleBody,
  Reconciliation, ReconciliationDetail, ReconciliationListQuery, RulePreview, StartReconciliationBody, UpdateBankRuleBody,
} from '../../schemas/bank.js';
import { IdParams, envelope, pageOf } from '../../schemas/common.js';
import { DryRunQuery } from '../../schemas/dry-run.js';
import { Entry } from '../../schemas/journal-entry.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const BankDryRun = Type.Object({ dry_run: Type.Literal(true), lines: Type.Array(BankLine), entries: Type.Array(Entry) });

export interface BankRouteOptions extends RouteOptions {
  /** A statement file can be large: the import takes the batch route's body limit. */
  batchBodyLimitBytes: number;
}

export const bankRoutes: FastifyPluginAsyncTypebox<BankRouteOptions> = async (app, { service, batchBodyLimitBytes }) => {
  const statements = ['bank statements'];
  const lines = ['bank lines'];
  const rules = ['bank rules'];
  const reconciliations = ['reconciliations'];
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'POST', url: '/bank-statements', useCase: USE_CASES.import_bank_statement, bodyLimit: batchBodyLimitBytes,
      schema: { tags: statements, summary: 'Import a statement file (CSV, OFX/QFX, CAMT.053): all of its new lines, or nothing; dry_run=true stores nothing',
        querystring: DryRunQuery, body: ImportStatementBody,
        response: { 201: envelope(BankStatement), 200: envelope(BankStatementDryRun), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/bank-statements', useCase: USE_CASES.list_bank_statements, answersAsIs: true,
      schema: { tags: statements, summary: 'List imported statements, in import order', querystring: BankStatementListQuery,
        response: { 200: pageOf(BankStatement), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/bank-statements/:id', useCase: USE_CASES.get_bank_statement,
      schema: { tags: statements, summary: 'Get an imported statement', params: IdParams, response: { 200: envelope(BankStatement), ...errorResponses } },
    }),

    useCaseRoute({
      method: 'GET', url: '/bank-lines', useCase: USE_CASES.list_bank_lines, answersAsIs: true,
      schema: { tags: lines, summary: 'List bank lines, oldest first, each unmatched one with the suggestion of the rules', querystring: BankLineListQuery,
        response: { 200: pageOf(BankLine), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/bank-lines/:id', useCase: USE_CASES.get_bank_line,
      schema: { tags: lines, summary: 'Get a bank line', params: IdParams, response: { 200: envelope(BankLine), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/bank-lines/:id/candidates', useCase: USE_CASES.get_bank_line_candidates, answersAsIs: true,
      schema: { tags: lines, summary: 'Posted entries this line could be matched to (same amount within 7 days), best first, with a score and a reason',
        params: IdParams, response: { 200: Type.Object({ data: Type.Array(Candidate) }), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/bank-lines/accept', useCase: USE_CASES.accept_bank_lines,
      schema: { tags: lines, summary: 'Post every listed line by its suggestion in one transaction, all or none (needs journals:create too)',
        querystring: DryRunQuery, body: AcceptBankLinesBody,
        response: { 200: Type.Union([Type.Object({ data: Type.Array(BankLine) }), envelope(BankDryRun)]), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/bank-lines/:id/post', useCase: USE_CASES.post_bank_line,
      schema: { tags: lines, summary: 'Post the line as a new two-line entry and match it (needs journals:create too); dry_run=true commits nothing',
        params: IdParams, querystring: DryRunQuery, body: Type.Optional(PostBankLineBody),
        response: { 200: Type.Union([envelope(BankLine), envelope(BankDryRun)]), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/bank-lines/:id/match', useCase: USE_CASES.match_bank_line,
      schema: { tags: lines, summary: 'Match the line to posted entries whose lines on the bank account add up to exactly its amount',
        params: IdParams, body: MatchBankLineBody, response: { 200: envelope(BankLine), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/bank-lines/:id/exclude', useCase: USE_CASES.exclude_bank_line,
      schema: { tags: lines, summary: 'Exclude the line from the books, with a reason (kept, never deleted)', params: IdParams, body: ExcludeBankLineBody,
        response: { 200: envelope(BankLine), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/bank-lines/:id/unmatch', useCase: USE_CASES.unmatch_bank_line,
      schema: { tags: lines, summary: 'Take a match or an exclusion back: the line is unmatched again, the entries stay posted', params: IdParams,
        response: { 200: envelope(BankLine), ...errorResponses } },
    }),

    useCaseRoute({
      method: 'POST', url: '/bank-rules', useCase: USE_CASES.create_bank_rule,
      schema: { tags: rules, summary: 'Create a rule that suggests how to post matching bank lines', body: CreateBankRuleBody,
        response: { 201: envelope(BankRule), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/bank-rules/preview', useCase: USE_CASES.preview_bank_rule,
      schema: { tags: rules, summary: 'Try a rule on the unmatched lines without saving it: the lines it would suggest for, and why',
        body: PreviewBankRuleBody, response: { 200: envelope(RulePreview), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/bank-rules', useCase: USE_CASES.list_bank_rules, answersAsIs: true,
      schema: { tags: rules, summary: 'List rules in the order they apply (priority, then creation)', querystring: BankRuleListQuery,
        response: { 200: pageOf(BankRule), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/bank-rules/:id', useCase: USE_CASES.get_bank_rule,
      schema: { tags: rules, summary: 'Get a rule', params: IdParams, response: { 200: envelope(BankRule), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'PATCH', url: '/bank-rules/:id', useCase: USE_CASES.update_bank_rule,
      schema: { tags: rules, summary: 'Change a rule', params: IdParams, body: UpdateBankRuleBody, response: { 200: envelope(BankRule), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'DELETE', url: '/bank-rules/:id', useCase: USE_CASES.delete_bank_rule,
      schema: { tags: rules, summary: 'Delete a rule (answers it as it was)', params: IdParams, response: { 200: envelope(BankRule), ...errorResponses } },
    }),

    useCaseRoute({
      method: 'POST', url: '/reconciliations', useCase: USE_CASES.start_reconciliation,
      schema: { tags: reconciliations, summary: 'Start reconciling an account against a statement balance', body: StartReconciliationBody,
        response: { 201: envelope(ReconciliationDetail), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/reconciliations', useCase: USE_CASES.list_reconciliations, answersAsIs: true,
      schema: { tags: reconciliations, summary: 'List reconciliations, newest statement first', querystring: ReconciliationListQuery,
        response: { 200: pageOf(Reconciliation), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/reconciliations/:id', useCase: USE_CASES.get_reconciliation,
      schema: { tags: reconciliations, summary: 'A reconciliation with its cleared and outstanding lines and unmatched bank lines', params: IdParams,
        response: { 200: envelope(ReconciliationDetail), ...errorResponses } },
    }),
    ...([['clear', USE_CASES.clear_reconciliation_lines], ['unclear', USE_CASES.unclear_reconciliation_lines]] as const).map(([path, useCase]) =>
      useCaseRoute({
        method: 'POST', url: `/reconciliations/:id/${path}`, useCase,
        schema: { tags: reconciliations, summary: path === 'clear' ? 'Mark journal lines cleared (an opening balance, say)' : 'Take marks back while open',
          params: IdParams, body: ClearLinesBody, response: { 200: envelope(ReconciliationDetail), ...errorResponses } },
      })),
    useCaseRoute({
      method: 'POST', url: '/reconciliations/:id/finish', useCase: USE_CASES.finish_reconciliation,
      schema: { tags: reconciliations, summary: 'Finish it, only at a difference of zero: its lines stay reconciled for good', params: IdParams,
        response: { 200: envelope(ReconciliationDetail), ...errorResponses } },
    }),
  ]);
};
