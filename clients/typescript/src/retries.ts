/**
 * A fetch that tries again when trying again is safe: on a 503 (the server could not act: its
 * database is unreachable or it is shutting down), on a 429 (after the `Retry-After` it asks
 * for), and when the connection failed (refused, reset, closed before the answer). Other answers,
 * 4xx included, are returned as they are.
 *
 * A connection that broke after the request was sent may have been acted on, so a POST is sent
 * again only with an `Idempotency-Key` (the client adds one to every POST): the server then
 * replays its first answer instead of acting twice. Every attempt sends a clone of the same
 * request, so the key, like the body, is the same on each.
 */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4); 1 turns retrying off. */
  maxAttempts?: number;
  /** The first backoff delay (default 200 ms), doubled on each retry, with full jitter. */
  baseDelayMs?: number;
  /** The longest backoff delay (default 5 s). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this (default 60 s) is not waited for: the answer is returned. */
  maxRetryAfterMs?: number;
}

const RETRIED_STATUSES = new Set([429, 503]);

/** Node's codes (on `error.cause`) for a connection that failed or broke before the answer came. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT',
]);

/** One request, no retries: the global fetch. */
export const plainFetch = (request: Request): Promise<Response> => fetch(request);

export function retryingFetch(options: RetryOptions = {}, fetchOnce: (request: Request) => Promise<Response> = plainFetch) {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const baseDelayMs = options.baseDelayMs ?? 200;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const backoffMs = (attempt: number) => Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));

  return async function fetchWithRetries(request: Request): Promise<Response> {
    for (let attempt = 1; ; attempt += 1) {
      const isLast = attempt >= maxAttempts;
      let response: Response;
      try {
        response = await fetchOnce(request.clone());
      } catch (error) {
        if (isLast || !isConnectionError(error) || !maySendAgain(request)) throw error;
        await sleep(backoffMs(attempt));
        continue;
      }
      if (isLast || !RETRIED_STATUSES.has(response.status)) return response;
      const waitMs = retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(attempt);
      if (waitMs > maxRetryAfterMs) return response;
      await response.body?.cancel();
      await sleep(waitMs);
    }
  };
}

/** A POST without an Idempotency-Key might be acted on twice; every other request may be sent again. */
function maySendAgain(request: Request): boolean {
  return request.method !== 'POST' || request.headers.has('idempotency-key');
}

/**
 * Node's fetch rejects with a TypeError whose `cause` has the socket's error code; a browser's with
 * a bare TypeError, which it uses for network failures only.
 */
function isConnectionError(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return error.cause === undefined || (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code));
}

/** `Retry-After` as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const dateMs = Date.parse(header);
  return Number.isNaN(dateMs) ? undefined : Math.max(0, dateMs - nowMs);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
