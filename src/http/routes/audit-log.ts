import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AuditLogQuery, AuditRecord } from '../../schemas/audit.js';
import { pageOf } from '../../schemas/common.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['audit log'];

export const auditLogRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  // Only admins read the log (the use case's permission); the check runs before the query is validated.
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'GET', url: '/audit-log', useCase: USE_CASES.list_audit_log, answersAsIs: true,
      schema: { tags, summary: 'The audit log, newest first (admins only); filters by actor, action, target and date',
        querystring: AuditLogQuery, response: { 200: pageOf(AuditRecord), ...errorResponses } },
    }),
  ]);
};
