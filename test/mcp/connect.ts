/** SDK clients of the ledger's MCP server over each transport, acting with an API key. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN, ROOT, cliEnv } from '../helpers/cli.js';

/** POST /mcp of a running server, with the key as the Bearer credential. */
export async function connectHttp(baseUrl: string, apiKey: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  const client = new Client({ name: 'ledger-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function childEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(cliEnv()).filter((pair): pair is [string, string] => pair[1] !== undefined));
}

/** `ledger mcp` of the built CLI on the database (a SQLite file or a PostgreSQL URL), started by the client. */
export async function connectStdio(location: string, apiKey: string | undefined): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--db', location, ...(apiKey === undefined ? [] : ['--api-key', apiKey])],
    cwd: ROOT, env: childEnv(), stderr: 'inherit',
  });
  const client = new Client({ name: 'ledger-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}
