/**
 * The lock date (settings): an entry or reversal dated on or before it is 400 PERIOD_LOCKED unless
 * the caller holds periods:override and gives an override_reason, which the entry keeps and the
 * audit log records. Batches, dry runs and reversals follow the same rule; closing entries do not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createPeriod, dataOf, entryBody, expectError, newApiKey, seedBooks, startApi, walkPages } from '../helpers/api-fixture.js';

const SETTINGS = '/api/v1/settings';
const ENTRIES = '/api/v1/journal-entries';

describe('lock date', () => {
  let api: ApiFixture;
  let books: Awaited<ReturnType<typeof seedBooks>>;
  let clerk: string;
  let overrider: string;

  const entryCount = async () => (await walkPages(api, ENTRIES)).rows.length;
  const locked = (date = '2026-03-31') => entryBody(books.cash.id, books.sales.id, '5000', date, 'late March sale');

  beforeAll(async () => {
    api = await startApi();
    books = await seedBooks(api);
    clerk = await newApiKey(api, { 'journals:create': true, 'journals:reverse': true });
    overrider = await newApiKey(api, { 'journals:create': true, 'journals:reverse': true, 'periods:override': true });
  });
  afterAll(async () => { await api.close(); });

  it('is null until set; setting it checks the date and is audited with old and new', async () => {
    expect(dataOf(await api.request('GET', SETTINGS)).lock_date).toBeNull();
    expectError(await api.request('PATCH', SETTINGS, { lock_date: '2026-02-30' }), 400, 'VALIDATION_ERROR', 'lock_date');
    expectError(await api.request('PATCH', SETTINGS, { lock_date: 'March' }), 400, 'VALIDATION_ERROR');
    expect(dataOf(await api.request('GET', SETTINGS)).lock_date).toBeNull();
    expect(dataOf(await api.request('PATCH', SETTINGS, { lock_date: '2026-03-31' })).lock_date).toBe('2026-03-31');
    const [record] = dataOf(await api.request('GET', '/api/v1/audit-log?action=settings.update&sort=desc&limit=1'));
    expect(record.changes.lock_date).toEqual({ old: null, new: '2026-03-31' });
    expectError(await api.request('PATCH', SETTINGS, { lock_date: '2026-04-30' }, { token: clerk }), 403, 'FORBIDDEN');
  });

  it('refuses an entry on or before the lock date without the permission or without a reason, and stores nothing', async () => {
    const before = await entryCount();
    for (const [token, body] of [
      [clerk, locked()],
      [clerk, { ...locked('2026-01-15'), override_reason: 'late invoice' }],
      [overrider, locked()],
      [overrider, { ...locked(), override_reason: '   ' }],
      [overrider, { ...locked(), override_reason: null }],
    ] as const) {
      const response = await api.request('POST', ENTRIES, body, { token });
      expectError(response, 400, 'PERIOD_LOCKED', 'entry_date');
      expect(response.body.message).toContain('2026-03-31');
    }
    expectError(await api.request('POST', `${ENTRIES}?dry_run=true`, locked(), { token: overrider }), 400, 'PERIOD_LOCKED');
    expect(await entryCount()).toBe(before);
  });

  it('posts with periods:override and a reason: the entry keeps the reason and the audit record names it', async () => {
    const reason = 'Supplier invoice found after the March review';
    const dryRun = dataOf(await api.request('POST', `${ENTRIES}?dry_run=true`, { ...locked(), override_reason: reason }, { token: overrider }));
    expect(dryRun.entry.override_reason).toBe(reason);
    const entry = dataOf(await api.request('POST', ENTRIES, { ...locked(), override_reason: `  ${reason} ` }, { token: overrider }), 201);
    expect(entry.override_reason).toBe(reason);
    expect(dataOf(await api.request('GET', `${ENTRIES}/${entry.id}`)).override_reason).toBe(reason);
    const [record] = dataOf(await api.request('GET', `/api/v1/audit-log?action=journal_entry.create&sort=desc&limit=1`));
    expect(record).toMatchObject({ target_id: entry.id, changes: { override_reason: { old: null, new: reason } } });
  });

  it('leaves entries after the lock date alone, and keeps no reason on them', async () => {
    const entry = dataOf(await api.request('POST', ENTRIES, { ...locked('2026-04-01'), override_reason: 'not needed' }, { token: clerk }), 201);
    expect(entry.override_reason).toBeNull();
  });

  it('refuses a whole batch when one of its entries is locked, naming the entry', async () => {
    const before = await entryCount();
    const response = await api.request('POST', `${ENTRIES}/batch`, { entries: [locked('2026-04-02'), locked('2026-03-01')] }, { token: clerk });
    expectError(response, 400, 'PERIOD_LOCKED', 'entries[1].entry_date');
    expect(await entryCount()).toBe(before);
    const reason = 'opening balances entered late';
    const posted = dataOf(await api.request('POST', `${ENTRIES}/batch`,
      { entries: [locked('2026-04-02'), { ...locked('2026-03-01'), override_reason: reason }] }, { token: overrider }), 201);
    expect(posted.map((entry: { override_reason: string | null }) => entry.override_reason)).toEqual([null, reason]);
  });

  it('applies to reversals by their own date', async () => {
    const original = dataOf(await api.request('POST', ENTRIES, locked('2026-04-10'), { token: clerk }), 201);
    expectError(await api.request('POST', `${ENTRIES}/${original.id}/reverse`, { entry_date: '2026-03-15' }, { token: clerk }), 400, 'PERIOD_LOCKED');
    expectError(await api.request('POST', `${ENTRIES}/${original.id}/reverse?dry_run=true`, { entry_date: '2026-03-15' }, { token: overrider }),
      400, 'PERIOD_LOCKED');
    const reversal = dataOf(await api.request('POST', `${ENTRIES}/${original.id}/reverse`,
      { entry_date: '2026-03-15', override_reason: 'credit note dated March' }, { token: overrider }), 201);
    expect(reversal.override_reason).toBe('credit note dated March');
    const [record] = dataOf(await api.request('GET', '/api/v1/audit-log?action=journal_entry.reverse&sort=desc&limit=1'));
    expect(record.changes.override_reason).toEqual({ old: null, new: 'credit note dated March' });
    // Dated after the lock, a reversal of a locked-period entry needs nothing.
    const lockedOriginal = dataOf(await api.request('POST', ENTRIES, { ...locked('2026-02-10'), override_reason: 'late' }, { token: overrider }), 201);
    expectError(await api.request('POST', `${ENTRIES}/${lockedOriginal.id}/reverse`, {}, { token: clerk }), 400, 'PERIOD_LOCKED');
    expect(dataOf(await api.request('POST', `${ENTRIES}/${lockedOriginal.id}/reverse`, { entry_date: '2026-04-11' }, { token: clerk }), 201)
      .override_reason).toBeNull();
  });

  it('does not stop a close: the closing entry is exempt', async () => {
    const fresh = await startApi();
    try {
      const own = await seedBooks(fresh);
      const march = await createPeriod(fresh, 'Q1 2027', '2027-01-01', '2027-03-31');
      dataOf(await fresh.request('PATCH', SETTINGS, { retained_earnings_account_id: own.equity.id }));
      dataOf(await fresh.request('POST', ENTRIES, entryBody(own.cash.id, own.sales.id, '1200', '2026-06-01')), 201);
      dataOf(await fresh.request('POST', ENTRIES, entryBody(own.cash.id, own.sales.id, '3400', '2027-02-01')), 201);
      dataOf(await fresh.request('PATCH', SETTINGS, { lock_date: '2027-03-31' }));
      const closed = dataOf(await fresh.request('POST', `/api/v1/periods/${own.period.id}/close`, {}));
      expect(closed.period.status).toBe('closed');
      const closedMarch = dataOf(await fresh.request('POST', `/api/v1/periods/${march.id}/close`, {}));
      expect(closedMarch.period.status).toBe('closed');
      expect(closedMarch.closing_entry.entry_date).toBe('2027-03-31');
      expect(closedMarch.closing_entry.override_reason).toBeNull();
    } finally {
      await fresh.close();
    }
  });

  it('removing the lock lets ordinary posts through again', async () => {
    expect(dataOf(await api.request('PATCH', SETTINGS, { lock_date: null })).lock_date).toBeNull();
    dataOf(await api.request('POST', ENTRIES, locked('2026-01-20'), { token: clerk }), 201);
  });
});

describe('base currency', () => {
  let api: ApiFixture;

  beforeAll(async () => { api = await startApi(); });
  afterAll(async () => { await api.close(); });

  it('defaults to the retained earnings account\'s currency, can be set to another, is checked, and null goes back', async () => {
    const books = await seedBooks(api);
    expect(dataOf(await api.request('GET', SETTINGS)).base_currency_id).toBeNull();
    dataOf(await api.request('PATCH', SETTINGS, { retained_earnings_account_id: books.equity.id }));
    expect(dataOf(await api.request('GET', SETTINGS)).base_currency_id).toBe(books.currency.id);
    const eur = dataOf(await api.request('POST', '/api/v1/currencies', {
      code: 'EUR', name: 'Euro', symbol: '€', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:EUR',
    }), 201);
    expect(dataOf(await api.request('PATCH', SETTINGS, { base_currency_id: eur.id })).base_currency_id).toBe(eur.id);
    const [record] = dataOf(await api.request('GET', '/api/v1/audit-log?action=settings.update&sort=desc&limit=1'));
    expect(record.changes.base_currency_id).toEqual({ old: books.currency.id, new: eur.id });
    expectError(await api.request('PATCH', SETTINGS, { base_currency_id: 'no-such-currency' }), 400, 'VALIDATION_ERROR', 'base_currency_id');
    expect(dataOf(await api.request('GET', SETTINGS)).base_currency_id).toBe(eur.id);
    expect(dataOf(await api.request('PATCH', SETTINGS, { base_currency_id: null })).base_currency_id).toBe(books.currency.id);
  });
});
