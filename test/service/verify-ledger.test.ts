/**
 * The verification as a use case over the store, on both backends: it streams the entries a page
 * at a time to every check in posting order, runs on one snapshot while another process commits,
 * takes new checks by adding them to the list, and only an admin may run it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initLedger, openLedger, systemRuntime } from '../../src/app/open-ledger.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';
import type { LedgerService } from '../../src/service/ledger-service.js';
import type { LedgerReads, LedgerStore } from '../../src/service/ports/ledger-store.js';
import { verifyReads } from '../../src/service/verify-ledger.js';
import type { CheckDefinition } from '../../src/service/verify/check.js';
import { LEDGER_CHECKS } from '../../src/service/verify/checks.js';
import { createTestLocation, type TestLocation } from '../helpers/test-location.js';

const ENTRIES = 2_345;

let place: TestLocation;
let service: LedgerService;
/** A second service on the same database: another process, as far as the first can tell. */
let other: LedgerService;
let books: { cash: string; sales: string };
const postedIds: string[] = [];

beforeAll(async () => {
  place = await createTestLocation('verify-service');
  await initLedger(place.location);
  service = await openLedger(place.location, systemRuntime, { scryptCost: 2 ** 10 });
  other = await openLedger(place.location, systemRuntime, { scryptCost: 2 ** 10 });
  const op = LOCAL_OPERATOR;
  const usd = await service.createFiatCurrency(op, 'USD');
  await service.createPeriod(op, { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' });
  const account = async (account_number: string, account_type: 'asset' | 'revenue', normal_balance: 'debit' | 'credit') =>
    (await service.createAccount(op, { account_number, name: account_number, currency_id: usd.id, account_type, normal_balance })).id;
  books = { cash: await account('1000', 'asset', 'debit'), sales: await account('4000', 'revenue', 'credit') };
  for (let start = 0; start < ENTRIES; start += 1000) {
    const posted = await service.postJournalEntries(op, Array.from({ length: Math.min(1000, ENTRIES - start) }, (_, index) => ({
      // Dates out of order on purpose: posting order is not date order.
      entry_date: `2026-${String(1 + ((start + index) % 12)).padStart(2, '0')}-15`, description: `Sale ${start + index}`,
      lines: [{ account_id: books.cash, debit_amount: String(start + index + 1) }, { account_id: books.sales, credit_amount: String(start + index + 1) }],
    })));
    postedIds.push(...posted.map((entry) => entry.id));
  }
}, 120_000);

afterAll(async () => {
  await service?.ctx.store.close();
  await other?.ctx.store.close();
  await place?.remove();
});

function run(store: LedgerStore, checks: readonly CheckDefinition[], wrap: (reads: LedgerReads) => LedgerReads = (reads) => reads) {
  return store.read((reads) => verifyReads(wrap(reads), checks));
}

describe('verifyLedger', () => {
  it('streams every entry once, in posting order, a page of at most 1,000 at a time, to every check', async () => {
    const seen: string[] = [];
    const recorder: CheckDefinition = { name: 'recorder', description: 'records the entries it sees', create: () => ({ entry: (entry) => { seen.push(entry.id); } }) };
    const limits: number[] = [];
    const result = await run(service.ctx.store, [...LEDGER_CHECKS, recorder], (reads) => Object.assign(Object.create(reads) as typeof reads, {
      listEntriesInPostingOrder: (page: Parameters<LedgerReads['listEntriesInPostingOrder']>[0]) => {
        limits.push(page.limit);
        return reads.listEntriesInPostingOrder(page);
      },
    }));
    expect(result).toMatchObject({ ok: true, problems: [], checked: { entries: ENTRIES, lines: ENTRIES * 2, accounts: 2, periods: 1, currencies: 1 } });
    expect(seen).toEqual(postedIds);
    expect(limits).toEqual([1000, 1000, 1000]);
  });

  it('runs a check added to the list, and lists its problems under its name', async () => {
    const flagged = postedIds[1234]!;
    const custom: CheckDefinition = {
      name: 'custom_rule', description: 'flags one entry',
      create: ({ report }) => ({ entry: (entry) => { if (entry.id === flagged) report({ entry_id: entry.id, message: 'flagged' }); } }),
    };
    const result = await run(service.ctx.store, [...LEDGER_CHECKS, custom]);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([{ check: 'custom_rule', entry_id: flagged, message: 'flagged' }]);
    expect(result.checks).toEqual([...LEDGER_CHECKS.map((check) => check.name), 'custom_rule']);
  });

  it('lists at most 100 problems per check, then how many more it found', async () => {
    const noisy: CheckDefinition = {
      name: 'noisy', description: 'flags every entry',
      create: ({ report }) => ({ entry: (entry) => report({ entry_id: entry.id, message: 'flagged' }) }),
    };
    const result = await run(service.ctx.store, [noisy]);
    expect(result.problems).toHaveLength(101);
    expect(result.problems.at(-1)).toEqual({ check: 'noisy', message: `${ENTRIES - 100} more problems of this check are not listed` });
  });

  it('reads one snapshot: an entry another process commits between the scan and the totals changes nothing', async () => {
    // The commit lands after every entry has been read and before the maintained totals are.
    let committed = 0;
    const commitBeforeTotals = (reads: LedgerReads): LedgerReads => Object.assign(Object.create(reads) as LedgerReads, {
      async accountTotals(query: Parameters<LedgerReads['accountTotals']>[0]) {
        if (committed === 0) {
          committed += 1;
          await other.postJournalEntry(LOCAL_OPERATOR, {
            entry_date: '2026-06-30', description: 'committed elsewhere',
            lines: [{ account_id: books.cash, debit_amount: '5' }, { account_id: books.sales, credit_amount: '5' }],
          });
        }
        return reads.accountTotals(query);
      },
    });
    const result = await run(service.ctx.store, LEDGER_CHECKS, commitBeforeTotals);
    expect(result).toMatchObject({ ok: true, checked: { entries: ENTRIES } });
    expect(committed).toBe(1);

    // The same interleaving without a snapshot mixes two states, so the test can tell.
    committed = 0;
    const unsnapshotted = await verifyReads(commitBeforeTotals(service.ctx.store), LEDGER_CHECKS);
    expect(unsnapshotted.ok).toBe(false);
    expect(unsnapshotted.problems).toContainEqual(expect.objectContaining({ check: 'account_totals', account_id: books.cash }));
  });

  it('is for admins only (FORBIDDEN otherwise)', async () => {
    await expect(service.verifyLedger({ user_id: 'reader', user_type: 'service', permissions: { 'journals:create': true }, credential: null }))
      .rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(service.verifyLedger(LOCAL_OPERATOR)).resolves.toMatchObject({ ok: true, checked: { entries: ENTRIES + 2 } });
  });
});
