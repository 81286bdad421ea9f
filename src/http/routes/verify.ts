import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope } from '../../schemas/common.js';
import { VerifyResult } from '../../schemas/verify.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['verify'];

export const verifyRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.get('/verify', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Check every invariant of the books on one snapshot (admin only); ok is false and problems name what is wrong',
      response: { 200: envelope(VerifyResult), ...errorResponses },
    },
  }, async (request) => ({ data: await service.expensiveRead(actorOf(request), () => service.verifyLedger(actorOf(request))) }));
};
