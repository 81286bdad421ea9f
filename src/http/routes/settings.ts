import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope } from '../../schemas/common.js';
import { Settings, UpdateSettingsBody } from '../../schemas/settings.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['settings'];

export const settingsRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.get('/settings', {
    schema: { tags, summary: 'Get the settings', response: { 200: envelope(Settings), ...errorResponses } },
  }, async () => ({ data: await service.getSettings() }));

  app.patch('/settings', {
    config: { permission: 'settings:write' },
    schema: { tags, summary: 'Set the retained earnings account and the per-currency ones (active equity accounts, not control accounts)',
      body: UpdateSettingsBody, response: { 200: envelope(Settings), ...errorResponses } },
  }, async (request) => ({ data: await service.updateSettings(actorOf(request), request.body) }));
};
