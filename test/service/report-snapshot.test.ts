/**
 * A report is one snapshot. A report reads several things (the chart of accounts, then totals);
 * another process that commits between those reads must not leave the report mixing two states.
 * The test makes that interleaving happen on purpose: a second, real store on the same database
 * (as another server or the CLI would be) commits a new account and an entry into it right after
 * the report has read the chart of accounts. Through `store.read()` the report still balances;
 * the same interleaving without a snapshot is shown to unbalance it, so the test can tell.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initLedger, openStore, systemRuntime } from '../../src/app/open-ledger.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';
import { LedgerService } from '../../src/service/ledger-service.js';
import type { LedgerReads, LedgerStore } from '../../src/service/ports/ledger-store.js';
import { createTestLocation, type TestLocation } from '../helpers/test-location.js';

let place: TestLocation;
let other: LedgerService;
let opened: LedgerStore[];
let books: { usdId: string; cashId: string; salesId: string };
let serial = 0;

/** Another process's write: a new asset account and a sale into it, committed at once. */
async function commitElsewhere(): Promise<void> {
  serial += 1;
  const account = await other.createAccount(LOCAL_OPERATOR, {
    account_number: `1500-${serial}`, name: `Till ${serial}`, currency_id: books.usdId, account_type: 'asset', normal_balance: 'debit',
  });
  await other.postJournalEntry(LOCAL_OPERATOR, {
    entry_date: '2026-03-10', description: `sale into till ${serial}`,
    lines: [{ account_id: account.id, debit_amount: '2500' }, { account_id: books.salesId, credit_amount: '2500' }],
  });
}

/** The reads a report sees, with the other process's commit landing right after the chart of accounts is read. */
function interleaved(reads: LedgerReads): LedgerReads {
  // The store's reads are methods of its class: the wrapper inherits them and overrides one.
  return Object.assign(Object.create(reads) as LedgerReads, {
    async allAccounts() {
      const accounts = await reads.allAccounts();
      await commitElsewhere();
      return accounts;
    },
  });
}

/** The store as the service sees it: `read()` is the real snapshot, or (to show the test can fail) none at all. */
function storeWithInterleaving(store: LedgerStore, snapshot: boolean): LedgerStore {
  return Object.assign(Object.create(store) as LedgerStore, {
    read: snapshot
      ? <T>(work: (reads: LedgerReads) => Promise<T>) => store.read((reads) => work(interleaved(reads)))
      : <T>(work: (reads: LedgerReads) => Promise<T>) => work(interleaved(store)),
  });
}

async function open(): Promise<LedgerStore> {
  const store = await openStore(place.location);
  opened.push(store);
  return store;
}

beforeEach(async () => {
  opened = [];
  place = await createTestLocation('ledger-snapshot');
  await initLedger(place.location);
  other = await LedgerService.create(await open(), systemRuntime);
  const usd = await other.createFiatCurrency(LOCAL_OPERATOR, 'USD');
  await other.createPeriod(LOCAL_OPERATOR, { name: '2026', start_date: '2026-01-01', end_date: '2026-12-31' });
  const cash = await other.createAccount(LOCAL_OPERATOR, { account_number: '1000', name: 'Cash', currency_id: usd.id, account_type: 'asset', normal_balance: 'debit' });
  const equity = await other.createAccount(LOCAL_OPERATOR, { account_number: '3000', name: 'Retained', currency_id: usd.id, account_type: 'equity', normal_balance: 'credit' });
  const sales = await other.createAccount(LOCAL_OPERATOR, { account_number: '4000', name: 'Sales', currency_id: usd.id, account_type: 'revenue', normal_balance: 'credit' });
  await other.updateSettings(LOCAL_OPERATOR, { retained_earnings_account_id: equity.id });
  books = { usdId: usd.id, cashId: cash.id, salesId: sales.id };
  await other.postJournalEntry(LOCAL_OPERATOR, {
    entry_date: '2026-03-01', description: 'opening sale',
    lines: [{ account_id: cash.id, debit_amount: '10000' }, { account_id: sales.id, credit_amount: '10000' }],
  });
});

afterEach(async () => {
  for (const store of opened) await store.close();
  await place.remove();
});

describe('reports read one snapshot while another process writes', () => {
  it('the balance sheet and the trial balance stay balanced when a post lands between their reads', async () => {
    const reporter = await LedgerService.create(storeWithInterleaving(await open(), true), systemRuntime);
    const sheet = await reporter.balanceSheet({});
    expect(sheet.is_balanced).toBe(true);
    expect(sheet.total_assets).toBe('10000');
    const trial = await reporter.trialBalance({});
    expect(trial.is_balanced).toBe(true);
    // Both writes did land; a report started afterwards sees them.
    const after = await LedgerService.create(await open(), systemRuntime);
    expect((await after.balanceSheet({})).total_assets).toBe('15000');
  });

  it('without a snapshot the same interleaving gives a report that mixes two states (the test can fail)', async () => {
    const reporter = await LedgerService.create(storeWithInterleaving(await open(), false), systemRuntime);
    expect((await reporter.balanceSheet({})).is_balanced).toBe(false);
  });
});
