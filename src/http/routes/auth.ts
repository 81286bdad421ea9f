/** /auth: login, token refresh and logout, the current user, and first-user setup. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope } from '../../schemas/common.js';
import { ChangePasswordBody, LoginBody, LogoutResult, RefreshBody, SetupBody, SetupStatus, TokenPair, User } from '../../schemas/user.js';
import { authenticate } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['auth'];

export const authRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.post('/login', {
    schema: { tags, summary: 'Log in with e-mail and password', security: [], body: LoginBody,
      response: { 200: envelope(TokenPair), ...errorResponses } },
  }, async (request) => ({ data: await service.login(request.body, request.ip, request.id) }));

  app.post('/refresh', {
    schema: { tags, summary: 'Exchange a refresh token for a new pair (the used token is revoked)', security: [],
      body: RefreshBody, response: { 200: envelope(TokenPair), ...errorResponses } },
  }, async (request) => ({ data: await service.refresh(request.body, request.id) }));

  app.post('/logout', {
    schema: { tags, summary: 'Revoke a refresh token (and every token rotated from the same login)', security: [],
      body: RefreshBody, response: { 200: envelope(LogoutResult), ...errorResponses } },
  }, async (request) => ({ data: await service.logout(request.body, request.id) }));

  app.post('/logout-all', {
    schema: { tags, summary: 'Sign out everywhere: end every login session of the authenticated user (its access tokens stop working at once)',
      response: { 200: envelope(LogoutResult), ...errorResponses } },
  }, async (request) => ({ data: await service.logoutAll(await authenticate(service, request)) }));

  app.post('/password', {
    schema: { tags, summary: 'Change the password (the current one required); every session ends and a new token pair is answered',
      body: ChangePasswordBody, response: { 200: envelope(TokenPair), ...errorResponses } },
    // Authenticated before the body is read, like every authenticated route.
    onRequest: async (request) => { await authenticate(service, request); },
  }, async (request) => ({ data: await service.changePassword(request.actor!, request.body, request.ip) }));

  app.get('/me', {
    schema: { tags, summary: 'The authenticated user', response: { 200: envelope(User), ...errorResponses } },
  }, async (request) => ({ data: await service.me(await authenticate(service, request)) }));

  app.get('/setup', {
    schema: { tags, summary: 'Whether the first user still has to be created', security: [],
      response: { 200: envelope(SetupStatus), ...errorResponses } },
  }, async () => ({ data: await service.needsSetup() }));

  app.post('/setup', {
    schema: { tags, summary: 'Create the first user (an admin) while the database has no users', security: [],
      body: SetupBody, response: { 201: envelope(TokenPair), ...errorResponses } },
  }, async (request, reply) => reply.code(201).send({ data: await service.setup(request.body, request.id) }));
};
