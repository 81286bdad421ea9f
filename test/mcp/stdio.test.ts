/** `ledger mcp`: the real built CLI serves MCP over stdio to the SDK's client. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { startApi } from '../helpers/api-fixture.js';
import { BIN, ROOT, cliEnv } from '../helpers/cli.js';
import { call, describeMcpSession, errorOfCall } from './mcp-scenarios.js';

function childEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(cliEnv()).filter((pair): pair is [string, string] => pair[1] !== undefined));
}

async function connectStdio(location: string, apiKey: string | undefined): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--db', location, ...(apiKey === undefined ? [] : ['--api-key', apiKey])],
    cwd: ROOT, env: childEnv(), stderr: 'inherit',
  });
  const client = new Client({ name: 'ledger-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describeMcpSession('stdio', (api, apiKey) => connectStdio(api.location, apiKey));

describe('ledger mcp without an API key', () => {
  it('reads as the local operator and refuses writes with UNAUTHORIZED', async () => {
    const api = await startApi();
    const client = await connectStdio(api.location, undefined);
    try {
      expect((await call(client, 'list_periods')).isError).toBeFalsy();
      const error = errorOfCall(await call(client, 'post_journal_entry', {
        entry_date: '2026-03-01', description: 'x', lines: [{ account_number: '1', debit_amount: '1' }, { account_number: '2', credit_amount: '1' }],
      }));
      expect(error.code).toBe('UNAUTHORIZED');
      expect(String(error.suggestion)).toMatch(/--api-key/);
    } finally {
      await client.close();
      await api.close();
    }
  });
});
