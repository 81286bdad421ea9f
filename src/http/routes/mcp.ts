/**
 * POST /mcp: the Model Context Protocol over streamable HTTP, for agents that reach `ledger serve`.
 * It authenticates exactly as /api/v1 (a Bearer API key or access token, 401 without one) before
 * the body is read, and each request gets a server of its own over the caller's credential
 * (stateless: no session is kept between requests, so any server process can answer).
 * GET and DELETE /mcp open and end sessions in the stateful protocol; this server keeps none, so
 * they answer 405 as the protocol asks.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createMcpServer } from '../../mcp/create-mcp-server.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { authenticate } from '../plugins/auth.js';
import { logForbidden } from '../plugins/security-log.js';

export const MCP_PATH = '/mcp';

export interface McpRouteOptions {
  service: LedgerService;
  /** A tool call may carry a whole batch: /mcp takes the batch route's body limit. */
  bodyLimitBytes: number;
  /** The server's version, announced to MCP clients. */
  version: string;
}

export async function mcpRoutes(app: FastifyInstance, { service, bodyLimitBytes, version }: McpRouteOptions): Promise<void> {
  app.post(MCP_PATH, {
    bodyLimit: bodyLimitBytes, schema: { hide: true },
    onRequest: async (request) => { await authenticate(service, request); },
  }, async (request, reply) => handle(service, version, request, reply));

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method, url: MCP_PATH, schema: { hide: true },
      onRequest: async (request) => { await authenticate(service, request); },
      handler: async (_request, reply) => reply.code(405).header('allow', 'POST')
        .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, send POST' }, id: null }),
    });
  }
}

async function handle(service: LedgerService, version: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const actor = request.actor!;
  // JSON-RPC batches left the protocol (2025-06-18); one body of a hundred report calls held the
  // server for a minute and more. A body is one message.
  if (Array.isArray(request.body)) {
    return reply.code(400).send({ jsonrpc: '2.0', id: null, error: { code: -32600,
      message: 'Batches are not supported: send one JSON-RPC message per request' } });
  }
  const server = createMcpServer({ service, authenticate: async () => actor }, {
    version,
    onUnexpectedError: (error, tool) => request.log.error({ err: error, reqId: request.id, tool }, 'unhandled error in an MCP tool'),
    onForbidden: (_error, tool) => logForbidden(request, tool),
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // The transport writes the answer itself: the headers every answer carries (security headers,
  // no-store, the request id) go onto the raw response before Fastify lets go of it.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  reply.hijack();
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
}
