import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope } from '../../schemas/common.js';
import { Settings, UpdateSettingsBody } from '../../schemas/settings.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['settings'];

export const settingsRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'GET', url: '/settings', useCase: USE_CASES.get_settings,
      schema: { tags, summary: 'Get the settings', response: { 200: envelope(Settings), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'PATCH', url: '/settings', useCase: USE_CASES.update_settings,
      schema: { tags, summary: 'Set the retained earnings account and the per-currency ones (active equity accounts, not control accounts)',
        body: UpdateSettingsBody, response: { 200: envelope(Settings), ...errorResponses } },
    }),
  ]);
};
