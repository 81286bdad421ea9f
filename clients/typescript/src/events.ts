/**
 * The change feed as it happens: `GET /api/v1/events/stream` (Server-Sent Events, docs/events.md)
 * read as an async iterator of events, resumed after a dropped connection from the last event
 * received (`Last-Event-ID`), so that a consumer sees every event once, in seq order, however
 * often the connection breaks. The SSE text is parsed by `eventsource-parser`.
 *
 * What ends it: the consumer leaving the loop (`break`, `return`, a throw), the signal, or an
 * answer that waiting will not change (401, 403, 400: a LedgerApiError). What it waits out,
 * reconnecting with a growing delay: a network error, a dropped or ended stream (a server that
 * shut down), and 429, 502, 503 and 504 (honouring `Retry-After`).
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { ListItem } from './client.js';
import { apiErrorFrom } from './errors.js';
import { retryAfterMs } from './retries.js';

/** One event of the feed, as the list endpoint answers it (its `data` as the server sent it). */
export type LedgerEvent = ListItem<'/api/v1/events'>;

export interface EventStreamOptions {
  /** Start after this seq; absent, with the next event committed after the stream opens. */
  after?: string | number | bigint;
  /** Only events of these types (the server filters; seqs then have gaps). */
  types?: readonly string[];
  /** Ends the stream: the loop over it ends without an error. */
  signal?: AbortSignal;
  /** The first wait before reconnecting, in ms (default 500); doubled after each failed try, up to 30 s. */
  reconnectDelayMs?: number;
}

/** What the stream needs of the client: where, who, and how a request is sent. */
export interface StreamTransport {
  baseUrl: string;
  headers: Record<string, string>;
  fetch: (request: Request) => Promise<Response>;
}

const MAX_RECONNECT_DELAY_MS = 30_000;
const WAIT_OUT = new Set([429, 502, 503, 504]);

export async function* streamEvents(transport: StreamTransport, options: EventStreamOptions = {}): AsyncGenerator<LedgerEvent, void, undefined> {
  const { signal } = options;
  const aborted = () => signal?.aborted === true;
  const firstDelay = options.reconnectDelayMs ?? 500;
  let lastId = options.after === undefined ? undefined : String(options.after);
  let delay = firstDelay;
  const url = new URL('/api/v1/events/stream', transport.baseUrl);
  if (options.types !== undefined && options.types.length > 0) url.searchParams.set('types', options.types.join(','));
  while (!aborted()) {
    let response: Response;
    try {
      const headers = new Headers(transport.headers);
      headers.set('accept', 'text/event-stream');
      // The server resumes after it (it wins over `after`); for the first connection it is `after`.
      if (lastId !== undefined) headers.set('last-event-id', lastId);
      response = await transport.fetch(new Request(url, { headers, signal }));
    } catch {
      if (aborted()) return;
      delay = await pause(delay, null, signal);
      continue;
    }
    if (!response.ok || response.body === null) {
      if (!WAIT_OUT.has(response.status)) throw apiErrorFrom(response, await response.json().catch(() => undefined));
      await response.body?.cancel();
      delay = await pause(delay, response.headers.get('retry-after'), signal);
      continue;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const event = JSON.parse(value.data) as LedgerEvent;
        lastId = value.id ?? event.seq;
        delay = firstDelay;
        yield event;
      }
    } catch {
      // A dropped connection (or the signal): resume from the last event received.
      if (aborted()) return;
    } finally {
      // The consumer left the loop, or the stream ended: the connection is given back.
      await reader.cancel().catch(() => {});
    }
    delay = await pause(delay, null, signal);
  }
}

/** Waits `delay` ms (or what `Retry-After` asks for), unless the signal ends it; the next delay. */
async function pause(delay: number, retryAfter: string | null, signal: AbortSignal | undefined): Promise<number> {
  const wait = retryAfterMs(retryAfter) ?? delay;
  await new Promise<void>((resolve) => {
    if (signal?.aborted === true) { resolve(); return; }
    const timer = setTimeout(done, wait);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
  return Math.min(delay * 2, MAX_RECONNECT_DELAY_MS);
}
