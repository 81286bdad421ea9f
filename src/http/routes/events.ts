/**
 * The change feed over HTTP (CONTRACT.md, "Events and webhooks"; docs/events.md): the list, and a
 * Server-Sent Events stream. The stream reads the feed through the same use case as the list, so
 * it works the same with several servers on one database (each server's stream reads what any of
 * them committed) and needs no session state on the database (it works through PgBouncer).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageOf } from '../../schemas/common.js';
import { EventListQuery, EventStreamQuery, LedgerEvent } from '../../schemas/event.js';
import { parseSeq, parseTypes } from '../../service/events.js';
import { USE_CASES } from '../../service/use-cases.js';
import { actorOf } from '../plugins/auth.js';
import { errorResponses, type RouteOptions } from './route-options.js';
import { registerUseCaseRoutes, useCaseRoute } from './use-case-route.js';

const tags = ['events'];

/** How often an open stream looks for new events. */
const POLL_MS = 250;
/** A comment line this often keeps proxies from closing an idle stream (the contract: at least every 15 s). */
const HEARTBEAT_MS = 10_000;
/** Events read per look. */
const READ_LIMIT = 500;

export const eventRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { service }) => {
  // Open streams end when the server closes (they are no idle connection it would close itself).
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const stop of streams) stop();
  });

  registerUseCaseRoutes(app, service, [
    useCaseRoute({
      method: 'GET', url: '/events', useCase: USE_CASES.list_events, answersAsIs: true,
      schema: { tags, summary: 'The change feed: every committed change, oldest first, numbered without gaps (events:read)',
        querystring: EventListQuery, response: { 200: pageOf(LedgerEvent), ...errorResponses } },
    }),
  ]);

  app.get('/events/stream', {
    schema: { tags, summary: 'The change feed as Server-Sent Events; resumes after Last-Event-ID (events:read)', querystring: EventStreamQuery },
  }, async (request, reply) => {
    const actor = actorOf(request);
    const header = request.headers['last-event-id'];
    const resumeFrom = typeof header === 'string' && header !== '' ? parseSeq(header, 'Last-Event-ID') : undefined;
    const types = request.query.types;
    parseTypes(types);
    // Checks the permission and the input before the stream opens, so a refusal is a JSON error.
    let after = resumeFrom ?? (request.query.after !== undefined
      ? parseSeq(request.query.after, 'after')
      : Number((await service.execute(USE_CASES.last_event, { actor, input: {} })).seq));

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no',
    });
    raw.write(': connected\n\n');
    let open = true;
    const stop = () => { open = false; };
    streams.add(stop);
    request.raw.on('close', stop);
    let lastWrite = Date.now();
    while (open) {
      try {
        const page = await service.execute(USE_CASES.list_events, { actor, input: { after: String(after), types, limit: READ_LIMIT } });
        for (const event of page.data) {
          raw.write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
          after = Number(event.seq);
          lastWrite = Date.now();
        }
        if (page.has_more) continue;
      } catch (error) {
        // The database is away or the actor lost its rights: the stream ends; the client resumes with Last-Event-ID.
        request.log.warn({ err: error }, 'event stream ended');
        break;
      }
      if (Date.now() - lastWrite >= HEARTBEAT_MS) {
        raw.write(': heartbeat\n\n');
        lastWrite = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    streams.delete(stop);
    raw.end();
  });
};
