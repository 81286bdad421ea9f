import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery, envelope, pageOf } from '../../schemas/common.js';
import { CreateCurrencyBody, Currency, UpdateCurrencyBody } from '../../schemas/currency.js';
import Type from 'typebox';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['currencies'];

export const currencyRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'POST', url: '/currencies', useCase: USE_CASES.create_currency,
      schema: { tags, summary: 'Create a currency', body: CreateCurrencyBody, response: { 201: envelope(Currency), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/currencies', useCase: USE_CASES.list_currencies, answersAsIs: true,
      schema: { tags, summary: 'List currencies (ordered by code)', querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: pageOf(Currency), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/currencies/:id', useCase: USE_CASES.get_currency,
      schema: { tags, summary: 'Get a currency', params: IdParams, response: { 200: envelope(Currency), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'PATCH', url: '/currencies/:id', useCase: USE_CASES.update_currency,
      schema: { tags, summary: 'Update name and/or symbol', params: IdParams, body: UpdateCurrencyBody,
        response: { 200: envelope(Currency), ...errorResponses } },
    }),
  ]);
};
