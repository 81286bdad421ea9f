import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { IdParams, envelope, pageOf } from '../../schemas/common.js';
import { DryRunBatch, DryRunEntry, DryRunQuery } from '../../schemas/dry-run.js';
import { BatchBody, CreateEntryBody, Entry, EntryListQuery, ReverseBody } from '../../schemas/journal-entry.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';

const tags = ['journal entries'];

export interface JournalEntryRouteOptions extends RouteOptions {
  /** Largest body of POST /journal-entries/batch (every other route has the app's limit). */
  batchBodyLimitBytes: number;
}

export const journalEntryRoutes: FastifyPluginAsyncTypebox<JournalEntryRouteOptions> = async (app, { service, batchBodyLimitBytes }) => {
  app.post('/journal-entries', {
    config: { permission: 'journals:create', confirmsCredential: true },
    schema: { tags, summary: 'Post a balanced journal entry; dry_run=true answers what would be posted (200) and commits nothing',
      querystring: DryRunQuery, body: CreateEntryBody,
      response: { 201: envelope(Entry), 200: envelope(DryRunEntry), ...errorResponses } },
  }, async (request, reply) => {
    const actor = actorOf(request);
    if (request.query.dry_run === true) return reply.code(200).send({ data: await service.dryRunJournalEntry(actor, request.body) });
    return reply.code(201).send({ data: await service.postJournalEntry(actor, request.body) });
  });

  app.post('/journal-entries/batch', {
    config: { permission: 'journals:create', confirmsCredential: true, keepsEntryIds: true },
    // A full batch is far larger than one entry: this route has a body limit of its own.
    bodyLimit: batchBodyLimitBytes,
    schema: { tags, summary: 'Post 1 to 10,000 entries in one transaction, all or none; dry_run=true commits nothing',
      querystring: DryRunQuery, body: BatchBody,
      response: { 201: envelope(Type.Array(Entry)), 200: envelope(DryRunBatch), ...errorResponses } },
  }, async (request, reply) => {
    const actor = actorOf(request);
    if (request.query.dry_run === true) {
      return reply.code(200).send({ data: await service.dryRunJournalEntries(actor, request.body.entries) });
    }
    return reply.code(201).send({ data: await service.postJournalEntries(actor, request.body.entries) });
  });

  app.get('/journal-entries', {
    schema: { tags, summary: 'List entries (ordered by entry_date, then posting order)', querystring: EntryListQuery,
      response: { 200: pageOf(Entry), ...errorResponses } },
  }, async (request) => service.expensiveRead(actorOf(request), () => service.listJournalEntries(request.query)));

  app.get('/journal-entries/:id', {
    schema: { tags, summary: 'Get an entry with its lines', params: IdParams, response: { 200: envelope(Entry), ...errorResponses } },
  }, async (request) => ({ data: await service.getJournalEntry(request.params.id) }));

  app.post('/journal-entries/:id/reverse', {
    config: { permission: 'journals:reverse', confirmsCredential: true },
    schema: { tags, summary: 'Reverse an entry (swap debits and credits); entry_date defaults to the original date; dry_run=true commits nothing',
      params: IdParams, querystring: DryRunQuery, body: Type.Optional(ReverseBody),
      response: { 201: envelope(Entry), 200: envelope(DryRunEntry), ...errorResponses } },
    // Every field of the body is optional, so a request without a body asks for all the defaults;
    // without this, validating the absent body against the object schema refuses it.
    preValidation: async (request) => {
      request.body ??= {};
    },
  }, async (request, reply) => {
    const actor = actorOf(request);
    const input = request.body ?? {};
    if (request.query.dry_run === true) {
      return reply.code(200).send({ data: await service.dryRunReversal(actor, request.params.id, input) });
    }
    return reply.code(201).send({ data: await service.reverseJournalEntry(actor, request.params.id, input) });
  });
};
