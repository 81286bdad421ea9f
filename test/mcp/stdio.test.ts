/** `ledger mcp`: the real built CLI serves MCP over stdio to the SDK's client. */
import { describe, expect, it } from 'vitest';
import { startApi } from '../helpers/api-fixture.js';
import { connectStdio } from './connect.js';
import { call, describeMcpSession, errorOfCall } from './mcp-scenarios.js';

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
