/** POST /mcp of `ledger serve`: MCP over streamable HTTP, behind the same Bearer credentials as /api/v1. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, startApi } from '../helpers/api-fixture.js';
import { connectHttp } from './connect.js';
import { describeMcpSession } from './mcp-scenarios.js';

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

describe('/mcp answers like the API', () => {
  let api: ApiFixture;
  let lines: Record<string, any>[];
  beforeAll(async () => {
    lines = [];
    api = await startApi({ logLevel: 'info', logStream: { write: (line: string) => { lines.push(JSON.parse(line)); } } });
  });
  afterAll(async () => { await api.close(); });

  const accept = { accept: 'application/json, text/event-stream' };
  const call = (id: number, name: string, args: Record<string, unknown>) =>
    ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

  it('carries the security headers, no-store and the API\'s content security policy', async () => {
    const answer = await api.request('POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { headers: accept });
    expect(answer.status).toBe(200);
    expect(Object.fromEntries(['cache-control', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'content-security-policy']
      .map((name) => [name, answer.headers.get(name)]))).toEqual({
      'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a JSON-RPC batch with 400, running none of its calls', async () => {
    const batch = Array.from({ length: 100 }, (_, index) => call(index + 1, 'list_currencies', {}));
    const answer = await api.request('POST', '/mcp', batch, { headers: accept });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('Batches') } });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('writes the security log\'s access.forbidden event for a tool call refused as FORBIDDEN', async () => {
    const reader = await api.request('POST', '/api/v1/users/service-accounts', { name: 'MCP reader', permissions: {} });
    const { id: readerId, api_key: readerKey } = reader.body.data;
    const answer = await api.request('POST', '/mcp', call(7, 'close_period', { period_id: 'p' }), { token: readerKey, headers: accept });
    expect(answer.status).toBe(200);
    expect(answer.body.result.isError).toBe(true);
    expect(JSON.parse(answer.body.result.content[0].text)).toMatchObject({ code: 'FORBIDDEN' });
    const requestId = answer.headers.get('x-request-id');
    expect(lines.find((line) => line.reqId === requestId && line.security_event !== undefined)).toMatchObject({
      security_event: 'access.forbidden', status: 403, actor_id: readerId, route: '/mcp', tool: 'close_period', level: 40,
    });
  });
});
