/**
 * Every answer that is not a success is thrown as a LedgerApiError carrying the API's error body
 * (`{code, message, field?, suggestion?}`, docs/errors.md), the HTTP status and the request id the
 * server gave the request (`X-Request-Id`, also in its logs and audit records).
 */
export class LedgerApiError extends Error {
  override readonly name = 'LedgerApiError';
  readonly status: number;
  /** The stable error code, e.g. `UNBALANCED_ENTRY`; `HTTP_<status>` when the body is not an API error. */
  readonly code: string;
  /** The offending input, e.g. `lines[1].credit_amount`, where there is one. */
  readonly field: string | undefined;
  /** How to fix it, where the server says. */
  readonly suggestion: string | undefined;
  /** The server's `X-Request-Id` for the request, to quote in a support question. */
  readonly requestId: string | undefined;

  constructor(options: { status: number; code: string; message: string; field?: string | undefined; suggestion?: string | undefined; requestId?: string | undefined }) {
    super(options.message);
    this.status = options.status;
    this.code = options.code;
    this.field = options.field;
    this.suggestion = options.suggestion;
    this.requestId = options.requestId;
  }
}

/** The error for a failed answer, from its parsed body (openapi-fetch's `error`: JSON, or text). */
export function apiErrorFrom(response: Response, body: unknown): LedgerApiError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (isErrorBody(body)) {
    return new LedgerApiError({ status: response.status, code: body.code, message: body.message, field: body.field, suggestion: body.suggestion, requestId });
  }
  const text = typeof body === 'string' && body !== '' ? `: ${body.slice(0, 200)}` : '';
  return new LedgerApiError({ status: response.status, code: `HTTP_${response.status}`, message: `HTTP ${response.status}${text}`, requestId });
}

function isErrorBody(body: unknown): body is { code: string; message: string; field?: string; suggestion?: string } {
  return typeof body === 'object' && body !== null
    && typeof (body as { code?: unknown }).code === 'string' && typeof (body as { message?: unknown }).message === 'string';
}
