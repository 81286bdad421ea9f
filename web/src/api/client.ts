/**
 * The one place that talks HTTP: adds the bearer token, unwraps JSON, turns error bodies into
 * ApiError, and on a 401 refreshes the session once and retries before giving up.
 */
import { endSession, getSession, refreshSession } from './session.js';
import type { ErrorBodyView } from './types.js';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly suggestion: string | undefined;

  constructor(status: number, body: ErrorBodyView) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.field = body.field;
    this.suggestion = body.suggestion;
  }
}

export type QueryValue = string | number | boolean | undefined | null;

export interface RequestOptions {
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  /** Send no Authorization header and skip the refresh-on-401 dance (the /auth endpoints). */
  anonymous?: boolean;
  signal?: AbortSignal | undefined;
  headers?: Record<string, string> | undefined;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function send(method: string, path: string, options: RequestOptions, accessToken: string | undefined): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  try {
    return await fetch(buildUrl(path, options.query), {
      method, headers, signal: options.signal ?? null,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, { code: 'NETWORK_ERROR', message: 'The server could not be reached. Check your connection and try again.' });
  }
}

async function errorFrom(response: Response): Promise<ApiError> {
  let body: Partial<ErrorBodyView> = {};
  try {
    body = (await response.json()) as Partial<ErrorBodyView>;
  } catch {
    // Not JSON (a proxy error page, say); fall back to the status line.
  }
  return new ApiError(response.status, {
    code: body.code ?? `HTTP_${response.status}`,
    message: body.message ?? `The server answered ${response.status} ${response.statusText}`.trim(),
    ...(body.field !== undefined ? { field: body.field } : {}),
    ...(body.suggestion !== undefined ? { suggestion: body.suggestion } : {}),
  });
}

/** Sends a request and returns the parsed JSON body (the whole envelope). */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return (await requestWithStatus<T>(method, path, options)).body;
}

/** Like `request`, with the answer's status too, for the routes whose status says something (201 created, 200 replaced). */
export async function requestWithStatus<T>(method: string, path: string, options: RequestOptions = {}): Promise<{ status: number; body: T }> {
  let token = options.anonymous ? undefined : getSession()?.accessToken;
  let response = await send(method, path, options, token);
  if (response.status === 401 && !options.anonymous) {
    const refreshed = await refreshSession(token);
    token = getSession()?.accessToken;
    if (refreshed && token) {
      response = await send(method, path, options, token);
    }
    if (response.status === 401) {
      endSession();
    }
  }
  if (!response.ok) throw await errorFrom(response);
  return { status: response.status, body: (await response.json()) as T };
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
