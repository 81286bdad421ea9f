import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, envelope, pageOf } from '../../schemas/common.js';
import { CreateEntryBody, Entry, EntryListQuery, ReverseBody } from '../../schemas/journal-entry.js';
import Type from 'typebox';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['journal entries'];

export const journalEntryRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  app.post('/journal-entries', {
    config: { permission: 'journals:create' },
    schema: { tags, summary: 'Post a balanced journal entry', body: CreateEntryBody,
      response: { 201: envelope(Entry), ...errorResponses } },
  }, async (request, reply) => reply.code(201).send({ data: await service.postJournalEntry(actorOf(request), request.body) }));

  app.get('/journal-entries', {
    schema: { tags, summary: 'List entries (ordered by entry_date, then posting order)', querystring: EntryListQuery,
      response: { 200: pageOf(Entry), ...errorResponses } },
  }, async (request) => service.listJournalEntries(request.query));

  app.get('/journal-entries/:id', {
    schema: { tags, summary: 'Get an entry with its lines', params: IdParams, response: { 200: envelope(Entry), ...errorResponses } },
  }, async (request) => ({ data: await service.getJournalEntry(request.params.id) }));

  app.post('/journal-entries/:id/reverse', {
    config: { permission: 'journals:reverse' },
    schema: { tags, summary: 'Reverse an entry (swap debits and credits); entry_date defaults to the original date',
      params: IdParams, body: Type.Optional(ReverseBody), response: { 201: envelope(Entry), ...errorResponses } },
    // Every field of the body is optional, so a request without a body asks for all the defaults;
    // without this, validating the absent body against the object schema refuses it.
    preValidation: async (request) => {
      request.body ??= {};
    },
  }, async (request, reply) => reply.code(201).send({
    data: await service.reverseJournalEntry(actorOf(request), request.params.id, request.body ?? {}),
  }));
};
