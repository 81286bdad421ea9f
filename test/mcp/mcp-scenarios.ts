/**
 * What an agent does through the ledger's MCP server, run against each transport (stdio and
 * streamable HTTP) by the test files beside this one. The books are made through the HTTP API of a
 * real server on a temp database; every assertion on an error compares it with the API's own
 * error body for the same request.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, newApiKey, seedBooks, startApi } from '../helpers/api-fixture.js';
import { ROOT } from '../helpers/cli.js';

export const TOOL_NAMES = [
  'list_currencies', 'list_accounts', 'get_account', 'list_periods', 'list_journal_entries', 'get_journal_entry',
  'post_journal_entry', 'post_journal_entries', 'reverse_journal_entry', 'close_period', 'trial_balance', 'balance_sheet',
  'income_statement', 'general_ledger', 'aged_balances', 'verify',
  'list_bank_lines', 'get_bank_line_candidates', 'post_bank_line', 'accept_bank_lines', 'match_bank_line', 'exclude_bank_line', 'unmatch_bank_line',
  'list_bank_statements', 'list_bank_rules', 'start_reconciliation', 'get_reconciliation', 'clear_reconciliation_lines', 'finish_reconciliation',
  'set_exchange_rate', 'list_exchange_rates', 'list_events',
];

/** Connects an MCP client of the SDK to the ledger of `api`, acting with `apiKey`. */
export type Connect = (api: ApiFixture, apiKey: string) => Promise<Client>;

type Books = Awaited<ReturnType<typeof seedBooks>>;

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return await client.callTool({ name, arguments: args }) as CallToolResult;
}

/** The data of a successful call's structured content (the API's envelope). */
export function dataOfCall<T = any>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  expect(result.content[0]?.type).toBe('text');
  return (result.structuredContent as { data: T }).data;
}

/** The error body carried by a failed call's text. */
export function errorOfCall(result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('a tool error carries text');
  return JSON.parse(first.text) as Record<string, unknown>;
}

export function describeMcpSession(transportName: string, connect: Connect): void {
  describe(`an agent over MCP (${transportName})`, () => {
    let api: ApiFixture;
    let books: Books;
    let agentKey: string;
    let client: Client;

    beforeAll(async () => {
      api = await startApi();
      books = await seedBooks(api);
      dataOf(await api.request('PATCH', '/api/v1/settings', { retained_earnings_account_id: books.equity.id }));
      agentKey = await newApiKey(api, { 'journals:create': true, 'journals:reverse': true, 'periods:close': true });
      client = await connect(api, agentKey);
    });
    afterAll(async () => {
      await client?.close();
      await api?.close();
    });

    const sale = (amount: string, extra: Record<string, unknown> = {}) => ({
      entry_date: '2026-03-01', description: 'Cash sale',
      lines: [{ account_number: '1000', debit_amount: amount }, { account_number: '4000', credit_amount: amount }], ...extra,
    });
    const entryCount = async () => (await api.request('GET', '/api/v1/journal-entries?limit=200')).body.data.length as number;

    it('announces the ledger package\'s name and version (package.json)', () => {
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
      expect(client.getServerVersion()).toMatchObject({ name: 'ledger', version: pkg.version });
    });

    it('lists every tool, each with the JSON Schema of its arguments and a description', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
      const post = tools.find((tool) => tool.name === 'post_journal_entry')!;
      expect(post.description).toMatch(/minor units/);
      const lines = post.inputSchema.properties!.lines as { items: { properties: Record<string, unknown> } };
      expect(Object.keys(lines.items.properties).sort())
        .toEqual(['account_id', 'account_number', 'credit_amount', 'debit_amount', 'description']);
      expect(post.inputSchema.properties).toHaveProperty('dry_run');
      expect(post.inputSchema.properties).toHaveProperty('idempotency_key');
    });

    it('posts an entry whose lines name accounts by number, records the key in the audit trail, and shows it in the trial balance', async () => {
      const entry = dataOfCall(await call(client, 'post_journal_entry', sale('25000', { description: 'Sale by number' })));
      expect(entry.lines.map((line: any) => [line.account_id, line.debit_amount, line.credit_amount]))
        .toEqual([[books.cash.id, '25000', '0'], [books.sales.id, '0', '25000']]);
      expect(dataOf(await api.request('GET', `/api/v1/journal-entries/${entry.id}`))).toEqual(entry);

      const audit = dataOf(await api.request('GET', `/api/v1/audit-log?target_id=${entry.id}`));
      const agent = await api.service.authenticate(agentKey);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'journal_entry.create', actor_id: agent.user_id, credential_type: 'api_key',
        credential_id: agent.credential!.id });

      const report = dataOfCall(await call(client, 'trial_balance', { currency_id: books.currency.id }));
      expect(report).toEqual(dataOf(await api.request('GET', `/api/v1/reports/trial-balance?currency_id=${books.currency.id}`)));
      const cash = report.rows.find((row: any) => row.account_id === books.cash.id);
      expect(BigInt(cash.debit_total)).toBeGreaterThanOrEqual(25000n);
    });

    it('dry-runs an entry: answers what would be posted and changes nothing', async () => {
      const before = { count: await entryCount(), cash: dataOf(await api.request('GET', `/api/v1/accounts/${books.cash.id}/balance`)) };
      const result = dataOfCall(await call(client, 'post_journal_entry', sale('700', { dry_run: true })));
      expect(result.dry_run).toBe(true);
      expect(result.entry.lines[0]).toMatchObject({ account_id: books.cash.id, debit_amount: '700' });
      const cashChange = result.balances.find((change: any) => change.account_id === books.cash.id);
      expect(BigInt(cashChange.after.net_balance) - BigInt(cashChange.before.net_balance)).toBe(700n);
      expect(await entryCount()).toBe(before.count);
      expect(dataOf(await api.request('GET', `/api/v1/accounts/${books.cash.id}/balance`))).toEqual(before.cash);
    });

    it('refuses a key without journals:create with the API\'s FORBIDDEN error', async () => {
      const readOnlyKey = await newApiKey(api, { 'accounts:write': true });
      const readOnly = await connect(api, readOnlyKey);
      try {
        const count = await entryCount();
        const error = errorOfCall(await call(readOnly, 'post_journal_entry', sale('100')));
        const overHttp = await api.request('POST', '/api/v1/journal-entries', sale('100'), { token: readOnlyKey });
        expect(overHttp.status).toBe(403);
        expect(error).toEqual(overHttp.body);
        expect(error.code).toBe('FORBIDDEN');
        expect(await entryCount()).toBe(count);
      } finally {
        await readOnly.close();
      }
    });

    it('refuses an unbalanced entry with the API\'s UNBALANCED_ENTRY error', async () => {
      const unbalanced = { entry_date: '2026-03-01', description: 'Unbalanced',
        lines: [{ account_id: books.cash.id, debit_amount: '1000' }, { account_id: books.sales.id, credit_amount: '999' }] };
      const error = errorOfCall(await call(client, 'post_journal_entry', unbalanced));
      const overHttp = await api.request('POST', '/api/v1/journal-entries', unbalanced, { token: agentKey });
      expect(error.code).toBe('UNBALANCED_ENTRY');
      expect(error).toEqual(overHttp.body);
      expect(Object.keys(error)).toEqual(expect.arrayContaining(['code', 'message', 'suggestion']));
    });

    it('replays a post with the same idempotency key without posting it twice', async () => {
      const count = await entryCount();
      const args = sale('4200', { description: 'Invoice 17', idempotency_key: `invoice-17-${transportName}` });
      const first = dataOfCall(await call(client, 'post_journal_entry', args));
      const again = dataOfCall(await call(client, 'post_journal_entry', args));
      expect(again).toEqual(first);
      expect(await entryCount()).toBe(count + 1);
      const conflict = errorOfCall(await call(client, 'post_journal_entry', { ...args, description: 'Another invoice' }));
      expect(conflict.code).toBe('IDEMPOTENCY_CONFLICT');
    });

    it('reads the chart of accounts and the open periods as resources', async () => {
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri).sort()).toEqual(['ledger://accounts', 'ledger://periods/open']);
      const chart = await client.readResource({ uri: 'ledger://accounts' });
      const accounts = JSON.parse((chart.contents[0] as { text: string }).text).data as Array<{ account_number: string }>;
      expect(accounts.map((account) => account.account_number)).toEqual(['1000', '1200', '3000', '4000', '6000']);
      const periods = await client.readResource({ uri: 'ledger://periods/open' });
      expect(JSON.parse((periods.contents[0] as { text: string }).text).data.map((period: any) => period.id)).toEqual([books.period.id]);
    });

    it('offers a month-end close prompt that uses only the server\'s tools', async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(['month_end_close']);
      const prompt = await client.getPrompt({ name: 'month_end_close', arguments: { period_id: books.period.id } });
      const text = (prompt.messages[0]!.content as { text: string }).text;
      const named = [...text.matchAll(/\b([a-z]+(?:_[a-z]+)+|verify)\b/g)].map((match) => match[1]!)
        .filter((word) => TOOL_NAMES.includes(word) || /^(list|get|post|close|reverse)_/.test(word));
      expect(new Set(named)).toEqual(new Set(['list_periods', 'verify', 'trial_balance', 'income_statement', 'close_period']));
      const preview = dataOfCall(await call(client, 'close_period', { id: books.period.id, preview: true }));
      expect(preview.preview).toBe(true);
      expect(dataOf(await api.request('GET', `/api/v1/periods/${books.period.id}`)).status).toBe('open');
    });

    // Last, because it adds a customer account to the chart the resources test reads.
    it('reads aged balances as the API answers them, and is refused a non-control account as the API is', async () => {
      const customer = dataOf(await api.request('POST', '/api/v1/accounts', {
        account_number: '1200-01', name: 'Agent customer', parent_id: books.receivables.id, entity_id: 'agent-customer',
      }), 201);
      dataOf(await api.request('POST', '/api/v1/journal-entries', {
        entry_date: '2026-02-01', description: 'Invoice',
        lines: [{ account_id: customer.id, debit_amount: '4200' }, { account_id: books.sales.id, credit_amount: '4200' }],
      }), 201);
      const query = `account_id=${books.receivables.id}&as_of_date=2026-03-15`;
      const aged = dataOfCall(await call(client, 'aged_balances', { account_id: books.receivables.id, as_of_date: '2026-03-15' }));
      expect(aged).toEqual(dataOf(await api.request('GET', `/api/v1/reports/aged-balances?${query}`)));
      // Due 30 days after 1 February (the default terms): 12 days past due on 15 March.
      expect(aged.rows.map((row: any) => [row.account_id, row.days_1_30])).toEqual([[customer.id, '4200']]);
      const onReceipt = dataOfCall(await call(client, 'aged_balances', { account_id: books.receivables.id, as_of_date: '2026-03-15', terms_days: 0 }));
      expect(onReceipt).toEqual(dataOf(await api.request('GET', `/api/v1/reports/aged-balances?${query}&terms_days=0`)));
      expect(onReceipt.rows.map((row: any) => [row.account_id, row.days_31_60])).toEqual([[customer.id, '4200']]);
      const refused = errorOfCall(await call(client, 'aged_balances', { account_id: books.cash.id }));
      expect(refused).toEqual((await api.request('GET', `/api/v1/reports/aged-balances?account_id=${books.cash.id}`)).body);
    });

    it('sets exchange rates by currency code with rates:write, lists them as the API does, and is refused as the API refuses', async () => {
      const eur = dataOf(await api.request('POST', '/api/v1/currencies', {
        code: 'EUR', name: 'Euro', symbol: '€', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:EUR',
      }), 201);
      const setterKey = await newApiKey(api, { 'rates:write': true });
      const setter = await connect(api, setterKey);
      try {
        const set = dataOfCall(await call(setter, 'set_exchange_rate', { currency_code: 'eur', rate_date: '2026-01-15', rate: '1.08420' }));
        expect(set).toMatchObject({ currency_id: eur.id, currency_code: 'EUR', rate_date: '2026-01-15', rate: '1.0842' });
        const replaced = await call(setter, 'set_exchange_rate', { currency_id: eur.id, rate_date: '2026-01-15', rate: '1.09' });
        expect(dataOfCall(replaced)).toMatchObject({ id: set.id, rate: '1.09' });
        expect(replaced.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Replaced the rate of EUR/) });
        const listed = await call(client, 'list_exchange_rates', { currency_code: 'EUR' });
        expect(listed.structuredContent).toEqual((await api.request('GET', `/api/v1/exchange-rates?currency_id=${eur.id}`)).body);
        // A float, and a caller without rates:write: the API's own errors, and nothing stored.
        const float = errorOfCall(await call(setter, 'set_exchange_rate', { currency_id: eur.id, rate_date: '2026-01-16', rate: 1.1 }));
        expect(float).toEqual((await api.request('POST', '/api/v1/exchange-rates', { currency_id: eur.id, rate_date: '2026-01-16', rate: 1.1 },
          { token: setterKey })).body);
        const forbidden = errorOfCall(await call(client, 'set_exchange_rate', { currency_id: eur.id, rate_date: '2026-01-16', rate: '1.1' }));
        expect(forbidden).toEqual((await api.request('POST', '/api/v1/exchange-rates', { currency_id: eur.id, rate_date: '2026-01-16', rate: '1.1' },
          { token: agentKey })).body);
        expect(forbidden.code).toBe('FORBIDDEN');
        expect(dataOfCall(await call(client, 'list_exchange_rates', {})).map((rate: any) => rate.rate)).toEqual(['1.09']);
      } finally {
        await setter.close();
      }
    });
  });
}
