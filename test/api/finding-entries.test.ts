/**
 * Finding entries through GET /api/v1/journal-entries: q (words), reference, min_amount/max_amount
 * (the entry's debit total), entry_type, with every other filter, on a ledger of a few thousand
 * entries; and cursors bound to the filters and order they were made with (journal entries and
 * accounts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, expectError, seedBooks, startApi, walkPages } from '../helpers/api-fixture.js';

const API = '/api/v1';
const ENTRIES = 2000;

describe('finding journal entries', () => {
  let api: ApiFixture;
  let books: Awaited<ReturnType<typeof seedBooks>>;

  const list = async (query: string) => dataOf(await api.request('GET', `${API}/journal-entries?${query}`));
  const descriptions = (entries: { description: string }[]) => entries.map((entry) => entry.description);

  beforeAll(async () => {
    api = await startApi();
    books = await seedBooks(api);
    const entries = Array.from({ length: ENTRIES }, (_, index) => ({
      entry_date: `2026-0${(index % 6) + 1}-${String((index % 28) + 1).padStart(2, '0')}`,
      description: `Invoice ${index} for customer ${index % 50}`,
      reference: `INV-2026-${String(index).padStart(4, '0')}`,
      lines: [
        { account_id: books.cash.id, debit_amount: String(index + 1), description: index % 2 === 0 ? 'Widgets' : 'Gadgets' },
        { account_id: books.sales.id, credit_amount: String(index + 1) },
      ],
    }));
    dataOf(await api.request('POST', `${API}/journal-entries/batch`, { entries }), 201);
    dataOf(await api.request('POST', `${API}/journal-entries`, {
      entry_date: '2026-06-30', description: 'Office rent, Café Müller building', reference: 'LEASE-7',
      lines: [{ account_id: books.rent.id, debit_amount: '250000' }, { account_id: books.cash.id, credit_amount: '250000' }],
    }), 201);
  }, 120_000);
  afterAll(async () => { await api.close(); });

  it('finds one invoice among thousands by its reference, on the first page', async () => {
    const found = await api.request('GET', `${API}/journal-entries?reference=INV-2026-1234`);
    expect(found.status).toBe(200);
    expect(descriptions(found.body.data)).toEqual(['Invoice 1234 for customer 34']);
    expect(found.body.has_more).toBe(false);
    expect(await list('reference=inv-2026-1234')).toEqual([]);
  });

  it('finds entries by words of the description, reference and line descriptions, each word a prefix', async () => {
    expect(descriptions(await list('q=invoice%201234'))).toEqual(['Invoice 1234 for customer 34']);
    expect(descriptions(await list('q=cafe%20MULLER'))).toEqual(['Office rent, Café Müller building']);
    expect(descriptions(await list('q=off%20ren'))).toEqual(['Office rent, Café Müller building']);
    expect(descriptions(await list('q=lease'))).toEqual(['Office rent, Café Müller building']);
    // Every word a prefix: "7" is customer 7 but also invoice 712, reference INV-2026-0712 no ("0712").
    const { rows } = await walkPages(api, `${API}/journal-entries?q=customer%207%20widgets`, { limit: 7 });
    const expected = Array.from({ length: ENTRIES }, (_, index) => index)
      .filter((index) => index % 2 === 0 && (`${index}`.startsWith('7') || `${index % 50}`.startsWith('7')))
      .map((index) => `Invoice ${index} for customer ${index % 50}`);
    expect(descriptions(rows).sort()).toEqual(expected.sort());
    expect(await list('q=widgets%20gadgets')).toEqual([]);
  });

  it('finds an entry by its words as soon as its post has answered, one post at a time or many at once', async () => {
    // The words are written with the group's other rows, before its commit (SQLite: at the
    // group's flush in its one transaction; PostgreSQL: in the group's one multi-row statement),
    // so nothing lags behind the answer: posts sent together, committed as one group, are each
    // searched for the moment their own answer arrives (eight: a user's searches may run two at
    // once with eight more waiting, EXPENSIVE_READS_PER_USER).
    const word = (index: number) => `quokka${String.fromCharCode(97 + index)}${String.fromCharCode(97 + ((index * 7) % 26))}`;
    const posted = await Promise.all(Array.from({ length: 8 }, async (_, index) => {
      const created = dataOf(await api.request('POST', `${API}/journal-entries`, {
        entry_date: '2026-06-15', description: `Sighting ${word(index)}`,
        lines: [{ account_id: books.cash.id, debit_amount: '77777' }, { account_id: books.sales.id, credit_amount: '77777' }],
      }), 201);
      const found = await list(`q=${word(index)}`);
      return [found.map((entry: { id: string }) => entry.id), created.id];
    }));
    for (const [found, id] of posted) expect(found).toEqual([id]);
    const batch = dataOf(await api.request('POST', `${API}/journal-entries/batch`, { entries: [0, 1].map((index) => ({
      entry_date: '2026-06-16', description: `Batch sighting ${word(index)}z`,
      lines: [{ account_id: books.cash.id, debit_amount: '77777' }, { account_id: books.sales.id, credit_amount: '77777' }],
    })) }), 201);
    expect((await list(`q=${word(1)}z`)).map((entry: { id: string }) => entry.id)).toEqual([batch[1].id]);
  });

  it('finds entries whose amount, the sum of their debits, lies within bounds', async () => {
    const between = await list('min_amount=100&max_amount=102&sort=asc');
    expect(descriptions(between).sort()).toEqual(['Invoice 100 for customer 0', 'Invoice 101 for customer 1', 'Invoice 99 for customer 49']);
    expect(descriptions(await list('min_amount=250000'))).toEqual(['Office rent, Café Müller building']);
    expect(descriptions(await list('max_amount=1'))).toEqual(['Invoice 0 for customer 0']);
    expect(await list('min_amount=170141183460469231731687303715884105727')).toEqual([]);
  });

  it('finds entries by type, and combines every filter', async () => {
    const original = (await list('reference=INV-2026-0042'))[0];
    dataOf(await api.request('POST', `${API}/journal-entries/${original.id}/reverse`, { entry_date: '2026-06-15' }), 201);
    expect(descriptions(await list('entry_type=reversal'))).toEqual(['Reversal of: Invoice 42 for customer 42']);
    expect(descriptions(await list(`entry_type=standard&reference=INV-2026-0042&account_id=${books.cash.id}&q=invoice&min_amount=43&max_amount=43&period_id=${books.period.id}`)))
      .toEqual(['Invoice 42 for customer 42']);
    expect(await list(`reference=INV-2026-0042&account_id=${books.rent.id}`)).toEqual([]);
  });

  it.each([
    ['q=', 'q'],
    ['q=%20-%2F-%20', 'q'],
    [`q=${'a'.repeat(201)}`, 'q'],
    ['reference=', 'reference'],
    ['min_amount=-1', 'min_amount'],
    ['min_amount=1.5', 'min_amount'],
    ['max_amount=007', 'max_amount'],
    ['max_amount=170141183460469231731687303715884105728', 'max_amount'],
    ['min_amount=5&max_amount=4', 'max_amount'],
    ['entry_type=opening', 'entry_type'],
  ])('refuses %s as a VALIDATION_ERROR on %s', async (query, field) => {
    expectError(await api.request('GET', `${API}/journal-entries?${query}`), 400, 'VALIDATION_ERROR', field);
  });

  it('binds a journal-entries cursor to its filters and order', async () => {
    const first = (await api.request('GET', `${API}/journal-entries?q=customer%203&limit=5`)).body;
    expect(first.has_more).toBe(true);
    const cursor = encodeURIComponent(first.next_cursor);
    const next = await api.request('GET', `${API}/journal-entries?q=customer%203&limit=5&cursor=${cursor}`);
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(5);
    expect(next.body.data[0].id).not.toBe(first.data[4].id);
    expect(await api.request('GET', `${API}/journal-entries?q=customer%203&limit=20&cursor=${cursor}`).then((r) => r.status)).toBe(200);
    for (const other of ['q=customer%204', '', 'q=customer%203&sort=desc', 'q=customer%203&min_amount=1', 'q=customer%203&reference=INV-2026-0003',
      `q=customer%203&account_id=${books.cash.id}`, 'q=customer%203&entry_type=standard', 'q=customer%203&start_date=2026-01-01']) {
      const refused = await api.request('GET', `${API}/journal-entries?${other}&limit=5&cursor=${cursor}`);
      expectError(refused, 400, 'VALIDATION_ERROR', 'cursor');
      expect(refused.body.message).toMatch(/other filters or another order/);
    }
  });

  it('binds an accounts cursor to its filters', async () => {
    const first = (await api.request('GET', `${API}/accounts?account_type=asset&limit=1`)).body;
    expect(first.has_more).toBe(true);
    const cursor = encodeURIComponent(first.next_cursor);
    expect((await api.request('GET', `${API}/accounts?account_type=asset&limit=1&cursor=${cursor}`)).status).toBe(200);
    expectError(await api.request('GET', `${API}/accounts?limit=1&cursor=${cursor}`), 400, 'VALIDATION_ERROR', 'cursor');
    expectError(await api.request('GET', `${API}/accounts?account_type=revenue&limit=1&cursor=${cursor}`), 400, 'VALIDATION_ERROR', 'cursor');
    expectError(await api.request('GET', `${API}/accounts?account_type=asset&is_active=true&limit=1&cursor=${cursor}`), 400, 'VALIDATION_ERROR', 'cursor');
  });
});
