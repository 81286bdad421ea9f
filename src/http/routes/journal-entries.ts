import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { IdParams, envelope, pageOf } from '../../schemas/common.js';
import { DryRunBatch, DryRunEntry, DryRunQuery } from '../../schemas/dry-run.js';
import { BatchBody, CreateEntryBody, Entry, EntryListQuery, ReverseBody } from '../../schemas/journal-entry.js';
import { USE_CASES } from '../../service/use-cases.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['journal entries'];

export interface JournalEntryRouteOptions extends RouteOptions {
  /** Largest body of POST /journal-entries/batch (every other route has the app's limit). */
  batchBodyLimitBytes: number;
}

export const journalEntryRoutes: FastifyPluginAsyncTypebox<JournalEntryRouteOptions> = async (app, { service, batchBodyLimitBytes }) => {
  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'POST', url: '/journal-entries', useCase: USE_CASES.post_journal_entry, confirmsCredential: true,
      schema: { tags, summary: 'Post a balanced journal entry; dry_run=true answers what would be posted (200) and commits nothing',
        querystring: DryRunQuery, body: CreateEntryBody,
        response: { 201: envelope(Entry), 200: envelope(DryRunEntry), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/journal-entries/batch', useCase: USE_CASES.post_journal_entries, confirmsCredential: true,
      // A full batch is far larger than one entry: this route has a body limit of its own.
      bodyLimit: batchBodyLimitBytes,
      schema: { tags, summary: 'Post 1 to 10,000 entries in one transaction, all or none; dry_run=true commits nothing',
        querystring: DryRunQuery, body: BatchBody,
        response: { 201: envelope(Type.Array(Entry)), 200: envelope(DryRunBatch), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/journal-entries', useCase: USE_CASES.list_journal_entries, answersAsIs: true,
      schema: { tags, summary: 'List entries (ordered by entry_date, then posting order)', querystring: EntryListQuery,
        response: { 200: pageOf(Entry), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'GET', url: '/journal-entries/:id', useCase: USE_CASES.get_journal_entry,
      schema: { tags, summary: 'Get an entry with its lines', params: IdParams, response: { 200: envelope(Entry), ...errorResponses } },
    }),
    useCaseRoute({
      method: 'POST', url: '/journal-entries/:id/reverse', useCase: USE_CASES.reverse_journal_entry, confirmsCredential: true,
      schema: { tags, summary: 'Reverse an entry (swap debits and credits); entry_date defaults to the original date; dry_run=true commits nothing',
        params: IdParams, querystring: DryRunQuery, body: Type.Optional(ReverseBody),
        response: { 201: envelope(Entry), 200: envelope(DryRunEntry), ...errorResponses } },
      // Every field of the body is optional, so a request without a body asks for all the defaults;
      // without this, validating the absent body against the object schema refuses it.
      preValidation: async (request) => {
        request.body ??= {};
      },
    }),
  ]);
};
