import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AuditLogQuery, AuditRecord } from '../../schemas/audit.js';
import { pageOf } from '../../schemas/common.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['audit log'];

export const auditLogRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.get('/audit-log', {
    // Only admins read the log; the check runs before the query is validated.
    config: { permission: 'admin' },
    schema: { tags, summary: 'The audit log, newest first (admins only); filters by actor, action, target and date',
      querystring: AuditLogQuery, response: { 200: pageOf(AuditRecord), ...errorResponses } },
  }, async (request) => service.expensiveRead(actorOf(request), () => service.listAuditLog(actorOf(request), request.query)));
};
