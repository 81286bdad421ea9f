/**
 * Bank statements, bank lines, bank rules and reconciliations (docs/banking.md). Writes need
 * `bank:write`; posting a line as an entry needs `journals:create` as well (checked by the service).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  AcceptBankLinesBody, BankLine, BankLineListQuery, BankRule, BankRuleListQuery, BankStatement, BankStatementListQuery, Candidate, ClearLinesBody,
  CreateBankRuleBody, ExcludeBankLineBody, ImportStatementBody, MatchBankLineBody, PostBankLineBody, PreviewBankRuleBody, Reconciliation,
  ReconciliationDetail, ReconciliationListQuery, RulePreview, StartReconciliationBody, UpdateBankRuleBody,
} from '../../schemas/bank.js';
import { IdParams, envelope, pageOf } from '../../schemas/common.js';
import { DryRunQuery } from '../../schemas/dry-run.js';
import { Entry } from '../../schemas/journal-entry.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const BankDryRun = Type.Object({ dry_run: Type.Literal(true), lines: Type.Array(BankLine), entries: Type.Array(Entry) });

export interface BankRouteOptions extends RouteOptions {
  /** A statement file can be large: the import takes the batch route's body limit. */
  batchBodyLimitBytes: number;
}

export const bankRoutes: FastifyPluginAsyncTypebox<BankRouteOptions> = async (app, { service, batchBodyLimitBytes }) => {
  const statements = ['bank statements'];
  app.post('/bank-statements', {
    config: { permission: 'bank:write' }, bodyLimit: batchBodyLimitBytes,
    schema: { tags: statements, summary: 'Import a statement file (CSV, OFX/QFX, CAMT.053): all of its new lines, or nothing',
      body: ImportStatementBody, response: { 201: envelope(BankStatement), ...errorResponses } },
  }, async (request, reply) => reply.code(201).send({ data: await service.importBankStatement(actorOf(request), request.body) }));

  app.get('/bank-statements', {
    schema: { tags: statements, summary: 'List imported statements, in import order', querystring: BankStatementListQuery,
      response: { 200: pageOf(BankStatement), ...errorResponses } },
  }, async (request) => service.listBankStatements(request.query));

  app.get('/bank-statements/:id', {
    schema: { tags: statements, summary: 'Get an imported statement', params: IdParams, response: { 200: envelope(BankStatement), ...errorResponses } },
  }, async (request) => ({ data: await service.getBankStatement(request.params.id) }));

  const lines = ['bank lines'];
  app.get('/bank-lines', {
    schema: { tags: lines, summary: 'List bank lines, oldest first, each unmatched one with the suggestion of the rules', querystring: BankLineListQuery,
      response: { 200: pageOf(BankLine), ...errorResponses } },
  }, async (request) => service.expensiveRead(actorOf(request), () => service.listBankLines(request.query)));

  app.get('/bank-lines/:id', {
    schema: { tags: lines, summary: 'Get a bank line', params: IdParams, response: { 200: envelope(BankLine), ...errorResponses } },
  }, async (request) => ({ data: await service.getBankLine(request.params.id) }));

  app.get('/bank-lines/:id/candidates', {
    schema: { tags: lines, summary: 'Posted entries this line could be matched to (same amount within 7 days), best first, with a score and a reason',
      params: IdParams, response: { 200: Type.Object({ data: Type.Array(Candidate) }), ...errorResponses } },
  }, async (request) => service.bankLineCandidates(request.params.id));

  app.post('/bank-lines/accept', {
    config: { permission: 'bank:write' },
    schema: { tags: lines, summary: 'Post every listed line by its suggestion in one transaction, all or none (needs journals:create too)',
      querystring: DryRunQuery, body: AcceptBankLinesBody,
      response: { 200: Type.Union([Type.Object({ data: Type.Array(BankLine) }), envelope(BankDryRun)]), ...errorResponses } },
  }, async (request) => {
    const actor = actorOf(request);
    if (request.query.dry_run === true) return { data: await service.dryRunAcceptBankLines(actor, request.body) };
    return { data: await service.acceptBankLines(actor, request.body) };
  });

  app.post('/bank-lines/:id/post', {
    config: { permission: 'bank:write' },
    schema: { tags: lines, summary: 'Post the line as a new two-line entry and match it (needs journals:create too); dry_run=true commits nothing',
      params: IdParams, querystring: DryRunQuery, body: Type.Optional(PostBankLineBody),
      response: { 200: Type.Union([envelope(BankLine), envelope(BankDryRun)]), ...errorResponses } },
  }, async (request) => {
    const actor = actorOf(request);
    const body = request.body ?? {};
    if (request.query.dry_run === true) return { data: await service.dryRunPostBankLine(actor, request.params.id, body) };
    return { data: await service.postBankLine(actor, request.params.id, body) };
  });

  app.post('/bank-lines/:id/match', {
    config: { permission: 'bank:write' },
    schema: { tags: lines, summary: 'Match the line to posted entries whose lines on the bank account add up to exactly its amount',
      params: IdParams, body: MatchBankLineBody, response: { 200: envelope(BankLine), ...errorResponses } },
  }, async (request) => ({ data: await service.matchBankLine(actorOf(request), request.params.id, request.body) }));

  app.post('/bank-lines/:id/exclude', {
    config: { permission: 'bank:write' },
    schema: { tags: lines, summary: 'Exclude the line from the books, with a reason (kept, never deleted)', params: IdParams, body: ExcludeBankLineBody,
      response: { 200: envelope(BankLine), ...errorResponses } },
  }, async (request) => ({ data: await service.excludeBankLine(actorOf(request), request.params.id, request.body) }));

  app.post('/bank-lines/:id/unmatch', {
    config: { permission: 'bank:write' },
    schema: { tags: lines, summary: 'Take a match or an exclusion back: the line is unmatched again, the entries stay posted', params: IdParams,
      response: { 200: envelope(BankLine), ...errorResponses } },
  }, async (request) => ({ data: await service.unmatchBankLine(actorOf(request), request.params.id) }));

  const rules = ['bank rules'];
  app.post('/bank-rules', {
    config: { permission: 'bank:write' },
    schema: { tags: rules, summary: 'Create a rule that suggests how to post matching bank lines', body: CreateBankRuleBody,
      response: { 201: envelope(BankRule), ...errorResponses } },
  }, async (request, reply) => reply.code(201).send({ data: await service.createBankRule(actorOf(request), request.body) }));

  app.post('/bank-rules/preview', {
    config: { permission: 'bank:write' },
    schema: { tags: rules, summary: 'Try a rule on the unmatched lines without saving it: the lines it would suggest for, and why',
      body: PreviewBankRuleBody, response: { 200: envelope(RulePreview), ...errorResponses } },
  }, async (request) => ({ data: await service.previewBankRule(actorOf(request), request.body) }));

  app.get('/bank-rules', {
    schema: { tags: rules, summary: 'List rules in the order they apply (priority, then creation)', querystring: BankRuleListQuery,
      response: { 200: pageOf(BankRule), ...errorResponses } },
  }, async (request) => service.listBankRules(request.query));

  app.get('/bank-rules/:id', {
    schema: { tags: rules, summary: 'Get a rule', params: IdParams, response: { 200: envelope(BankRule), ...errorResponses } },
  }, async (request) => ({ data: await service.getBankRule(request.params.id) }));

  app.patch('/bank-rules/:id', {
    config: { permission: 'bank:write' },
    schema: { tags: rules, summary: 'Change a rule', params: IdParams, body: UpdateBankRuleBody, response: { 200: envelope(BankRule), ...errorResponses } },
  }, async (request) => ({ data: await service.updateBankRule(actorOf(request), request.params.id, request.body) }));

  app.delete('/bank-rules/:id', {
    config: { permission: 'bank:write' },
    schema: { tags: rules, summary: 'Delete a rule (answers it as it was)', params: IdParams, response: { 200: envelope(BankRule), ...errorResponses } },
  }, async (request) => ({ data: await service.deleteBankRule(actorOf(request), request.params.id) }));

  const reconciliations = ['reconciliations'];
  app.post('/reconciliations', {
    config: { permission: 'bank:write' },
    schema: { tags: reconciliations, summary: 'Start reconciling an account against a statement balance', body: StartReconciliationBody,
      response: { 201: envelope(ReconciliationDetail), ...errorResponses } },
  }, async (request, reply) => reply.code(201).send({ data: await service.startReconciliation(actorOf(request), request.body) }));

  app.get('/reconciliations', {
    schema: { tags: reconciliations, summary: 'List reconciliations, newest statement first', querystring: ReconciliationListQuery,
      response: { 200: pageOf(Reconciliation), ...errorResponses } },
  }, async (request) => service.expensiveRead(actorOf(request), () => service.listReconciliations(request.query)));

  app.get('/reconciliations/:id', {
    schema: { tags: reconciliations, summary: 'A reconciliation with its cleared and outstanding lines and unmatched bank lines', params: IdParams,
      response: { 200: envelope(ReconciliationDetail), ...errorResponses } },
  }, async (request) => ({ data: await service.expensiveRead(actorOf(request), () => service.getReconciliation(request.params.id)) }));

  for (const [path, clear] of [['clear', true], ['unclear', false]] as const) {
    app.post(`/reconciliations/:id/${path}`, {
      config: { permission: 'bank:write' },
      schema: { tags: reconciliations, summary: clear ? 'Mark journal lines cleared (an opening balance, say)' : 'Take marks back while open',
        params: IdParams, body: ClearLinesBody, response: { 200: envelope(ReconciliationDetail), ...errorResponses } },
    }, async (request) => ({ data: clear ? await service.clearReconciliationLines(actorOf(request), request.params.id, request.body)
      : await service.unclearReconciliationLines(actorOf(request), request.params.id, request.body) }));
  }

  app.post('/reconciliations/:id/finish', {
    config: { permission: 'bank:write' },
    schema: { tags: reconciliations, summary: 'Finish it, only at a difference of zero: its lines stay reconciled for good', params: IdParams,
      response: { 200: envelope(ReconciliationDetail), ...errorResponses } },
  }, async (request) => ({ data: await service.finishReconciliation(actorOf(request), request.params.id) }));
};
