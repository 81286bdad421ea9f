import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { IdParams, PageQuery, envelope, pageOf } from '../../schemas/common.js';
import { CreateServiceAccountBody, CreateUserBody, ServiceAccountCreated, UpdateUserBody, User } from '../../schemas/user.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['users'];

export const userRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.post('/users', {
    config: { permission: 'users:manage' },
    schema: { tags, summary: 'Create a human user (needs users:manage; only admins grant admin or users:manage)',
      body: CreateUserBody, response: { 201: envelope(User), ...errorResponses } },
  }, async (request, reply) => reply.code(201).send({ data: await service.createUser(actorOf(request), request.body) }));

  app.post('/users/service-accounts', {
    config: { permission: 'users:manage' },
    schema: { tags, summary: 'Create a service account; the api_key is shown only in this response',
      body: CreateServiceAccountBody, response: { 201: envelope(ServiceAccountCreated), ...errorResponses } },
  }, async (request, reply) => reply.code(201).send({ data: await service.createServiceAccount(actorOf(request), request.body) }));

  app.post('/users/:id/api-key/rotate', {
    config: { permission: 'users:manage' },
    schema: { tags, summary: 'Give a service account a new API key (shown only in this response); the old key stops working at once',
      params: IdParams, response: { 200: envelope(ServiceAccountCreated), ...errorResponses } },
  }, async (request) => ({ data: await service.rotateApiKey(actorOf(request), request.params.id) }));

  app.get('/users', {
    schema: { tags, summary: 'List users (ordered by creation)', querystring: Type.Object(PageQuery, { additionalProperties: false }),
      response: { 200: pageOf(User), ...errorResponses } },
  }, async (request) => service.listUsers(request.query));

  app.get('/users/:id', {
    schema: { tags, summary: 'Get a user', params: IdParams, response: { 200: envelope(User), ...errorResponses } },
  }, async (request) => ({ data: await service.getUser(request.params.id) }));

  app.patch('/users/:id', {
    config: { permission: 'users:manage' },
    schema: { tags, summary: 'Update name, permissions or is_active', params: IdParams, body: UpdateUserBody,
      response: { 200: envelope(User), ...errorResponses } },
  }, async (request) => ({ data: await service.updateUser(actorOf(request), request.params.id, request.body) }));
};
