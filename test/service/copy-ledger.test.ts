/**
 * copyLedger over the storage port, on the backend under test (LEDGER_TEST_BACKEND): the copy
 * reads one snapshot of the source while the source keeps changing, and writes the target in one
 * transaction, all or nothing. The CLI tests (test/cli/copy.test.ts) check what the copy holds.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidv7 } from 'uuidv7';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';
import { copyLedger } from '../../src/service/copy-ledger.js';
import { LedgerService } from '../../src/service/ledger-service.js';
import type { LedgerReads, LedgerStore } from '../../src/service/ports/ledger-store.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';

const runtime = { clock: { now: () => new Date() }, newId: uuidv7 };

/** A ledger of three entries by one service account, and the service and its key to write more. */
async function seed(store: LedgerStore) {
  const service = await LedgerService.create(store, runtime, { scryptCost: 2 ** 10 });
  const usd = await service.createFiatCurrency(LOCAL_OPERATOR, 'USD');
  await service.createPeriod(LOCAL_OPERATOR, { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' });
  const account = (account_number: string, account_type: 'asset' | 'revenue') => service.createAccount(LOCAL_OPERATOR, {
    account_number, name: account_number, currency_id: usd.id, account_type, normal_balance: account_type === 'asset' ? 'debit' : 'credit',
  });
  const cash = await account('1000', 'asset');
  const sales = await account('4000', 'revenue');
  const { api_key: apiKey } = await service.createServiceAccount(null, { name: 'agent' });
  const agent = await service.authenticate(apiKey);
  const sale = (amount: string) => service.postJournalEntry(agent, {
    entry_date: '2026-02-01', description: `Sale ${amount}`,
    lines: [{ account_id: cash.id, debit_amount: amount }, { account_id: sales.id, credit_amount: amount }],
  });
  for (const amount of ['100', '200', '300']) await sale(amount);
  return { service, sale, usd };
}

/**
 * The source as copyLedger sees it, with `beforeUsers` run inside its snapshot just before the
 * users are read: after the entries, so a write there lands in the middle of the copy.
 */
function withHook(store: LedgerStore, beforeUsers: () => Promise<void>): LedgerStore {
  const hooked = (reads: LedgerReads): LedgerReads => new Proxy(reads, {
    get(target, name, receiver) {
      if (name === 'listStoredUsers') {
        return async (...args: Parameters<LedgerReads['listStoredUsers']>) => {
          await beforeUsers();
          return target.listStoredUsers(...args);
        };
      }
      return Reflect.get(target, name, receiver);
    },
  });
  // The store's own reads are hooked too, so a copy that read outside its snapshot would see the write.
  const hookedStore = hooked(store) as LedgerStore;
  return new Proxy(hookedStore, {
    get(target, name, receiver) {
      if (name === 'read') return <T>(work: (reads: LedgerReads) => Promise<T>) => store.read((reads) => work(hooked(reads)));
      return Reflect.get(target, name, receiver);
    },
  });
}

describe('copyLedger', () => {
  let source: TestStore;
  let target: TestStore;
  beforeEach(async () => {
    [source, target] = await Promise.all([openTestStore(), openTestStore()]);
  });
  afterEach(async () => {
    await Promise.all([source.close(), target.close()]);
  });

  it('copies the ledger as it stood when the copy began, whatever is committed to the source meanwhile', async () => {
    const { service, sale, usd } = await seed(source.store);
    let wroteMeanwhile = false;
    const summary = await copyLedger(withHook(source.store, async () => {
      if (wroteMeanwhile) return;
      wroteMeanwhile = true;
      await sale('400');
      await service.createServiceAccount(null, { name: 'late agent' });
    }), target.store);
    expect(wroteMeanwhile).toBe(true);
    expect(await source.store.countEntries()).toBe(4);
    expect(await source.store.countUsers()).toBe(2);
    expect(summary).toMatchObject({ entries: 3, lines: 6, users: 1, api_keys: 1 });
    expect(await target.store.countEntries()).toBe(3);
    expect(await target.store.countUsers()).toBe(1);
    expect((await target.store.allApiKeys()).length).toBe(1);
    expect(await target.store.allCurrencyDebitTotals()).toEqual(new Map([[usd.id, 600n]]));
  });

  it('writes nothing when the copy fails part way, and a later copy into the same target succeeds', async () => {
    await seed(source.store);
    const failing = withHook(source.store, async () => { throw new Error('source lost'); });
    await expect(copyLedger(failing, target.store)).rejects.toThrow('source lost');
    expect(await target.store.countEntries()).toBe(0);
    expect((await target.store.listCurrencies({ limit: 1 })).items).toEqual([]);
    expect(await target.store.allAccounts()).toEqual([]);
    expect((await target.store.accountTotals({})).size).toBe(0);
    const summary = await copyLedger(source.store, target.store);
    expect(summary).toMatchObject({ currencies: 1, accounts: 2, periods: 1, entries: 3, users: 1 });
  });

  it('reports its progress in entries after each page', async () => {
    await seed(source.store);
    const calls: [number, number][] = [];
    await copyLedger(source.store, target.store, (copied, total) => calls.push([copied, total]));
    expect(calls).toEqual([[3, 3]]);
  });
});
