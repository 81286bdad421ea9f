import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope } from '../../schemas/common.js';
import {
  AgedBalances, AgedBalancesQuery, BalanceSheet, BalanceSheetQuery, GeneralLedger, GeneralLedgerQuery, IncomeStatement, IncomeStatementQuery, TrialBalance,
  TrialBalanceQuery,
} from '../../schemas/report.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['reports'];

export const reportRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'GET', url: '/reports/trial-balance', useCase: USE_CASES.trial_balance,
      schema: { tags, summary: 'Trial balance: all time or one period, all currencies or one', querystring: TrialBalanceQuery,
        response: { 200: envelope(TrialBalance), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/reports/balance-sheet', useCase: USE_CASES.balance_sheet,
      schema: { tags, summary: 'Balance sheet as of a date (inclusive) or through the end of a period', querystring: BalanceSheetQuery,
        response: { 200: envelope(BalanceSheet), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/reports/income-statement', useCase: USE_CASES.income_statement,
      schema: { tags, summary: 'Income statement of a period, or all time (closing entries excluded)', querystring: IncomeStatementQuery,
        response: { 200: envelope(IncomeStatement), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/reports/general-ledger', useCase: USE_CASES.general_ledger,
      schema: { tags, summary: 'General ledger of an account with running balances, cursor-paged', querystring: GeneralLedgerQuery,
        response: { 200: envelope(GeneralLedger), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/reports/aged-balances', useCase: USE_CASES.aged_balances,
      schema: { tags, summary: 'Aged receivables or payables: a control account\'s sub-accounts in age buckets as of a date (first in, first out)',
        querystring: AgedBalancesQuery, response: { 200: envelope(AgedBalances), ...errorResponses } },
    }),
  ]);
};
