/**
 * Requests Fastify refuses before routing (a URL that is not valid percent-encoding, a path
 * parameter over the router's limit) and requests Node's HTTP parser refuses (raw bytes in the
 * URL, a bad chunk size, Content-Length with Transfer-Encoding, headers over 16 KiB) get the
 * contract's JSON error body too, with the security headers, and never echo the URL.
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { LedgerError } from '../../domain/errors.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { HTTP_STATUS } from '../error-table.js';
import { authenticate } from './auth.js';
import { sendError } from './errors.js';
import { pathOf, securityHeadersFor } from './security-headers.js';

/** Paths under /api/v1 answer only authenticated callers, whatever is wrong with them. */
export function needsAuthentication(url: string): boolean {
  const path = pathOf(url);
  return path === '/api/v1' || path.startsWith('/api/v1/');
}

/** Fastify's `frameworkErrors`: refusals made before a route is chosen. */
export function frameworkErrorHandler(service: LedgerService) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.headers(securityHeadersFor(request.url)).header('x-request-id', request.id);
    const answer = async () => {
      if (needsAuthentication(request.url)) await authenticate(service, request);
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return sendError(reply, { code: 'NOT_FOUND', message: 'No resource has an id that long',
          suggestion: 'Check the id in the path; ids are at most 100 characters' });
      }
      return sendError(reply, { code: 'VALIDATION_ERROR', message: 'The URL is not valid: a % must start a percent-encoded UTF-8 byte',
        suggestion: 'Percent-encode the path and query, e.g. with encodeURIComponent' });
    };
    answer().catch((failure: unknown) => {
      if (failure instanceof LedgerError) {
        return sendError(reply, { code: failure.code, message: failure.message, field: failure.field, suggestion: failure.suggestion });
      }
      request.log.error({ err: failure, reqId: request.id }, 'unhandled error');
      return sendError(reply, { code: 'INTERNAL_ERROR', message: `Internal error (request ${request.id})`,
        suggestion: 'Retry later; if it persists, report the request id' });
    });
  };
}

/**
 * Node's `clientError`: the request could not be parsed, so there is no URL to trust and no route.
 * The answer closes the connection, as the rest of the stream cannot be read reliably.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({
    code: 'VALIDATION_ERROR',
    message: tooLarge ? 'The request line and headers are larger than the server accepts (16 KiB)' : 'The request is not valid HTTP/1.1',
    suggestion: tooLarge ? 'Send long input in a JSON body rather than in the URL or headers'
      : 'Send a well-formed request: an ASCII, percent-encoded URL and one of Content-Length or Transfer-Encoding',
  });
  const headers = { ...securityHeadersFor('/api/v1'), 'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)), connection: 'close' };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${HTTP_STATUS.VALIDATION_ERROR} Bad Request\r\n${head}\r\n${body}`);
}
