/** POST /mcp of `ledger serve`: MCP over streamable HTTP, behind the same Bearer credentials as /api/v1. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, startApi } from '../helpers/api-fixture.js';
import { describeMcpSession } from './mcp-scenarios.js';

async function connectHttp(baseUrl: string, apiKey: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  const client = new Client({ name: 'ledger-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describeMcpSession('streamable HTTP', (api, apiKey) => connectHttp(api.baseUrl, apiKey));

describe('/mcp authentication', () => {
  let api: ApiFixture;
  beforeAll(async () => { api = await startApi(); });
  afterAll(async () => { await api.close(); });

  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };

  it('answers 401 with the API\'s error body without credentials or with an unknown key', async () => {
    const anonymous = await api.request('POST', '/mcp', initialize, { token: null, headers: { accept: 'application/json, text/event-stream' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'UNAUTHORIZED', message: 'Missing Authorization header' });
    const unknown = await api.request('POST', '/mcp', initialize, { token: 'tsk_nope', headers: { accept: 'application/json, text/event-stream' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('UNAUTHORIZED');
    await expect(connectHttp(api.baseUrl, 'tsk_nope')).rejects.toThrow();
  });
});
