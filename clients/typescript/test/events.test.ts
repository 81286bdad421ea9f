/**
 * `client.events()` against a real `ledger serve`: the SSE stream read as an async iterator, in seq
 * order, resumed after a dropped connection without loss or repeat (a fetch of the test's that
 * cuts the first stream right after its first event), filtered by type, ended by the loop or the
 * signal, and refused for good on a bad key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerClient, LedgerApiError, type LedgerClient, type LedgerEvent } from '../src/index.js';
import { type LedgerUnderTest, startLedger } from './ledger-under-test.js';

let ledger: LedgerUnderTest;
let client: LedgerClient;
let accounts: { cash: string; sales: string; currency: string };

beforeAll(async () => {
  ledger = await startLedger();
  client = createLedgerClient({ baseUrl: ledger.baseUrl, apiKey: ledger.apiKey });
  await client.POST('/api/v1/periods', { body: { name: '2026', start_date: '2026-01-01', end_date: '2026-12-31' } });
  const { data: usd } = await client.POST('/api/v1/currencies', {
    body: { code: 'USD', name: 'US dollar', symbol: '$', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:USD' },
  });
  const open = async (account_number: string, account_type: 'asset' | 'revenue', normal_balance: 'debit' | 'credit') =>
    (await client.POST('/api/v1/accounts', { body: { account_number, name: account_number, currency_id: usd.id, account_type, normal_balance } })).data.id;
  accounts = { cash: await open('1000', 'asset', 'debit'), sales: await open('4000', 'revenue', 'credit'), currency: usd.id };
}, 60_000);

afterAll(async () => { await ledger?.stop(); });

async function post(reference: string): Promise<string> {
  const { data } = await client.POST('/api/v1/journal-entries', {
    body: { entry_date: '2026-03-01', description: `Sale ${reference}`, reference,
      lines: [{ account_id: accounts.cash, debit_amount: 100n }, { account_id: accounts.sales, credit_amount: 100n }] },
  });
  return data.id;
}

async function lastSeq(): Promise<bigint> {
  let last = 0n;
  for await (const event of client.each('/api/v1/events')) last = BigInt(event.seq);
  return last;
}

/** The next `count` events of `stream`; the stream stays open for more. */
async function take(stream: AsyncGenerator<LedgerEvent>, count: number): Promise<LedgerEvent[]> {
  const events: LedgerEvent[] = [];
  while (events.length < count) {
    const next = await stream.next();
    if (next.done === true) throw new Error(`the stream ended after ${events.length} of ${count} events`);
    events.push(next.value);
  }
  return events;
}

const entryIdOf = (event: LedgerEvent) => (event.data as { id: string }).id;

describe('client.events()', () => {
  it('yields the events after a seq in order, then those committed while it is open, until the loop leaves', async () => {
    const after = await lastSeq();
    const before = [await post('ev-1'), await post('ev-2'), await post('ev-3')];
    const stream = client.events({ after });
    const first = await take(stream, 3);
    expect(first.map((event) => [event.seq, event.type, entryIdOf(event)]))
      .toEqual(before.map((id, i) => [String(after + BigInt(i) + 1n), 'entry.posted', id]));
    const later = [await post('ev-4'), await post('ev-5')];
    expect((await take(stream, 2)).map(entryIdOf)).toEqual(later);
    // Leaving the loop closes the connection and ends the generator.
    await stream.return(undefined);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('resumes after a dropped connection from the last event received: nothing lost, nothing twice', async () => {
    const after = await lastSeq();
    const posted = [await post('drop-1'), await post('drop-2'), await post('drop-3'), await post('drop-4')];
    const resumedFrom: (string | null)[] = [];
    // The first stream is cut right after its first event, as a network that breaks mid-stream.
    const cutting = async (request: Request): Promise<Response> => {
      const response = await fetch(request);
      if (!request.url.includes('/events/stream')) return response;
      resumedFrom.push(request.headers.get('last-event-id'));
      return resumedFrom.length === 1 ? cutAfterFirstEvent(response) : response;
    };
    const flaky = createLedgerClient({ baseUrl: ledger.baseUrl, apiKey: ledger.apiKey, fetch: cutting });
    const stream = flaky.events({ after, reconnectDelayMs: 10 });
    const events = await take(stream, 4);
    await stream.return(undefined);
    expect(events.map(entryIdOf)).toEqual(posted);
    expect(events.map((event) => event.seq)).toEqual([1n, 2n, 3n, 4n].map((n) => String(after + n)));
    expect(resumedFrom).toEqual([String(after), String(after + 1n)]);
  });

  it('gives only the types asked for', async () => {
    const after = await lastSeq();
    await post('typed-1');
    const { data: account } = await client.POST('/api/v1/accounts', {
      body: { account_number: '1100', name: 'Bank', currency_id: accounts.currency, account_type: 'asset', normal_balance: 'debit' },
    });
    const stream = client.events({ after, types: ['account.created'] });
    const [event] = await take(stream, 1);
    await stream.return(undefined);
    expect(event).toMatchObject({ type: 'account.created', seq: String(after + 2n) });
    expect((event!.data as { id: string }).id).toBe(account.id);
  });

  it('ends without an error when the signal fires while it waits for the next event', async () => {
    const controller = new AbortController();
    const stream = client.events({ after: await lastSeq(), signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('throws the API error, once, for a key the server refuses', async () => {
    let connections = 0;
    const refused = createLedgerClient({
      baseUrl: ledger.baseUrl, apiKey: 'tsk_not_a_key',
      fetch: (request) => { connections += 1; return fetch(request); },
    });
    const failure = await refused.events().next().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LedgerApiError);
    expect((failure as LedgerApiError).status).toBe(401);
    expect(connections).toBe(1);
  });
});

/** The response with its body ending in an error right after the first event's frame. */
function cutAfterFirstEvent(response: Response): Response {
  const upstream = response.body!.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let text = '';
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await upstream.read();
        if (done) { controller.close(); return; }
        text += decoder.decode(value, { stream: true });
        const frame = /(^|\n)id:[^\n]*\n(?:[^\n]+\n)*\n/.exec(text);
        if (frame === null) continue;
        controller.enqueue(encoder.encode(text.slice(0, frame.index + frame[0].length)));
        await upstream.cancel();
        controller.error(new Error('connection dropped'));
        return;
      }
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
