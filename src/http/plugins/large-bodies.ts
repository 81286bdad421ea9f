/**
 * Large request bodies, one at a time. A batch of 10,000 entries at the body limit (8 MiB of JSON)
 * costs the server many times its size while it is parsed, checked and answered (the body, the
 * parsed entries, the entries as posted, the answer as objects and as text); eight of them at once
 * took a server past 900 MB. The routes that take more than the default body limit (the batch,
 * /mcp) read such a body only in a slot of their own, taken after authentication and before the
 * body is read, and given back when the answer is done or the connection closes; a few more wait,
 * the rest are answered 429. A body within the default limit (a normal MCP call) needs no slot,
 * and one declared over the route's limit is refused (413) without one.
 *
 * V8 collects lazily: the garbage of one such request was still held when the next one started,
 * and the process's peak grew with every request in line (443 MiB for eight in a row, against
 * 308 MiB with a collection between them). So a full collection runs when a large request is
 * done: tens of milliseconds after a request that took seconds, and only then.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { Slots } from '../../service/slots.js';

export const LARGE_BODIES_AT_ONCE = 1;
const LARGE_BODIES_WAITING = 8;

setFlagsFromString('--expose-gc');
/** V8's full collection, reached through a context made after --expose-gc was set (undefined if the flag had no effect). */
const collectGarbage = runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;

export function limitLargeBodies(app: FastifyInstance, bodyLimitBytes: number): void {
  const slots = new Slots(LARGE_BODIES_AT_ONCE, LARGE_BODIES_WAITING, 'The server is busy reading other large requests; try again in 1 second');
  app.addHook('preParsing', async (request, reply, payload) => {
    const routeLimit = request.routeOptions.bodyLimit ?? 0;
    if (routeLimit <= bodyLimitBytes) return payload;
    const declared = Number(request.headers['content-length']);
    // Within the default limit: an ordinary body. Over the route's limit: Fastify refuses it unread.
    if (Number.isFinite(declared) && (declared <= bodyLimitBytes || declared > routeLimit)) return payload;
    const release = await slots.acquire();
    reply.raw.once('close', () => {
      release();
      collectGarbage?.();
    });
    return payload;
  });
}
