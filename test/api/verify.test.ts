/**
 * `GET /api/v1/verify` on books written through the real server (closes, reversals, sub-accounts,
 * two currencies): clean books verify clean, and every kind of damage done behind the service's
 * back (raw SQL past the immutability triggers) is found and named: the entry, account, period,
 * currency or date it concerns. Runs on both stores.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, expectError, newApiKey, startApi } from '../helpers/api-fixture.js';
import { type AdminCall, TAMPERING, type VerifyBooks, buildVerifyBooks } from '../helpers/verify-books.js';

const EVERY_CHECK = [
  'entry_lines', 'entry_balance', 'entry_currency', 'entry_numbers', 'periods', 'entry_period', 'posted_after_close', 'reversal', 'closing_entry',
  'account_totals', 'period_totals', 'daily_totals', 'currency_totals', 'hash_chain', 'audit_chain', 'bank_matches', 'reconciliations', 'event_feed',
];

function adminCall(api: ApiFixture): AdminCall {
  return (method, path, body) => api.request(method, `/api/v1${path}`, body);
}

async function verify(api: ApiFixture) {
  return dataOf(await api.request('GET', '/api/v1/verify'));
}

/** The checks that reported anything. */
function checksOf(result: { problems: { check: string }[] }): string[] {
  return [...new Set(result.problems.map((problem) => problem.check))].sort();
}

describe('verify on sound books', () => {
  let api: ApiFixture;
  let books: VerifyBooks;

  beforeAll(async () => {
    api = await startApi();
    books = await buildVerifyBooks(adminCall(api));
  });
  afterAll(async () => { await api.close(); });

  it('finds no problem and says what it checked', async () => {
    const result = await verify(api);
    expect(result).toEqual({
      ok: true,
      problems: [],
      checked: { entries: books.entryCount, lines: books.lineCount, accounts: 9, periods: 3, currencies: 2 },
      checks: EVERY_CHECK,
      // Each currency's head is the hash of its last entry.
      chain_heads: [
        { currency_id: books.currencies.usd, hash: books.entries.marchRent.hash },
        { currency_id: books.currencies.eur, hash: books.entries.eurInterest.hash },
      ].sort((a, b) => (a.currency_id < b.currency_id ? -1 : 1)),
    });
  });

  it('is refused (403 FORBIDDEN) to a user without admin, even one holding every other permission', async () => {
    const everyOther = {
      'currencies:write': true, 'accounts:write': true, 'periods:write': true, 'periods:close': true, 'journals:create': true,
      'journals:reverse': true, 'settings:write': true, 'users:manage': true,
    };
    for (const permissions of [{}, everyOther]) {
      expectError(await api.request('GET', '/api/v1/verify', undefined, { token: await newApiKey(api, permissions) }), 403, 'FORBIDDEN');
    }
    expect((await api.request('GET', '/api/v1/verify', undefined, { token: await newApiKey(api, { admin: true }) })).status).toBe(200);
  });

  it('is refused (401) without credentials', async () => {
    expectError(await api.request('GET', '/api/v1/verify', undefined, { token: null }), 401, 'UNAUTHORIZED');
  });
});

describe('verify names the damage done behind the service\'s back', () => {
  let api: ApiFixture | undefined;

  /** Fresh books for each kind of damage, so that each test sees its own damage only. */
  async function freshBooks(): Promise<{ api: ApiFixture; books: VerifyBooks }> {
    api = await startApi();
    const books = await buildVerifyBooks(adminCall(api));
    expect((await verify(api)).ok).toBe(true);
    return { api, books };
  }

  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('a changed line amount: the unbalanced entry, and every total of its account that no longer adds up', async () => {
    const { api, books } = await freshBooks();
    const { marchSale } = books.entries;
    await TAMPERING.changeLineAmount(api.location, marchSale.lines[0]!.id, '4500');
    const result = await verify(api);
    expect(result.ok).toBe(false);
    expect(result.problems).toContainEqual(expect.objectContaining({
      check: 'entry_balance', entry_id: marchSale.id, currency_id: books.currencies.usd, expected: 'credits 4500', found: 'credits 4000',
    }));
    const { cash } = books.accounts;
    expect(result.problems).toContainEqual(expect.objectContaining({ check: 'account_totals', account_id: cash }));
    expect(result.problems).toContainEqual(expect.objectContaining({ check: 'period_totals', account_id: cash, period_id: books.periods.march }));
    // The first balance that includes March 5 is the one before March 6.
    expect(result.problems).toContainEqual(expect.objectContaining({ check: 'daily_totals', account_id: cash, date: '2026-03-06' }));
    expect(result.problems).toContainEqual(expect.objectContaining({
      check: 'currency_totals', currency_id: books.currencies.usd, expected: '238700', found: '238200',
    }));
    expect(result.problems).toContainEqual(expect.objectContaining({ check: 'hash_chain', entry_id: marchSale.id }));
    expect(checksOf(result)).toEqual(['account_totals', 'currency_totals', 'daily_totals', 'entry_balance', 'hash_chain', 'period_totals']);
  });

  it('a deleted line: the entry left with one line, unbalanced', async () => {
    const { api, books } = await freshBooks();
    const { marchRent } = books.entries;
    await TAMPERING.deleteLine(api.location, marchRent.lines[1]!.id);
    const result = await verify(api);
    expect(result.ok).toBe(false);
    expect(result.problems).toContainEqual(expect.objectContaining({ check: 'entry_lines', entry_id: marchRent.id, expected: 'at least 2 lines', found: '1' }));
    expect(result.problems).toContainEqual(expect.objectContaining({ check: 'entry_balance', entry_id: marchRent.id }));
    expect(result.problems).toContainEqual(expect.objectContaining({ check: 'account_totals', account_id: books.accounts.cash }));
  });

  it('an edited description: the entry whose hash no longer matches its content (only the hash chain can see it)', async () => {
    // No total, balance or pairing depends on a description (February's rent is not reversed).
    const { api, books } = await freshBooks();
    const { februaryRent } = books.entries;
    await TAMPERING.setEntryColumn(api.location, februaryRent.id, 'description', 'February rent (edited)');
    const result = await verify(api);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([expect.objectContaining({
      check: 'hash_chain', entry_id: februaryRent.id, currency_id: books.currencies.usd, found: februaryRent.hash,
    })]);
  });

  it('who posted an entry, changed (the entry is its own audit record): each entry whose hash no longer matches', async () => {
    const { api, books } = await freshBooks();
    const { marchSale, marchRent, eurInterest, eurRepayment } = books.entries;
    // Who posted it, through which credential, in which request; and the version that says the hash covers them.
    await TAMPERING.setEntryColumn(api.location, marchSale.id, 'created_by', 'another-user');
    await TAMPERING.setEntryColumn(api.location, marchRent.id, 'credential_id', 'another-key');
    await TAMPERING.setEntryColumn(api.location, eurInterest.id, 'request_id', 'another-request');
    await TAMPERING.setEntryColumn(api.location, eurRepayment.id, 'hash_version', '1');
    const result = await verify(api);
    expect(result.ok).toBe(false);
    expect(result.problems.map((problem: { check: string; entry_id?: string }) => [problem.check, problem.entry_id]).sort()).toEqual(
      [marchSale, marchRent, eurInterest, eurRepayment].map((entry) => ['hash_chain', entry.id]).sort());
  });

  it('a changed entry number: the numbers no longer run 1, 2, ... in posting order (the hash does not cover the number; this check does)', async () => {
    const { api, books } = await freshBooks();
    const { februaryRent } = books.entries;
    const stored = (await api.request('GET', `/api/v1/journal-entries/${februaryRent.id}`)).body.data;
    await TAMPERING.setEntryColumn(api.location, februaryRent.id, 'entry_number', '9999');
    const result = await verify(api);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([expect.objectContaining({
      check: 'entry_numbers', entry_id: februaryRent.id, expected: String(stored.entry_number), found: '9999',
    })]);
  });

  it('a post missing from the change feed: the feed names the gap', async () => {
    const { api, books } = await freshBooks();
    const { februaryRent } = books.entries;
    const event = (await api.request('GET', '/api/v1/events?types=entry.posted&limit=1000')).body.data
      .find((item: { id: string }) => item.id === februaryRent.id);
    await TAMPERING.setEntryColumn(api.location, februaryRent.id, 'event_seq', '999999');
    const result = await verify(api);
    expect(result.ok).toBe(false);
    // Its number missing where it was, and a jump to where it is now (after the last event).
    expect(result.problems).toEqual([
      expect.objectContaining({ check: 'event_feed', expected: event.seq, found: String(Number(event.seq) + 1) }),
      expect.objectContaining({ check: 'event_feed', found: '999999', entry_id: februaryRent.id }),
    ]);
  });

  it('an edited audit record: the audit chain names it', async () => {
    const { api } = await freshBooks();
    const records = (await api.request('GET', '/api/v1/audit-log?sort=asc&limit=5')).body.data;
    const edited = records[2];
    await TAMPERING.editAuditRecord(api.location, edited.id, 'settings.update');
    const result = await verify(api);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([expect.objectContaining({ check: 'audit_chain', message: expect.stringContaining(edited.id) })]);
  });

  it('a removed entry (lines, hash and all): the chain breaks at the entry after it', async () => {
    const { api, books } = await freshBooks();
    const { februaryRent, lateInvoice } = books.entries;
    await TAMPERING.deleteEntry(api.location, februaryRent.id);
    const result = await verify(api);
    // The next entry in dollars names the removed entry's hash as its previous one.
    expect(result.problems).toContainEqual(expect.objectContaining({
      check: 'hash_chain', entry_id: lateInvoice.id, currency_id: books.currencies.usd, found: februaryRent.hash,
    }));
    expect(result.problems.filter((problem: { check: string }) => problem.check === 'hash_chain')).toHaveLength(1);
  });

  it('a changed chain head: the currency', async () => {
    const { api, books } = await freshBooks();
    await TAMPERING.setChainHead(api.location, books.currencies.eur, 'f'.repeat(64));
    const result = await verify(api);
    expect(result.problems).toEqual([expect.objectContaining({
      check: 'hash_chain', currency_id: books.currencies.eur, expected: books.entries.eurInterest.hash, found: 'f'.repeat(64),
    })]);
  });

  it.each([
    {
      table: 'account_balances', checks: ['account_totals'],
      key: (books: VerifyBooks) => ({ account_id: books.accounts.sales }),
      named: (books: VerifyBooks) => ({ check: 'account_totals', account_id: books.accounts.sales, expected: 'debits 91800, credits 85900', found: 'debits 91801, credits 85900' }),
    },
    {
      // Every later "balance before" is built on the period's totals, so daily_totals sees it too.
      table: 'account_period_totals', checks: ['daily_totals', 'period_totals'],
      key: (books: VerifyBooks) => ({ account_id: books.accounts.rent, period_id: books.periods.february }),
      named: (books: VerifyBooks) => ({ check: 'period_totals', account_id: books.accounts.rent, period_id: books.periods.february }),
    },
    {
      table: 'account_daily_totals', checks: ['daily_totals'],
      key: (books: VerifyBooks) => ({ account_id: books.accounts.cash, entry_date: '2026-01-20' }),
      named: (books: VerifyBooks) => ({ check: 'daily_totals', account_id: books.accounts.cash, date: '2026-01-21' }),
    },
    {
      table: 'currency_totals', checks: ['currency_totals'],
      key: (books: VerifyBooks) => ({ currency_id: books.currencies.eur }),
      named: (books: VerifyBooks) => ({ check: 'currency_totals', currency_id: books.currencies.eur, expected: '125300', found: '125301' }),
    },
  ])('a changed maintained total in $table: the account (or currency) and the scope that differ', async (row) => {
    const { api, books } = await freshBooks();
    await TAMPERING.bumpTotal(api.location, row.table, row.key(books), 1n);
    const result = await verify(api);
    expect(result.ok).toBe(false);
    expect(result.problems).toContainEqual(expect.objectContaining(row.named(books)));
    expect(checksOf(result)).toEqual(row.checks);
  });

  it('an entry moved out of its period: the entry and its period', async () => {
    const { api, books } = await freshBooks();
    const { marchSale } = books.entries;
    await TAMPERING.setEntryColumn(api.location, marchSale.id, 'entry_date', '2026-04-02');
    const result = await verify(api);
    expect(result.ok).toBe(false);
    expect(result.problems).toContainEqual(expect.objectContaining({
      check: 'entry_period', entry_id: marchSale.id, period_id: books.periods.march, expected: '2026-03-01 to 2026-03-31', found: '2026-04-02',
    }));
  });

  it('an entry posted into a closed period after its close: the entry and the period', async () => {
    const { api, books } = await freshBooks();
    const { januaryRent } = books.entries;
    await TAMPERING.setEntryColumn(api.location, januaryRent.id, 'posted_at', '2027-01-01T00:00:00.000Z');
    const result = await verify(api);
    expect(result.problems).toEqual([expect.objectContaining({
      check: 'posted_after_close', entry_id: januaryRent.id, period_id: books.periods.january, found: '2027-01-01T00:00:00.000Z',
    }), expect.objectContaining({ check: 'hash_chain', entry_id: januaryRent.id })]);
  });

  it('a changed closing entry: the closing entry and its period, against what the close computes', async () => {
    const { api, books } = await freshBooks();
    const { januaryClose } = books.entries;
    const salesLine = januaryClose.lines.find((line) => line.account_id === books.accounts.sales)!;
    await TAMPERING.changeLineAmount(api.location, salesLine.id, '49000');
    const result = await verify(api);
    expect(result.problems).toContainEqual(expect.objectContaining({
      check: 'closing_entry', entry_id: januaryClose.id, period_id: books.periods.january,
    }));
    expect(result.problems).toContainEqual(expect.objectContaining({ check: 'entry_balance', entry_id: januaryClose.id }));
  });

  it('a reversal that no longer mirrors its original (still balanced): the reversal', async () => {
    const { api, books } = await freshBooks();
    const { mistakeReversal } = books.entries;
    for (const line of mistakeReversal.lines) await TAMPERING.changeLineAmount(api.location, line.id, '6000');
    const result = await verify(api);
    expect(result.problems).toContainEqual(expect.objectContaining({
      check: 'reversal', entry_id: mistakeReversal.id, expected: 'debit 7000, credit 0', found: 'debit 6000, credit 0',
    }));
    expect(result.problems.filter((problem: { check: string }) => problem.check === 'entry_balance')).toEqual([]);
  });
});
