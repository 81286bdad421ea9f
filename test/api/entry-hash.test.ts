/**
 * The hash chain can be checked by an outsider: the few lines of Python in docs/api.md, run on the
 * API's JSON, recompute every entry's hash and follow every currency's chain. The test runs the
 * snippet exactly as the docs show it, so the documented canonical form is the one the service uses.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createAccount, createCurrency, dataOf, seedBooks, startApi } from '../helpers/api-fixture.js';

const DOCS = readFileSync(join(import.meta.dirname, '../../docs/api.md'), 'utf8');
const SNIPPET = /<!-- chain-check -->\n```python\n([\s\S]*?)```/.exec(DOCS)?.[1] ?? '';

let api: ApiFixture;
let books: Awaited<ReturnType<typeof seedBooks>>;

function runSnippet(entries: unknown[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('python3', ['-c', SNIPPET], { input: JSON.stringify({ data: entries }), encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function allEntries(): Promise<any[]> {
  const entries: any[] = [];
  let cursor: string | null = null;
  do {
    const body: any = (await api.request('GET', `/api/v1/journal-entries?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).body;
    entries.push(...body.data);
    cursor = body.next_cursor;
  } while (cursor !== null);
  return entries;
}

beforeAll(async () => {
  api = await startApi();
  books = await seedBooks(api);
  const eur = await createCurrency(api, { code: 'EUR', caip19_id: 'swift:0/iso4217:EUR' });
  const till = await createAccount(api, { account_number: '1300', name: 'Euro till', currency_id: eur.id, account_type: 'asset', normal_balance: 'debit' });
  const euroSales = await createAccount(api, { account_number: '4100', name: 'Euro sales', currency_id: eur.id, account_type: 'revenue', normal_balance: 'credit' });
  const post = async (body: object) => dataOf(await api.request('POST', '/api/v1/journal-entries', body), 201);
  const sale = await post({
    entry_date: '2026-03-01', description: 'Facture n° 7 — «café» "quoted" \\ back\nslash', reference: 'INV-7',
    metadata: { customer: { name: 'Zoë', tags: ['a', 'ü'] }, total: 12.5, paid: false, none: null, 10: 'numeric key' },
    lines: [{ account_id: books.cash.id, debit_amount: '1250', description: 'Ünïcödé memo' }, { account_id: books.sales.id, credit_amount: '1250' }],
  });
  // Euro activity in a later period: closing FY2026 needs its income in the retained earnings currency.
  dataOf(await api.request('POST', '/api/v1/periods', { name: 'FY2027', start_date: '2027-01-01', end_date: '2027-12-31' }), 201);
  await post({ entry_date: '2027-02-01', description: 'Euro sale', lines: [{ account_id: till.id, debit_amount: '999' }, { account_id: euroSales.id, credit_amount: '999' }] });
  await post({ entry_date: '2026-01-15', description: 'Rent', lines: [{ account_id: books.rent.id, debit_amount: '80000' }, { account_id: books.cash.id, credit_amount: '80000' }] });
  // An entry posted on or before the lock date keeps its reason, which the hash covers.
  dataOf(await api.request('PATCH', '/api/v1/settings', { lock_date: '2026-01-31' }));
  await post({ entry_date: '2026-01-20', description: 'Late invoice', override_reason: 'invoice found late',
    lines: [{ account_id: books.cash.id, debit_amount: '300' }, { account_id: books.sales.id, credit_amount: '300' }] });
  dataOf(await api.request('POST', `/api/v1/journal-entries/${sale.id}/reverse`, { entry_date: '2026-03-05' }), 201);
  dataOf(await api.request('PATCH', '/api/v1/settings', { retained_earnings_account_id: books.equity.id }));
  dataOf(await api.request('POST', `/api/v1/periods/${books.period.id}/close`));
});

afterAll(async () => {
  await api?.close();
});

describe('the hash chain, checked from outside with the documented snippet', () => {
  it('recomputes every entry\'s hash and follows each currency\'s chain from the API\'s JSON', async () => {
    expect(SNIPPET).toContain('hashlib.sha256');
    const entries = await allEntries();
    expect(entries.length).toBe(6);
    // Posted through an API key in a request: version 2 covers who posted.
    expect(entries.every((entry) => entry.hash_version === 2 && entry.credential_type === 'api_key' && entry.request_id !== null)).toBe(true);
    expect(entries.some((entry) => entry.override_reason !== null)).toBe(true);
    expect(new Set(entries.map((entry) => entry.currency_id)).size).toBe(2);
    expect(runSnippet(entries)).toEqual({ status: 0, stdout: `ok ${entries.length}\n`, stderr: '' });
  });

  it('finds an entry whose content was changed, and a chain with an entry missing', async () => {
    const entries = await allEntries();
    const edited = entries.map((entry, index) => (index === 2 ? { ...entry, description: `${entry.description} (edited)` } : entry));
    expect(runSnippet(edited)).toMatchObject({ status: 1, stderr: `hash mismatch: ${entries[2].id}\n` });
    const amount = entries.map((entry, index) => (index === 1
      ? { ...entry, lines: entry.lines.map((line: any, n: number) => (n === 0 ? { ...line, debit_amount: `${line.debit_amount}0` } : line)) } : entry));
    expect(runSnippet(amount)).toMatchObject({ status: 1, stderr: `hash mismatch: ${entries[1].id}\n` });
    for (const field of ['created_by', 'credential_id', 'request_id', 'override_reason']) {
      const forged = entries.map((entry, index) => (index === 3 ? { ...entry, [field]: 'forged' } : entry));
      expect(runSnippet(forged), field).toMatchObject({ status: 1, stderr: `hash mismatch: ${entries[3].id}\n` });
    }
    const usdChain = entries.filter((entry) => entry.currency_id === books.currency.id);
    const withoutOne = entries.filter((entry) => entry.hash !== usdChain.find((e) => e.previous_hash === '0'.repeat(64))!.hash);
    expect(runSnippet(withoutOne)).toMatchObject({ status: 1, stderr: expect.stringMatching(/^broken chain/) });
  });

  it('answers the same hash when an entry is read again, and a new entry links to the last one of its currency', async () => {
    const entries = await allEntries();
    const heads = new Set(entries.map((entry) => entry.hash));
    for (const entry of entries) heads.delete(entry.previous_hash);
    for (const entry of entries.slice(0, 2)) {
      expect(dataOf(await api.request('GET', `/api/v1/journal-entries/${entry.id}`)).hash).toBe(entry.hash);
    }
    const usdHead = entries.find((entry) => heads.has(entry.hash) && entry.currency_id === books.currency.id)!;
    const next = dataOf(await api.request('POST', '/api/v1/journal-entries', {
      entry_date: '2027-01-01', description: 'next year', lines: [{ account_id: books.cash.id, debit_amount: '1' }, { account_id: books.sales.id, credit_amount: '1' }],
    }), 201);
    expect(next.previous_hash).toBe(usdHead.hash);
    expect(next.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
