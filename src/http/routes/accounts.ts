import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  Account, AccountBalance, AccountListQuery, AccountTransaction, BalanceQuery, CreateAccountBody, UpdateAccountBody,
} from '../../schemas/account.js';
import { IdParams, PageQuery, envelope, pageOf } from '../../schemas/common.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['accounts'];

export const accountRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.post('/accounts', {
    config: { permission: 'accounts:write' },
    schema: { tags, summary: 'Create an account or sub-account', body: CreateAccountBody,
      response: { 201: envelope(Account), ...errorResponses } },
  }, async (request, reply) => reply.code(201).send({ data: await service.createAccount(actorOf(request), request.body) }));

  app.get('/accounts', {
    schema: { tags, summary: 'List accounts (ordered by account_number)', querystring: AccountListQuery,
      response: { 200: pageOf(Account), ...errorResponses } },
  }, async (request) => service.listAccounts(request.query));

  app.get('/accounts/:id', {
    schema: { tags, summary: 'Get an account', params: IdParams, response: { 200: envelope(Account), ...errorResponses } },
  }, async (request) => ({ data: await service.getAccount(request.params.id) }));

  app.patch('/accounts/:id', {
    config: { permission: 'accounts:write' },
    schema: { tags, summary: 'Update name, is_active or xbrl_tag', params: IdParams, body: UpdateAccountBody,
      response: { 200: envelope(Account), ...errorResponses } },
  }, async (request) => ({ data: await service.updateAccount(actorOf(request), request.params.id, request.body) }));

  app.delete('/accounts/:id', {
    config: { permission: 'accounts:write' },
    schema: { tags, summary: 'Delete an account nothing uses (no line, sub-account, setting, bank rule, statement or reconciliation); answers it as it was',
      params: IdParams, response: { 200: envelope(Account), ...errorResponses } },
  }, async (request) => ({ data: await service.deleteAccount(actorOf(request), request.params.id) }));

  app.get('/accounts/:id/sub-accounts', {
    schema: { tags, summary: 'Sub-accounts of a control account', params: IdParams,
      response: { 200: envelope(Type.Array(Account)), ...errorResponses } },
  }, async (request) => ({ data: await service.listSubAccounts(request.params.id) }));

  app.get('/accounts/:id/balance', {
    schema: { tags, summary: 'Balance, all time or within a period (a control account sums its sub-accounts)',
      params: IdParams, querystring: BalanceQuery, response: { 200: envelope(AccountBalance), ...errorResponses } },
  }, async (request) => ({ data: await service.getAccountBalance(request.params.id, request.query.period_id) }));

  app.get('/accounts/:id/transactions', {
    schema: { tags, summary: "The account's lines, oldest first, with entry date and description", params: IdParams,
      querystring: Type.Object(PageQuery, { additionalProperties: false }),
      response: { 200: pageOf(AccountTransaction), ...errorResponses } },
  }, async (request) => service.expensiveRead(actorOf(request), () => service.listAccountTransactions(request.params.id, request.query)));
};
