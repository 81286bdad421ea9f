/**
 * Walking every list to the end: each row exactly once, in the documented order, also while
 * rows are written between page fetches. Each list gets a ledger of its own so that the
 * expected rows are known exactly.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ApiFixture, createAccount, createCurrency, createPeriod, postEntry, startApi, walkPages,
} from '../helpers/api-fixture.js';

/** 0..n-1 in a fixed scrambled order, so that creation order differs from list order. */
function scrambled(n: number): number[] {
  return Array.from({ length: n }, (_, i) => (i * 7) % n);
}

const pad = (n: number) => String(n).padStart(3, '0');
const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

function expectNoDuplicates(rows: { id: string }[]): void {
  expect(new Set(ids(rows)).size).toBe(rows.length);
}

describe('pagination', () => {
  let api: ApiFixture;
  beforeEach(async () => { api = await startApi(); });
  afterEach(async () => { await api.close(); });

  describe('currencies (by code)', () => {
    const create = (code: string) => createCurrency(api, { code });

    it('returns every currency once, in code order', async () => {
      for (const i of scrambled(23)) await create(`K${pad(i)}`);
      for (const limit of [1, 5, 23, 50]) {
        const { rows, pages } = await walkPages(api, '/api/v1/currencies', { limit });
        expect(rows.map((row) => row.code)).toEqual(Array.from({ length: 23 }, (_, i) => `K${pad(i)}`));
        expect(pages.length).toBe(Math.ceil(23 / limit));
      }
    });

    it('returns every currency once while others are created between pages', async () => {
      for (const i of scrambled(12)) await create(`K${pad(i)}`);
      const originals = ids((await walkPages(api, '/api/v1/currencies', { limit: 200 })).rows);
      const ahead: string[] = [];
      const { rows } = await walkPages(api, '/api/v1/currencies', {
        limit: 5,
        betweenPages: async (page) => {
          await create(`A${page}`); // sorts before every row already returned
          ahead.push((await create(`Z${page}`)).id); // sorts after the cursor
        },
      });
      expectNoDuplicates(rows);
      expect(rows.map((row) => row.code)).toEqual([...rows.map((row) => row.code)].sort());
      expect(ids(rows).filter((id) => originals.includes(id))).toEqual(originals);
      expect(ids(rows)).toEqual(expect.arrayContaining(ahead));
    });
  });

  describe('accounts (by account_number)', () => {
    let currency: { id: string };
    beforeEach(async () => { currency = await createCurrency(api); });
    const create = (account_number: string) =>
      createAccount(api, { account_number, name: account_number, currency_id: currency.id, account_type: 'asset', normal_balance: 'debit' });

    it('returns every account once, in account_number order', async () => {
      for (const i of scrambled(23)) await create(`5${pad(i)}`);
      const { rows, pages } = await walkPages(api, '/api/v1/accounts', { limit: 4 });
      expect(rows.map((row) => row.account_number)).toEqual(Array.from({ length: 23 }, (_, i) => `5${pad(i)}`));
      expect(pages.map((page) => page.length)).toEqual([4, 4, 4, 4, 4, 3]);
    });

    it('returns every account once with a filter applied', async () => {
      for (const i of scrambled(11)) await create(`5${pad(i)}`);
      const { rows } = await walkPages(api, `/api/v1/accounts?currency_id=${currency.id}&account_type=asset`, { limit: 3 });
      expect(rows.map((row) => row.account_number)).toEqual(Array.from({ length: 11 }, (_, i) => `5${pad(i)}`));
    });

    it('returns every account once while others are created between pages', async () => {
      for (const i of scrambled(12)) await create(`5${pad(i)}`);
      const originals = ids((await walkPages(api, '/api/v1/accounts', { limit: 200 })).rows);
      const ahead: string[] = [];
      const { rows } = await walkPages(api, '/api/v1/accounts', {
        limit: 5,
        betweenPages: async (page) => {
          await create(`1${pad(page)}`);
          ahead.push((await create(`9${pad(page)}`)).id);
        },
      });
      expectNoDuplicates(rows);
      const numbers = rows.map((row) => row.account_number);
      expect(numbers).toEqual([...numbers].sort());
      expect(ids(rows).filter((id) => originals.includes(id))).toEqual(originals);
      expect(ids(rows)).toEqual(expect.arrayContaining(ahead));
    });
  });

  describe('periods (by start_date)', () => {
    const day = (offset: number, year = 2026) => new Date(Date.UTC(year, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
    const create = (date: string) => createPeriod(api, `Day ${date}`, date, date);

    it('returns every period once, in start_date order', async () => {
      for (const i of scrambled(23)) await create(day(i));
      const { rows, pages } = await walkPages(api, '/api/v1/periods', { limit: 5 });
      expect(rows.map((row) => row.start_date)).toEqual(Array.from({ length: 23 }, (_, i) => day(i)));
      expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
    });

    it('returns every period once while others are created between pages', async () => {
      for (const i of scrambled(12)) await create(day(i));
      const originals = ids((await walkPages(api, '/api/v1/periods', { limit: 200 })).rows);
      const ahead: string[] = [];
      const { rows } = await walkPages(api, '/api/v1/periods', {
        limit: 5,
        betweenPages: async (page) => {
          await create(day(page, 2025));
          ahead.push((await create(day(page, 2027))).id);
        },
      });
      expectNoDuplicates(rows);
      const starts = rows.map((row) => row.start_date);
      expect(starts).toEqual([...starts].sort());
      expect(ids(rows).filter((id) => originals.includes(id))).toEqual(originals);
      expect(ids(rows)).toEqual(expect.arrayContaining(ahead));
    });
  });

  describe('journal entries and account transactions (by entry_date, then posting order)', () => {
    let cash: { id: string };
    let bank: { id: string };
    let sales: { id: string };
    beforeEach(async () => {
      await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
      const currency = await createCurrency(api);
      const open = (account_number: string, account_type: string, normal_balance: string) =>
        createAccount(api, { account_number, name: account_number, currency_id: currency.id, account_type, normal_balance });
      cash = await open('1000', 'asset', 'debit');
      bank = await open('1100', 'asset', 'debit');
      sales = await open('4000', 'revenue', 'credit');
    });

    /** Posts `count` entries over only 4 dates, so that many share a date and posting order decides. */
    async function postScrambled(count: number) {
      const posted: { id: string; date: string; order: number }[] = [];
      for (const [order, i] of scrambled(count).entries()) {
        const date = `2026-0${3 + (i % 4)}-15`;
        const debitAccount = i % 3 === 0 ? bank.id : cash.id;
        const entry = await postEntry(api, debitAccount, sales.id, String(i + 1), date, `entry ${i}`);
        posted.push({ id: entry.id, date, order });
      }
      return posted.sort((a, b) => (a.date === b.date ? a.order - b.order : a.date < b.date ? -1 : 1));
    }

    it('returns every entry once, by entry_date then posting order', async () => {
      const expected = await postScrambled(23);
      for (const limit of [1, 5, 200]) {
        const { rows } = await walkPages(api, '/api/v1/journal-entries', { limit });
        expect(ids(rows)).toEqual(expected.map((entry) => entry.id));
      }
    });

    it('returns every transaction of an account once, in the same order', async () => {
      const expected = await postScrambled(23);
      const { rows } = await walkPages(api, `/api/v1/accounts/${sales.id}/transactions`, { limit: 4 });
      expect(rows.map((row) => row.journal_entry_id)).toEqual(expected.map((entry) => entry.id));
      const cashRows = (await walkPages(api, `/api/v1/accounts/${cash.id}/transactions`, { limit: 2 })).rows;
      const cashEntries = (await walkPages(api, `/api/v1/journal-entries?account_id=${cash.id}`, { limit: 3 })).rows;
      expect(cashRows.map((row) => row.journal_entry_id)).toEqual(ids(cashEntries));
      expect(cashRows.length + (await walkPages(api, `/api/v1/accounts/${bank.id}/transactions`)).rows.length).toBe(23);
    });

    it('returns every entry once while others are posted between pages', async () => {
      const expected = await postScrambled(16);
      const ahead: string[] = [];
      const { rows } = await walkPages(api, '/api/v1/journal-entries', {
        limit: 5,
        betweenPages: async (page, pageRows) => {
          await postEntry(api, cash.id, sales.id, '1', '2026-01-02', `behind ${page}`);
          // Same date as the last row returned, but posted later: it sorts after the cursor.
          const lastDate = pageRows[pageRows.length - 1]!.entry_date;
          ahead.push((await postEntry(api, cash.id, sales.id, '1', lastDate, `same date ${page}`)).id);
          ahead.push((await postEntry(api, cash.id, sales.id, '1', '2026-11-30', `ahead ${page}`)).id);
        },
      });
      expectNoDuplicates(rows);
      const dates = rows.map((row) => row.entry_date);
      expect(dates).toEqual([...dates].sort());
      const original = new Set(expected.map((entry) => entry.id));
      expect(ids(rows).filter((id) => original.has(id))).toEqual(expected.map((entry) => entry.id));
      expect(ids(rows)).toEqual(expect.arrayContaining(ahead));
    });

    it('returns every transaction once while others are posted between pages', async () => {
      const expected = await postScrambled(16);
      const ahead: string[] = [];
      const { rows } = await walkPages(api, `/api/v1/accounts/${sales.id}/transactions`, {
        limit: 5,
        betweenPages: async (page) => {
          await postEntry(api, cash.id, sales.id, '1', '2026-01-02', `behind ${page}`);
          ahead.push((await postEntry(api, cash.id, sales.id, '1', '2026-11-30', `ahead ${page}`)).id);
        },
      });
      const entryIds = rows.map((row) => row.journal_entry_id);
      expect(new Set(entryIds).size).toBe(entryIds.length);
      const dates = rows.map((row) => row.entry_date);
      expect(dates).toEqual([...dates].sort());
      const original = new Set(expected.map((entry) => entry.id));
      expect(entryIds.filter((id) => original.has(id))).toEqual(expected.map((entry) => entry.id));
      expect(entryIds).toEqual(expect.arrayContaining(ahead));
    });
  });
});
