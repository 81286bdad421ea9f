/**
 * Exchange rates (docs/api.md): set the rate of a currency on a day (201 when new, 200 when it
 * replaced that day's rate; needs `rates:write`), list them.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope, pageOf } from '../../schemas/common.js';
import { ExchangeRate, ExchangeRateListQuery, SetExchangeRateBody } from '../../schemas/exchange-rate.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['exchange rates'];

export const exchangeRateRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'POST', url: '/exchange-rates', useCase: USE_CASES.set_exchange_rate,
      schema: {
        tags, summary: 'Set the rate of a currency from a day on: the value of one major unit in the base currency (201 new, 200 replaced that day\'s rate)',
        body: SetExchangeRateBody, response: { 200: envelope(ExchangeRate), 201: envelope(ExchangeRate), ...errorResponses },
      },
    }),
    useCaseRoute({
      method: 'GET', url: '/exchange-rates', useCase: USE_CASES.list_exchange_rates, answersAsIs: true,
      schema: { tags, summary: 'List rates by date, then currency (filters currency_id, start_date, end_date)', querystring: ExchangeRateListQuery,
        response: { 200: pageOf(ExchangeRate), ...errorResponses } },
    }),
  ]);
};
