import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope } from '../../schemas/common.js';
import {
  AgedBalances, AgedBalancesQuery, BalanceSheet, BalanceSheetQuery, GeneralLedger, GeneralLedgerQuery, IncomeStatement, IncomeStatementQuery, TrialBalance,
  TrialBalanceQuery,
} from '../../schemas/report.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['reports'];

export const reportRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.get('/reports/trial-balance', {
    schema: { tags, summary: 'Trial balance: all time or one period, all currencies or one', querystring: TrialBalanceQuery,
      response: { 200: envelope(TrialBalance), ...errorResponses } },
  }, async (request) => ({ data: await service.expensiveRead(actorOf(request), () => service.trialBalance(request.query)) }));

  app.get('/reports/balance-sheet', {
    schema: { tags, summary: 'Balance sheet as of a date (inclusive) or through the end of a period', querystring: BalanceSheetQuery,
      response: { 200: envelope(BalanceSheet), ...errorResponses } },
  }, async (request) => ({ data: await service.expensiveRead(actorOf(request), () => service.balanceSheet(request.query)) }));

  app.get('/reports/income-statement', {
    schema: { tags, summary: 'Income statement of a period, or all time (closing entries excluded)', querystring: IncomeStatementQuery,
      response: { 200: envelope(IncomeStatement), ...errorResponses } },
  }, async (request) => ({ data: await service.expensiveRead(actorOf(request), () => service.incomeStatement(request.query)) }));

  app.get('/reports/general-ledger', {
    schema: { tags, summary: 'General ledger of an account with running balances, cursor-paged', querystring: GeneralLedgerQuery,
      response: { 200: envelope(GeneralLedger), ...errorResponses } },
  }, async (request) => ({ data: await service.expensiveRead(actorOf(request), () => service.generalLedger(request.query)) }));

  app.get('/reports/aged-balances', {
    schema: { tags, summary: 'Aged receivables or payables: a control account\'s sub-accounts in age buckets as of a date (first in, first out)',
      querystring: AgedBalancesQuery, response: { 200: envelope(AgedBalances), ...errorResponses } },
  }, async (request) => ({ data: await service.expensiveRead(actorOf(request), () => service.agedBalances(request.query)) }));
};
