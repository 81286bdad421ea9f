import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope } from '../../schemas/common.js';
import { VerifyResult } from '../../schemas/verify.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['verify'];

export const verifyRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'GET', url: '/verify', useCase: USE_CASES.verify,
      schema: {
        tags,
        summary: 'Check every invariant of the books on one snapshot (admin only); ok is false and problems name what is wrong',
        response: { 200: envelope(VerifyResult), ...errorResponses },
      },
    }),
  ]);
};
