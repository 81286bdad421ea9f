import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { IdParams, PageQuery, envelope, pageOf } from '../../schemas/common.js';
import { Entry } from '../../schemas/journal-entry.js';
import { CloseQuery, CreatePeriodBody, Period } from '../../schemas/period.js';
import { Nullable } from '../../schemas/common.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['periods'];

export const periodRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.post('/periods', {
    config: { permission: 'periods:write' },
    schema: { tags, summary: 'Create a financial period (inclusive bounds, no overlap)', body: CreatePeriodBody,
      response: { 201: envelope(Period), ...errorResponses } },
  }, async (request, reply) => reply.code(201).send({ data: await service.createPeriod(actorOf(request), request.body) }));

  app.get('/periods', {
    schema: { tags, summary: 'List periods (ordered by start_date)', querystring: Type.Object(PageQuery, { additionalProperties: false }),
      response: { 200: pageOf(Period), ...errorResponses } },
  }, async (request) => service.listPeriods(request.query));

  app.get('/periods/:id', {
    schema: { tags, summary: 'Get a period', params: IdParams, response: { 200: envelope(Period), ...errorResponses } },
  }, async (request) => ({ data: await service.getPeriod(request.params.id) }));

  app.delete('/periods/:id', {
    config: { permission: 'periods:write' },
    schema: { tags, summary: 'Delete an open period that holds no entries (a setup mistake); answers it as it was', params: IdParams,
      response: { 200: envelope(Period), ...errorResponses } },
  }, async (request) => ({ data: await service.deletePeriod(actorOf(request), request.params.id) }));

  app.post('/periods/:id/close', {
    config: { permission: 'periods:close' },
    schema: {
      tags, summary: 'Close a period permanently, posting one closing entry per currency; preview=true shows them and commits nothing',
      params: IdParams, querystring: CloseQuery,
      response: {
        200: envelope(Type.Object({
          period: Period,
          closing_entry: Nullable(Entry),
          closing_entries: Type.Array(Entry, { description: 'One closing entry per currency with revenue or expense activity, the default currency\'s first' }),
          preview: Type.Boolean(),
        })),
        ...errorResponses,
      },
    },
  }, async (request) => ({ data: await service.closePeriod(actorOf(request), request.params.id, request.query.preview === true) }));
};
