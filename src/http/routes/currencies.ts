import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery, envelope, pageOf } from '../../schemas/common.js';
import { CreateCurrencyBody, Currency, UpdateCurrencyBody } from '../../schemas/currency.js';
import Type from 'typebox';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['currencies'];

export const currencyRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.post('/currencies', {
    config: { permission: 'currencies:write' },
    schema: { tags, summary: 'Create a currency', body: CreateCurrencyBody, response: { 201: envelope(Currency), ...errorResponses } },
  }, async (request, reply) => reply.code(201).send({ data: await service.createCurrency(actorOf(request), request.body) }));

  app.get('/currencies', {
    schema: { tags, summary: 'List currencies (ordered by code)', querystring: Type.Object(PageQuery, { additionalProperties: false }),
      response: { 200: pageOf(Currency), ...errorResponses } },
  }, async (request) => service.listCurrencies(request.query));

  app.get('/currencies/:id', {
    schema: { tags, summary: 'Get a currency', params: IdParams, response: { 200: envelope(Currency), ...errorResponses } },
  }, async (request) => ({ data: await service.getCurrency(request.params.id) }));

  app.patch('/currencies/:id', {
    config: { permission: 'currencies:write' },
    schema: { tags, summary: 'Update name and/or symbol', params: IdParams, body: UpdateCurrencyBody,
      response: { 200: envelope(Currency), ...errorResponses } },
  }, async (request) => ({ data: await service.updateCurrency(actorOf(request), request.params.id, request.body) }));
};
