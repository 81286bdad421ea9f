/**
 * `ledger mcp`: the composition root of the MCP server over stdio, for an agent that runs `ledger`
 * itself. The service is opened as for any command; tool calls act as the user of the API key,
 * which is checked at start-up (an unknown key fails at once) and resolved again on every call.
 * Standard output carries the protocol only: nothing else may be printed there.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { openLedger } from './open-ledger.js';
import { packageVersion } from './package-files.js';

export interface McpStdioOptions {
  database: string;
  apiKey?: string | undefined;
}

export async function serveMcpOverStdio(options: McpStdioOptions): Promise<void> {
  const service = await openLedger(options.database);
  const { apiKey } = options;
  try {
    if (apiKey !== undefined) await service.authenticate(apiKey);
  } catch (error) {
    await service.close();
    throw error;
  }
  const server = createMcpServer({
    service,
    authenticate: async () => (apiKey === undefined ? undefined : service.authenticate(apiKey)),
  }, {
    version: packageVersion(),
    onUnexpectedError: (error, tool) => process.stderr.write(`ledger mcp: unexpected error in ${tool}: ${String(error instanceof Error ? error.stack : error)}\n`),
  });
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  // The client ends the session by closing our standard input.
  process.stdin.once('end', () => void server.close());
  await closed;
  await service.close();
}
