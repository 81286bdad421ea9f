/**
 * Turns every failure into the JSON error body of the contract: rule violations from the core,
 * schema validation failures, body parsing problems, unknown routes and bugs (logged with the
 * request id, never described to the client).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorCode, LedgerError } from '../../domain/errors.js';
import { type SchemaIssue, issueToError } from '../../schemas/validate.js';
import { HTTP_STATUS } from '../error-table.js';

interface ErrorBody {
  code: ErrorCode;
  message: string;
  field?: string;
  suggestion?: string;
}

export function sendError(reply: FastifyReply, body: ErrorBody): FastifyReply {
  const clean: ErrorBody = { code: body.code, message: body.message };
  if (body.field !== undefined) clean.field = body.field;
  if (body.suggestion !== undefined) clean.suggestion = body.suggestion;
  return reply.code(HTTP_STATUS[body.code]).type('application/json; charset=utf-8').send(clean);
}

/**
 * The most of a refused body the server reads (and throws away) so that its client sees the 413.
 * Fastify closes the connection when it refuses a body; closed with the body's bytes still unread,
 * the socket is reset, and a client still sending gets EPIPE or ECONNRESET instead of the answer
 * (1 in 15 bodies just over 1 MiB did, on loopback). Up to this size the rest of the body is read
 * and dropped, holding no memory, and the connection stays open; a larger or undeclared one is
 * still cut off.
 */
export const OVERSIZED_BODY_DRAIN_BYTES = 16 * 1024 * 1024;

function keepReadingOversizedBody(request: FastifyRequest, reply: FastifyReply): void {
  const declared = Number(request.headers['content-length']);
  if (!Number.isSafeInteger(declared) || declared > OVERSIZED_BODY_DRAIN_BYTES) return;
  reply.removeHeader('connection');
  request.raw.resume();
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError & { validation?: SchemaIssue[]; validationContext?: string }, request: FastifyRequest,
    reply: FastifyReply) => {
    if (error instanceof LedgerError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendError(reply, { code: error.code, message: error.message, field: error.field, suggestion: error.suggestion });
    }
    if (error.validation && error.validation.length > 0) {
      const context = error.validationContext === 'body' ? undefined : error.validationContext;
      const issue = issueToError(error.validation[0]!, context);
      return sendError(reply, { code: issue.code, message: issue.message, field: issue.field, suggestion: issue.suggestion });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(reply, { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be JSON',
          suggestion: 'Send Content-Type: application/json' });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        keepReadingOversizedBody(request, reply);
        return sendError(reply, { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than the server accepts',
          suggestion: 'Split the request into smaller ones' });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, { code: 'VALIDATION_ERROR', message: 'The request body is empty but Content-Type is application/json',
          suggestion: 'Send a JSON object, or leave out the Content-Type header' });
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendError(reply, { code: 'VALIDATION_ERROR', message: 'The request body is not valid JSON',
          suggestion: 'Check the JSON syntax of the body' });
      default:
        break;
    }
    if (error instanceof SyntaxError || (error.statusCode === 400 && error.code === undefined)) {
      return sendError(reply, { code: 'VALIDATION_ERROR', message: 'The request body is not valid JSON',
        suggestion: 'Check the JSON syntax of the body' });
    }
    // The static file server refuses paths it will not serve (`..`, a NUL byte) with a 4xx error of
    // its own; to a client that is a file that does not exist, whatever the reason.
    if (error.statusCode === 403 || error.statusCode === 404) {
      return sendError(reply, { code: 'NOT_FOUND', message: 'No such file',
        suggestion: 'Check the path; the web UI and /docs serve only their own files' });
    }
    // Any other refusal of a malformed request by Fastify or a plugin is the client's error, not a bug.
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, { code: 'VALIDATION_ERROR', message: 'The request is malformed',
        suggestion: 'Check the request line, headers and body against the API reference' });
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return sendError(reply, { code: 'INTERNAL_ERROR', message: `Internal error (request ${request.id})`,
      suggestion: 'Retry later; if it persists, report the request id' });
  });
}
