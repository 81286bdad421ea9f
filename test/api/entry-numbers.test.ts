/**
 * Entry numbers: 1, 2, ... in posting order across the whole ledger, without gaps, although posts
 * arrive at once, some are refused, some batches fail after their first entry was written in the
 * shared transaction, and dry runs are rolled back. Found by search (`#12`, `12`, `entry_number`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, entryBody, expectError, seedBooks, startApi, walkPages } from '../helpers/api-fixture.js';

describe('entry numbers', () => {
  let api: ApiFixture;
  let books: Awaited<ReturnType<typeof seedBooks>>;

  beforeAll(async () => {
    api = await startApi();
    books = await seedBooks(api);
  });
  afterAll(async () => { await api.close(); });

  it('are 1 to n without a gap under 200 concurrent requests, some refused, some batches failing after their first entry, dry runs rolled back', async () => {
    const valid = (index: number) => entryBody(books.cash.id, books.sales.id, String(100 + index), '2026-03-02', `concurrent sale ${index}`);
    const unbalanced = (index: number) => ({ ...valid(index), lines: [
      { account_id: books.cash.id, debit_amount: '100' }, { account_id: books.sales.id, credit_amount: '99' },
    ] });
    const requests = Array.from({ length: 200 }, (_, index) => {
      switch (index % 5) {
        case 0: return api.request('POST', '/api/v1/journal-entries', unbalanced(index));
        // The batch's first entry is written before its second is refused: the batch takes no number.
        case 1: return api.request('POST', '/api/v1/journal-entries/batch', { entries: [valid(index), unbalanced(index)] });
        case 2: return api.request('POST', '/api/v1/journal-entries?dry_run=true', valid(index));
        case 3: return api.request('POST', '/api/v1/journal-entries/batch', { entries: [valid(index), valid(index + 1000)] });
        default: return api.request('POST', '/api/v1/journal-entries', valid(index));
      }
    });
    const answers = await Promise.all(requests);
    const expectedStatus = [400, 400, 200, 201, 201];
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 200 }, (_, index) => expectedStatus[index % 5]));
    const dryRunNumbers = answers.filter((_, index) => index % 5 === 2).map((answer) => answer.body.data.entry.entry_number);
    expect(dryRunNumbers.every((number) => Number.isInteger(number) && number >= 1)).toBe(true);

    const answered = answers.flatMap((answer, index) => {
      if (index % 5 === 3) return answer.body.data.map((entry: { entry_number: number }) => entry.entry_number);
      if (index % 5 === 4) return [answer.body.data.entry_number];
      return [];
    }).sort((a: number, b: number) => a - b);
    expect(answered).toEqual(Array.from({ length: 120 }, (_, index) => index + 1));
    // A batch's entries are numbered one after the other, in the batch's order.
    for (const answer of answers.filter((_, index) => index % 5 === 3)) {
      const [first, second] = answer.body.data;
      expect(second.entry_number).toBe(first.entry_number + 1);
    }

    const stored = (await walkPages(api, "/api/v1/journal-entries")).rows;
    expect(stored.map((entry) => entry.entry_number).sort((a, b) => a - b)).toEqual(answered);
    const verified = dataOf(await api.request('GET', '/api/v1/verify'));
    expect(verified.problems).toEqual([]);
  }, 120_000);

  it('numbers a reversal and shows the number on the entry', async () => {
    const posted = dataOf(await api.request('POST', '/api/v1/journal-entries', entryBody(books.cash.id, books.sales.id, '700', '2026-03-04', 'numbered sale')), 201);
    const reversal = dataOf(await api.request('POST', `/api/v1/journal-entries/${posted.id}/reverse`, {}), 201);
    expect(reversal.entry_number).toBe(posted.entry_number + 1);
    expect(dataOf(await api.request('GET', `/api/v1/journal-entries/${posted.id}`)).entry_number).toBe(posted.entry_number);
  });

  it('are found by search: #N is that entry only, a bare number that entry or words starting with it, entry_number exactly', async () => {
    const numbered = dataOf(await api.request('POST', '/api/v1/journal-entries',
      entryBody(books.cash.id, books.sales.id, '800', '2026-03-05', 'the searched one')), 201);
    const n = numbered.entry_number as number;
    const digitsInWords = dataOf(await api.request('POST', '/api/v1/journal-entries',
      entryBody(books.cash.id, books.sales.id, '900', '2026-03-05', `invoice ${n}77`)), 201);

    const ids = async (query: string) => (await walkPages(api, `/api/v1/journal-entries?${query}`)).rows.map((entry) => entry.id);
    expect(await ids(`q=${encodeURIComponent(`#${n}`)}`)).toEqual([numbered.id]);
    // A bare number: the entry so numbered, and every entry with a word starting with the digits.
    const bare = await walkPages(api, `${'/api/v1/journal-entries'}?q=${n}`);
    expect(bare.rows.map((entry) => entry.id)).toEqual(expect.arrayContaining([numbered.id, digitsInWords.id]));
    for (const entry of bare.rows.filter((row) => row.id !== numbered.id)) {
      expect(entry.description.split(' ').some((word: string) => word.startsWith(String(n)))).toBe(true);
    }
    expect(await ids(`entry_number=${n}`)).toEqual([numbered.id]);
    expect(await ids(`entry_number=${n}&q=${encodeURIComponent('#999999')}`)).toEqual([]);
    expect(await ids('entry_number=999999')).toEqual([]);
    expectError(await api.request('GET', '/api/v1/journal-entries?entry_number=0'), 400, 'VALIDATION_ERROR');
  });
});
