/**
 * The client against a real `ledger serve`: exact bigint amounts, pagination, typed errors, and
 * retries through fronts that break connections or refuse requests (unreliable-fronts.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, LedgerApiError, type LedgerClient } from '../src/index.js';
import { type LedgerUnderTest, startLedger } from './ledger-under-test.js';
import { startDroppingProxy, startRefusingFront } from './unreliable-fronts.js';

const MAX_AMOUNT = 2n ** 127n - 1n; // 170141183460469231731687303715884105727
const ENTRIES = '/api/v1/journal-entries';
const FAST_RETRIES = { baseDelayMs: 10, maxDelayMs: 50 };

let ledger: LedgerUnderTest;
let client: LedgerClient;
/** Accounts in a crypto currency of scale 0, for the largest amounts. */
let big: { cash: string; sales: string };
/** Accounts in a fiat currency of scale 2, for everything else. */
let eur: { cash: string; sales: string };

beforeAll(async () => {
  ledger = await startLedger();
  client = createLedgerClient({ baseUrl: ledger.baseUrl, apiKey: ledger.apiKey, retry: FAST_RETRIES });
  await client.POST('/api/v1/periods', { body: { name: '2026', start_date: '2026-01-01', end_date: '2026-12-31' } });
  big = await books({ code: 'BIG', name: 'Big coin', symbol: 'B', asset_scale: 0, asset_type: 'crypto', caip19_id: 'test:0/token:BIG' }, '1');
  eur = await books({ code: 'EUR', name: 'Euro', symbol: '€', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:EUR' }, '2');
}, 60_000);

afterAll(async () => { await ledger?.stop(); });

interface NewCurrency { code: string; name: string; symbol: string; asset_scale: number; asset_type: 'fiat' | 'crypto'; caip19_id: string }

async function books(currency: NewCurrency, prefix: string) {
  const { data: created } = await client.POST('/api/v1/currencies', { body: currency });
  const open = async (number: string, name: string, account_type: 'asset' | 'revenue', normal_balance: 'debit' | 'credit') =>
    (await client.POST('/api/v1/accounts', { body: { account_number: `${prefix}${number}`, name, currency_id: created.id, account_type, normal_balance } })).data.id;
  return { cash: await open('000', 'Cash', 'asset', 'debit'), sales: await open('400', 'Sales', 'revenue', 'credit') };
}

function sale(accounts: { cash: string; sales: string }, amount: bigint, reference: string) {
  return {
    entry_date: '2026-03-01', description: `Sale ${reference}`, reference,
    lines: [{ account_id: accounts.cash, debit_amount: amount }, { account_id: accounts.sales, credit_amount: amount }],
  };
}

async function entriesWithReference(reference: string): Promise<string[]> {
  return (await client.GET(ENTRIES, { params: { query: { reference } } })).data.map((entry) => entry.id);
}

describe('amounts', () => {
  it('posts 2^127 - 1 as a bigint and reads it back exactly from the entry, the balance and the trial balance', async () => {
    const { data: entry } = await client.POST(ENTRIES, { body: sale(big, MAX_AMOUNT, 'max') });
    expect(entry.lines.map((line) => [line.debit_amount, line.credit_amount])).toEqual([[MAX_AMOUNT, 0n], [0n, MAX_AMOUNT]]);

    const { data: fetched } = await client.GET(`${ENTRIES}/{id}`, { params: { path: { id: entry.id } } });
    expect(fetched.lines[0]!.debit_amount).toBe(MAX_AMOUNT);
    expect(fetched.lines[0]!.display_debit).toBe('170141183460469231731687303715884105727');

    const { data: balance } = await client.GET('/api/v1/accounts/{id}/balance', { params: { path: { id: big.cash } } });
    expect(balance).toMatchObject({ total_debits: MAX_AMOUNT, total_credits: 0n, net_balance: MAX_AMOUNT });

    const { data: trial } = await client.GET('/api/v1/reports/trial-balance', { params: { query: { currency_id: entry.currency_id } } });
    expect(trial.totals).toEqual([expect.objectContaining({ debit_total: MAX_AMOUNT, credit_total: MAX_AMOUNT, is_balanced: true })]);
  });

  it('sends a bigint query parameter as its decimal string', async () => {
    await client.POST(ENTRIES, { body: sale(eur, 12_345n, 'query-amount') });
    const { data } = await client.GET(ENTRIES, { params: { query: { reference: 'query-amount', min_amount: 12_345n, max_amount: 12_345n } } });
    expect(data.map((entry) => entry.lines[0]!.debit_amount)).toEqual([12_345n]);
  });

  it('leaves values that the API does not declare as amounts as they came', async () => {
    const { data: entry } = await client.POST(ENTRIES, { body: { ...sale(eur, 500n, 'metadata'), metadata: { amount: '500', count: 3 } } });
    expect(entry.metadata).toEqual({ amount: '500', count: 3 });
    expect(typeof entry.entry_number).toBe('number');
    expect(entry.lines[0]!.display_debit).toBe('5.00');
  });

  it('previews an entry with dry_run and types the preview as such', async () => {
    const { data: preview } = await client.POST(ENTRIES, { params: { query: { dry_run: true } }, body: sale(eur, 250n, 'preview') });
    expect(preview.dry_run).toBe(true);
    expect(preview.entry.lines[0]!.debit_amount).toBe(250n);
    expect(preview.balances.map((change) => typeof change.after.net_balance)).toEqual(['bigint', 'bigint']);
    expect(await entriesWithReference('preview')).toEqual([]);
  });
});

describe('pagination', () => {
  it('walks every item of a list endpoint across several pages', async () => {
    const posted: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      posted.push((await client.POST(ENTRIES, { body: sale(eur, BigInt(index + 1), 'pages') })).data.id);
    }
    const walked: { id: string; amount: bigint }[] = [];
    for await (const entry of client.each(ENTRIES, { params: { query: { reference: 'pages', limit: 2 } } })) {
      walked.push({ id: entry.id, amount: entry.lines[0]!.debit_amount });
    }
    expect(walked.map((entry) => entry.id).sort()).toEqual([...posted].sort());
    expect(walked.map((entry) => entry.amount).sort()).toEqual([1n, 2n, 3n, 4n, 5n]);
  });
});

describe('general ledger pages', () => {
  it('walks an account\'s general ledger across pages: the same lines and running balances as one page holds', async () => {
    const { cash, sales } = await books({ code: 'GLP', name: 'Pages coin', symbol: 'P', asset_scale: 0, asset_type: 'crypto', caip19_id: 'test:0/token:GLP' }, '3');
    for (let index = 0; index < 5; index += 1) await client.POST(ENTRIES, { body: sale({ cash, sales }, BigInt(index + 1), 'gl-pages') });
    const walked = [];
    for await (const line of client.generalLedgerLines({ account_id: cash, limit: 2 })) walked.push(line);
    const { data: whole } = await client.GET('/api/v1/reports/general-ledger', { params: { query: { account_id: cash, limit: 100 } } });
    expect(whole.has_more).toBe(false);
    expect(walked).toEqual(whole.lines);
    expect(walked.map((line) => line.running_balance)).toEqual([1n, 3n, 6n, 10n, 15n]);
  });
});

describe('errors', () => {
  it('throws a LedgerApiError with the code, field, suggestion and request id of an unbalanced entry', async () => {
    const body = { entry_date: '2026-03-01', description: 'unbalanced', lines: [{ account_id: eur.cash, debit_amount: 9240n }, { account_id: eur.sales, credit_amount: 9204n }] };
    const error = await client.POST(ENTRIES, { body }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LedgerApiError);
    expect(error).toMatchObject({
      status: 400, code: 'UNBALANCED_ENTRY', field: 'lines', message: 'Debits 92.40 EUR differ from credits 92.04 EUR',
      suggestion: expect.stringContaining('0.36 EUR'), requestId: expect.stringMatching(/\S/),
    });
  });

  it('throws NOT_FOUND for an unknown id', async () => {
    await expect(client.GET(`${ENTRIES}/{id}`, { params: { path: { id: 'no-such-entry' } } }))
      .rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('retries and idempotency', () => {
  it('posts once when the connection breaks after the server acted: the retry replays it with the same Idempotency-Key', async () => {
    const proxy = await startDroppingProxy(ledger.baseUrl);
    try {
      const flaky = createLedgerClient({ baseUrl: proxy.baseUrl, apiKey: ledger.apiKey, retry: FAST_RETRIES });
      const { data: entry } = await flaky.POST(ENTRIES, { body: sale(eur, 700n, 'dropped') });
      expect(proxy.count()).toBe(2);
      expect(await entriesWithReference('dropped')).toEqual([entry.id]);
    } finally {
      await proxy.close();
    }
  });

  it('retries a 503 and then a 429 after its Retry-After, with one Idempotency-Key, and posts once', async () => {
    const front = await startRefusingFront(ledger.baseUrl, [{ status: 503 }, { status: 429, retryAfter: '1' }]);
    try {
      const flaky = createLedgerClient({ baseUrl: front.baseUrl, apiKey: ledger.apiKey, retry: FAST_RETRIES });
      const startedMs = Date.now();
      const { data: entry } = await flaky.POST(ENTRIES, { body: sale(eur, 800n, 'refused') });
      expect(Date.now() - startedMs).toBeGreaterThanOrEqual(950);
      expect(front.idempotencyKeys).toHaveLength(3);
      expect(new Set(front.idempotencyKeys)).toEqual(new Set([expect.stringMatching(/^[0-9a-f-]{36}$/)]));
      expect(await entriesWithReference('refused')).toEqual([entry.id]);
    } finally {
      await front.close();
    }
  });

  it('gives a fresh Idempotency-Key to each call', async () => {
    const front = await startRefusingFront(ledger.baseUrl, []);
    try {
      const through = createLedgerClient({ baseUrl: front.baseUrl, apiKey: ledger.apiKey });
      await through.POST(ENTRIES, { body: sale(eur, 900n, 'two-calls') });
      await through.POST(ENTRIES, { body: sale(eur, 900n, 'two-calls') });
      expect(new Set(front.idempotencyKeys).size).toBe(2);
      expect(await entriesWithReference('two-calls')).toHaveLength(2);
    } finally {
      await front.close();
    }
  });

  it('gives up after its attempts and throws the last 503', async () => {
    const front = await startRefusingFront(ledger.baseUrl, Array.from({ length: 5 }, () => ({ status: 503 })));
    try {
      const flaky = createLedgerClient({ baseUrl: front.baseUrl, apiKey: ledger.apiKey, retry: { ...FAST_RETRIES, maxAttempts: 3 } });
      await expect(flaky.GET('/api/v1/accounts')).rejects.toMatchObject({ status: 503, code: 'UNAVAILABLE', requestId: 'front-2' });
      expect(front.count()).toBe(3);
    } finally {
      await front.close();
    }
  });

  it('does not retry another 4xx', async () => {
    const front = await startRefusingFront(ledger.baseUrl, [{ status: 409, code: 'IDEMPOTENCY_CONFLICT' }]);
    try {
      const flaky = createLedgerClient({ baseUrl: front.baseUrl, apiKey: ledger.apiKey, retry: FAST_RETRIES });
      await expect(flaky.POST(ENTRIES, { body: sale(eur, 1n, 'conflict') })).rejects.toMatchObject({ status: 409, code: 'IDEMPOTENCY_CONFLICT' });
      expect(front.count()).toBe(1);
    } finally {
      await front.close();
    }
  });
});
