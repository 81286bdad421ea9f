/**
 * The ledger's API client: openapi-fetch over the generated `paths` types, with what a generator
 * cannot know added around it. Each call returns the success body (`{data: ...}`) with its amounts
 * as `bigint`, or throws a LedgerApiError; every POST carries an `Idempotency-Key`, and requests
 * are retried when that is safe (retries.ts).
 */
import createClient, { type Client, type ClientPathsWithMethod, type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import { AMOUNT_FIELDS } from './amount-fields.js';
import { serializeBody, withAmounts } from './amounts.js';
import { apiErrorFrom } from './errors.js';
import { type EventStreamOptions, type LedgerEvent, streamEvents } from './events.js';
import { eachItem } from './pagination.js';
import { plainFetch, retryingFetch, type RetryOptions } from './retries.js';
import type { paths } from './schema.js';

export interface LedgerClientOptions {
  /** Where the server is, e.g. `http://127.0.0.1:3000` (paths start with `/api/v1`). */
  baseUrl: string;
  /** An API key (`tsk_...`) or an access token, sent as `Authorization: Bearer ...`. */
  apiKey?: string;
  retry?: RetryOptions;
  /** Adds a fresh `Idempotency-Key` to every POST that has none (default true). */
  idempotencyKeys?: boolean;
  /** Sends one request (default the global fetch); retries go around it. */
  fetch?: (request: Request) => Promise<Response>;
}

type Method = 'get' | 'post' | 'patch' | 'delete';
type Media = `${string}/${string}`;
type RawClient = Client<paths, Media>;
type PathOf<M extends Method> = ClientPathsWithMethod<RawClient, M>;
type Init<P extends PathOf<M>, M extends Method> = MaybeOptionalInit<paths[P], M>;
/** The second argument is optional when the operation needs no parameters and no body. */
type InitArgs<P extends PathOf<M>, M extends Method, I> = undefined extends Init<P, M> ? [init?: I] : [init: I];
/** Every 2xx body of an operation (openapi-fetch's rule). */
export type SuccessBody<P extends PathOf<M>, M extends Method> = NonNullable<FetchResponse<paths[P][M] & Record<string | number, unknown>, object, Media>['data']>;
type Responses<P extends PathOf<M>, M extends Method> = paths[P][M] extends { responses: infer R } ? R : never;
type JsonAt<R, Status extends number> = R extends { [S in Status]: { content: { 'application/json': infer Body } } } ? Body : never;
type DryRunOf<I> = I extends { params: { query: { dry_run: infer D } } } ? D : undefined;
/**
 * What a call answers. An operation that creates (201) answers its 200 only for a dry run, so the
 * call's own `dry_run` chooses: absent or false, the 201 body; true, the 200 body (the preview).
 */
export type Answer<P extends PathOf<M>, M extends Method, I> = 201 extends keyof Responses<P, M>
  ? DryRunOf<I> extends false | undefined ? JsonAt<Responses<P, M>, 201>
    : DryRunOf<I> extends true ? JsonAt<Responses<P, M>, 200> : JsonAt<Responses<P, M>, 200 | 201>
  : SuccessBody<P, M>;
type Call<M extends Method> = <P extends PathOf<M>, I extends Init<P, M>>(path: P, ...init: InitArgs<P, M, I>) => Promise<Answer<P, M, I>>;

/** The GET paths that answer the list envelope, and their items. */
export type ListPath = { [P in PathOf<'get'>]: SuccessBody<P, 'get'> extends { data: unknown[]; next_cursor: string | null } ? P : never }[PathOf<'get'>];
export type ListItem<P extends ListPath> = SuccessBody<P, 'get'> extends { data: (infer Item)[] } ? Item : never;

const GENERAL_LEDGER = '/api/v1/reports/general-ledger';
/** What the general ledger is asked for, without the cursor its pages are walked by. */
export type GeneralLedgerQuery = Omit<NonNullable<paths[typeof GENERAL_LEDGER]['get']['parameters']['query']>, 'cursor'>;
/** One line of an account's general ledger, its running balance included. */
export type GeneralLedgerLine = SuccessBody<typeof GENERAL_LEDGER, 'get'>['data']['lines'][number];

export interface LedgerClient {
  GET: Call<'get'>;
  POST: Call<'post'>;
  PATCH: Call<'patch'>;
  DELETE: Call<'delete'>;
  /** Every item of a list endpoint, following `next_cursor` page after page. */
  each<P extends ListPath>(path: P, ...init: InitArgs<P, 'get', Init<P, 'get'>>): AsyncGenerator<ListItem<P>, void, undefined>;
  /**
   * Every line of an account's general ledger (GET /api/v1/reports/general-ledger), following the
   * report's `next_cursor` page after page; the running balance goes on across pages. `limit` sets
   * the page size.
   */
  generalLedgerLines(query: GeneralLedgerQuery): AsyncGenerator<GeneralLedgerLine, void, undefined>;
  /**
   * The change feed as it happens (the SSE stream, events.ts): every event once, in seq order,
   * resumed from the last one received after a dropped connection; ends when the loop does or the
   * signal fires.
   */
  events(options?: EventStreamOptions): AsyncGenerator<LedgerEvent, void, undefined>;
  /** The underlying openapi-fetch client (no amount conversion, errors returned, not thrown). */
  raw: RawClient;
}

/** A page's query: the caller's, and the cursor of the page before (none for the first). */
function withCursor<Q extends object>(query: Q | undefined, cursor: string | undefined): Q & { cursor?: string } {
  return { ...query, ...(cursor === undefined ? {} : { cursor }) } as Q & { cursor?: string };
}

/** One key per call: openapi-fetch builds the request once and every retry sends a clone of it. */
const idempotencyKeys: Middleware = {
  onRequest({ request }) {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    }
    return request;
  },
};

export function createLedgerClient(options: LedgerClientOptions): LedgerClient {
  const send = options.fetch ?? plainFetch;
  const headers: Record<string, string> = options.apiKey === undefined ? {} : { Authorization: `Bearer ${options.apiKey}` };
  const raw = createClient<paths, Media>({
    baseUrl: options.baseUrl,
    fetch: retryingFetch(options.retry, send),
    bodySerializer: serializeBody,
    headers,
  });
  if (options.idempotencyKeys !== false) raw.use(idempotencyKeys);

  const call = (method: Method) => async (path: string, init?: Record<string, unknown>): Promise<unknown> => {
    const result = await (raw.request as (method: Method, path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(method, path, init);
    if (!result.response.ok) throw apiErrorFrom(result.response, result.error);
    return withAmounts(result.data, AMOUNT_FIELDS[`${method.toUpperCase()} ${path}`]);
  };
  const get = call('get');

  return {
    GET: get as Call<'get'>,
    POST: call('post') as Call<'post'>,
    PATCH: call('patch') as Call<'patch'>,
    DELETE: call('delete') as Call<'delete'>,
    each: ((path: string, init?: { params?: { query?: Record<string, unknown> } }) => eachItem((cursor) =>
      get(path, { ...init, params: { ...init?.params, query: withCursor(init?.params?.query, cursor) } }) as never)) as LedgerClient['each'],
    // The report keeps its page fields inside `data`, beside the lines.
    generalLedgerLines: (query) => eachItem(async (cursor) => {
      const { data } = await get(GENERAL_LEDGER, { params: { query: withCursor(query, cursor) } }) as
        SuccessBody<typeof GENERAL_LEDGER, 'get'>;
      return { data: data.lines, has_more: data.has_more, next_cursor: data.next_cursor };
    }),
    events: (streamOptions) => streamEvents({ baseUrl: options.baseUrl, fetch: send, headers }, streamOptions),
    raw,
  };
}
