import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { IdParams, PageQuery, envelope, pageOf } from '../../schemas/common.js';
import { CreateServiceAccountBody, CreateUserBody, ServiceAccountCreated, UpdateUserBody, User } from '../../schemas/user.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['users'];

export const userRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'POST', url: '/users', useCase: USE_CASES.create_user,
      schema: { tags, summary: 'Create a human user (needs users:manage; only admins grant admin or users:manage)',
        body: CreateUserBody, response: { 201: envelope(User), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/users/service-accounts', useCase: USE_CASES.create_service_account,
      schema: { tags, summary: 'Create a service account; the api_key is shown only in this response',
        body: CreateServiceAccountBody, response: { 201: envelope(ServiceAccountCreated), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/users/:id/api-key/rotate', useCase: USE_CASES.rotate_api_key,
      schema: { tags, summary: 'Give a service account a new API key (shown only in this response); the old key stops working at once',
        params: IdParams, response: { 200: envelope(ServiceAccountCreated), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/users', useCase: USE_CASES.list_users, answersAsIs: true,
      schema: { tags, summary: 'List users (ordered by creation)', querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: pageOf(User), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/users/:id', useCase: USE_CASES.get_user,
      schema: { tags, summary: 'Get a user', params: IdParams, response: { 200: envelope(User), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'PATCH', url: '/users/:id', useCase: USE_CASES.update_user,
      schema: { tags, summary: 'Update name, permissions or is_active', params: IdParams, body: UpdateUserBody,
        response: { 200: envelope(User), ...errorResponses } },
    }),
  ]);
};
