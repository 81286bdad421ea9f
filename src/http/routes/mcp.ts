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
  const server = createMcpServer({ service, authenticate: async () => actor }, {
    version,
    onUnexpectedError: (error, tool) => request.log.error({ err: error, reqId: request.id, tool }, 'unhandled error in an MCP tool'),
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.raw.setHeader('x-request-id', request.id);
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  reply.hijack();
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
}
