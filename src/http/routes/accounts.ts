import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  Account, AccountBalance, AccountListQuery, AccountTransaction, BalanceQuery, CreateAccountBody, UpdateAccountBody,
} from '../../schemas/account.js';
import { IdParams, PageQuery, envelope, pageOf } from '../../schemas/common.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['accounts'];

export const accountRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'POST', url: '/accounts', useCase: USE_CASES.create_account,
      schema: { tags, summary: 'Create an account or sub-account', body: CreateAccountBody,
        response: { 201: envelope(Account), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/accounts', useCase: USE_CASES.list_accounts, answersAsIs: true,
      schema: { tags, summary: 'List accounts (ordered by account_number)', querystring: AccountListQuery,
        response: { 200: pageOf(Account), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/accounts/:id', useCase: USE_CASES.get_account,
      schema: { tags, summary: 'Get an account', params: IdParams, response: { 200: envelope(Account), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'PATCH', url: '/accounts/:id', useCase: USE_CASES.update_account,
      schema: { tags, summary: 'Update name, is_active or xbrl_tag', params: IdParams, body: UpdateAccountBody,
        response: { 200: envelope(Account), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'DELETE', url: '/accounts/:id', useCase: USE_CASES.delete_account,
      schema: { tags, summary: 'Delete an account nothing uses (no line, sub-account, setting, bank rule, statement or reconciliation); answers it as it was',
        params: IdParams, response: { 200: envelope(Account), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/accounts/:id/sub-accounts', useCase: USE_CASES.list_sub_accounts,
      schema: { tags, summary: 'Sub-accounts of a control account', params: IdParams,
        response: { 200: envelope(Type.Array(Account)), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/accounts/:id/balance', useCase: USE_CASES.get_account_balance,
      schema: { tags, summary: 'Balance, all time or within a period (a control account sums its sub-accounts)',
        params: IdParams, querystring: BalanceQuery, response: { 200: envelope(AccountBalance), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/accounts/:id/transactions', useCase: USE_CASES.list_account_transactions, answersAsIs: true,
      schema: { tags, summary: "The account's lines, oldest first, with entry date and description", params: IdParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: pageOf(AccountTransaction), ...errorResponses } },
    }),
  ]);
};
