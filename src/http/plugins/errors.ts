/**
 * Turns every failure into the JSON error body of the contract: rule violations from the core,
 * schema validation failures, body parsing problems, unknown routes and bugs (logged with the
 * request id, never described to the client).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorCode, LedgerError } from '../../domain/errors.js';
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

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/lines/1/credit_amount` in part `body` becomes `lines[1].credit_amount`. */
function fieldOf(issue: AjvIssue, part: string | undefined): string | undefined {
  const segments = issue.instancePath.split('/').filter(Boolean);
  const extra = (issue.params.missingProperty ?? issue.params.additionalProperty) as string | undefined;
  if (extra !== undefined) segments.push(extra);
  const path = segments.reduce((acc, segment) => (/^\d+$/.test(segment) ? `${acc}[${segment}]` : acc ? `${acc}.${segment}` : segment), '');
  return path || (part === 'body' ? undefined : part);
}

function describe(issue: AjvIssue, field: string | undefined): { message: string; suggestion?: string } {
  const name = field ?? 'request body';
  switch (issue.keyword) {
    case 'required':
      return { message: `${name} is required` };
    case 'additionalProperties':
      return { message: `${name} is not an accepted field here`, suggestion: 'Remove it; see the API reference for the fields this endpoint takes or may change' };
    case 'pattern':
      if (/amount$/.test(name)) {
        return { message: `${name} must be a non-negative integer string in the smallest currency unit`,
          suggestion: 'Send e.g. "25000" for 250.00; no sign, decimal point, exponent or leading zeros' };
      }
      if (/date$/.test(name)) return { message: `${name} must be a date in the form YYYY-MM-DD` };
      return { message: `${name} has an invalid format` };
    case 'type':
      if (/amount$/.test(name)) {
        return { message: `${name} must be a string, not a JSON number`,
          suggestion: 'Send amounts as strings in the smallest currency unit, e.g. "25000" for 250.00' };
      }
      return { message: `${name} must be of type ${String(issue.params.type)}` };
    case 'minProperties':
      return { message: 'The request body must change at least one field' };
    default:
      return { message: `${name} ${issue.message ?? 'is invalid'}` };
  }
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { validation?: AjvIssue[]; validationContext?: string }, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof LedgerError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendError(reply, { code: error.code, message: error.message, field: error.field, suggestion: error.suggestion });
    }
    if (error.validation && error.validation.length > 0) {
      const issue = error.validation[0]!;
      const field = fieldOf(issue, error.validationContext);
      return sendError(reply, { code: 'VALIDATION_ERROR', ...describe(issue, field), ...(field ? { field } : {}) });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(reply, { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be JSON',
          suggestion: 'Send Content-Type: application/json' });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
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
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return sendError(reply, { code: 'INTERNAL_ERROR', message: `Internal error (request ${request.id})`,
      suggestion: 'Retry later; if it persists, report the request id' });
  });
}
