/** Webhook endpoints (permission webhooks:manage; CONTRACT.md, "Events and webhooks"; docs/events.md). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope, IdParams, pageOf } from '../../schemas/common.js';
import {
  CreateWebhookEndpointBody, ReplayWebhookBody, UpdateWebhookEndpointBody, WebhookDeliveriesQuery, WebhookDeliveryView, WebhookEndpointView,
  WebhookEndpointWithSecret,
} from '../../schemas/webhook.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['webhooks'];

export const webhookRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'POST', url: '/webhook-endpoints', useCase: USE_CASES.create_webhook_endpoint,
      schema: { tags, summary: 'Create an endpoint that receives events (the secret is shown only in this answer)', body: CreateWebhookEndpointBody,
        response: { 201: envelope(WebhookEndpointWithSecret), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/webhook-endpoints', useCase: USE_CASES.list_webhook_endpoints, answersAsIs: true,
      schema: { tags, summary: 'List the endpoints, oldest first', response: { 200: pageOf(WebhookEndpointView), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/webhook-endpoints/:id', useCase: USE_CASES.get_webhook_endpoint,
      schema: { tags, summary: 'Get an endpoint', params: IdParams, response: { 200: envelope(WebhookEndpointView), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'PATCH', url: '/webhook-endpoints/:id', useCase: USE_CASES.update_webhook_endpoint,
      schema: { tags, summary: 'Change an endpoint; is_active true re-enables a disabled one', params: IdParams, body: UpdateWebhookEndpointBody,
        response: { 200: envelope(WebhookEndpointView), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'DELETE', url: '/webhook-endpoints/:id', useCase: USE_CASES.delete_webhook_endpoint,
      schema: { tags, summary: 'Delete an endpoint and its attempts (answers it as it was)', params: IdParams,
        response: { 200: envelope(WebhookEndpointView), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/webhook-endpoints/:id/rotate-secret', useCase: USE_CASES.rotate_webhook_secret,
      schema: { tags, summary: 'A new secret (shown once); the old one keeps signing beside it for 24 h', params: IdParams,
        response: { 200: envelope(WebhookEndpointWithSecret), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/webhook-endpoints/:id/replay', useCase: USE_CASES.replay_webhook_endpoint,
      schema: { tags, summary: 'Deliver again every event after after_seq, in order', params: IdParams, body: ReplayWebhookBody,
        response: { 200: envelope(WebhookEndpointView), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/webhook-endpoints/:id/deliveries', useCase: USE_CASES.list_webhook_deliveries, answersAsIs: true,
      schema: { tags, summary: 'Every delivery attempt, newest first', params: IdParams, querystring: WebhookDeliveriesQuery,
        response: { 200: pageOf(WebhookDeliveryView), ...errorResponses } },
    }),
  ]);
};
