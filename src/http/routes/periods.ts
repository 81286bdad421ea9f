import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { IdParams, PageQuery, envelope, pageOf } from '../../schemas/common.js';
import { Entry } from '../../schemas/journal-entry.js';
import { CloseQuery, CreatePeriodBody, Period } from '../../schemas/period.js';
import { Nullable } from '../../schemas/common.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['periods'];

export const periodRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'POST', url: '/periods', useCase: USE_CASES.create_period,
      schema: { tags, summary: 'Create a financial period (inclusive bounds, no overlap)', body: CreatePeriodBody,
        response: { 201: envelope(Period), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/periods', useCase: USE_CASES.list_periods, answersAsIs: true,
      schema: { tags, summary: 'List periods (ordered by start_date)', querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: pageOf(Period), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/periods/:id', useCase: USE_CASES.get_period,
      schema: { tags, summary: 'Get a period', params: IdParams, response: { 200: envelope(Period), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'DELETE', url: '/periods/:id', useCase: USE_CASES.delete_period,
      schema: { tags, summary: 'Delete an open period that holds no entries (a setup mistake); answers it as it was', params: IdParams,
        response: { 200: envelope(Period), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/periods/:id/close', useCase: USE_CASES.close_period,
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
      // The close's dry run is its preview.
      dryRun: ({ query }) => query.preview === true,
    }),
  ]);
};
