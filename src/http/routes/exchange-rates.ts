/**
 * Exchange rates (docs/api.md): set the rate of a currency on a day (201 when new, 200 when it
 * replaced that day's rate; needs `rates:write`), list them.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope, pageOf } from '../../schemas/common.js';
import { ExchangeRate, ExchangeRateListQuery, SetExchangeRateBody } from '../../schemas/exchange-rate.js';
import type { ExchangeRateSet } from '../../service/exchange-rates.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['exchange rates'];

/** A new rate is created (201); one that replaced the rate of its currency and day is an update (200). */
function answerOf(result: unknown): { statusCode: number; data: unknown } {
  const set = result as ExchangeRateSet;
  return { statusCode: set.replaced ? 200 : 201, data: set.rate };
}

export const exchangeRateRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.post('/exchange-rates', {
    config: { permission: 'rates:write', answerOf },
    schema: {
      tags, summary: 'Set the rate of a currency from a day on: the value of one major unit in the base currency (201 new, 200 replaced that day\'s rate)',
      body: SetExchangeRateBody, response: { 200: envelope(ExchangeRate), 201: envelope(ExchangeRate), ...errorResponses },
    },
  }, async (request, reply) => {
    const set = await service.setExchangeRate(actorOf(request), request.body);
    return reply.code(answerOf(set).statusCode).send({ data: set.rate });
  });

  app.get('/exchange-rates', {
    schema: { tags, summary: 'List rates by date, then currency (filters currency_id, start_date, end_date)', querystring: ExchangeRateListQuery,
      response: { 200: pageOf(ExchangeRate), ...errorResponses } },
  }, async (request) => service.listExchangeRates(request.query));
};
