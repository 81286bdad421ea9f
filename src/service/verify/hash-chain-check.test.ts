import { describe, expect, it } from 'vitest';
import type { AmountMinor } from '../../domain/money/amount.js';
import type { EntryHashVersion, JournalEntryView } from '../../domain/types.js';
import { canonicalEntry, entryHash, GENESIS_HASH } from '../entry-hash.js';
import type { LedgerReads } from '../ports/ledger-store.js';
import type { Books } from './books.js';
import type { Problem } from './problems.js';
import { hashChainCheck } from './hash-chain-check.js';
import { LineTally } from './line-tally.js';

/**
 * A chain of `count` entries in one currency, each hashed on the one before: entries posted through
 * an API key in a request (hash version 2), or before the entries carried who posted them (version 1).
 */
function chain(count: number, currency = 'usd', version: EntryHashVersion = 2): JournalEntryView[] {
  const entries: JournalEntryView[] = [];
  let previous = GENESIS_HASH;
  for (let index = 0; index < count; index += 1) {
    const entry: JournalEntryView = {
      id: `${currency}-${index}`, entry_date: '2026-03-01', description: `Entry ${index}`, reference: null, metadata: null,
      period_id: 'p', entry_type: 'standard', reverses_id: null, reversed_by_id: null, created_by: 'user-ann',
      posted_at: '2026-03-01T00:00:00.000Z', currency_id: currency, override_reason: null, entry_number: index + 1,
      hash_version: version, credential_type: version === 2 ? 'api_key' : null, credential_id: version === 2 ? 'key-ann' : null,
      request_id: version === 2 ? `request-${index}` : null,
      previous_hash: previous, hash: '',
      lines: [
        { id: `l${index}a`, account_id: 'cash', account_number: '1000', account_name: 'Cash', debit_amount: 5n as AmountMinor, credit_amount: 0n as AmountMinor, description: null },
        { id: `l${index}b`, account_id: 'sales', account_number: '4000', account_name: 'Sales', debit_amount: 0n as AmountMinor, credit_amount: 5n as AmountMinor, description: null },
      ],
    };
    entry.hash = entryHash(entry, previous);
    previous = entry.hash;
    entries.push(entry);
  }
  return entries;
}

/** Runs the check over the entries in the given (posting) order, with the store's chain heads. */
async function problemsOf(entries: readonly JournalEntryView[], heads: Map<string, string>): Promise<Problem[]> {
  const problems: Problem[] = [];
  const reads = { currencyChainHeads: async () => heads } as unknown as LedgerReads;
  const check = hashChainCheck.create({
    reads, books: {} as Books, tally: new LineTally(), report: (problem) => problems.push({ check: 'hash_chain', ...problem }),
  });
  for (const entry of entries) await check.entry!(entry);
  await check.finish!();
  return problems;
}

const headOf = (entries: readonly JournalEntryView[]) => new Map([[entries[0]!.currency_id, entries.at(-1)!.hash]]);

describe('hash chain check', () => {
  it('accepts chains posted in chain order, several currencies interleaved', async () => {
    const [usd, eur] = [chain(5), chain(3, 'eur')];
    const posted = [usd[0]!, eur[0]!, usd[1]!, usd[2]!, eur[1]!, usd[3]!, eur[2]!, usd[4]!];
    expect(await problemsOf(posted, new Map([['usd', usd[4]!.hash], ['eur', eur[2]!.hash]]))).toEqual([]);
  });

  it('accepts entries stored out of chain order (concurrent posts): links are followed, not assumed', async () => {
    const entries = chain(6);
    const [a, b, c, d, e, f] = entries as [JournalEntryView, JournalEntryView, JournalEntryView, JournalEntryView, JournalEntryView, JournalEntryView];
    for (const order of [[a, c, b, d, e, f], [a, e, f, c, d, b], [b, c, d, e, f, a], [f, e, d, c, b, a]]) {
      expect(await problemsOf(order, headOf(entries))).toEqual([]);
    }
  });

  it('names the entry whose content no longer matches its hash', async () => {
    const entries = chain(4);
    const edited = { ...entries[2]!, description: 'edited' };
    const problems = await problemsOf([entries[0]!, entries[1]!, edited, entries[3]!], headOf(entries));
    expect(problems).toEqual([expect.objectContaining({ entry_id: 'usd-2', found: entries[2]!.hash, expected: entryHash(edited, edited.previous_hash) })]);
  });

  it('names the entry after a removed one, once, however long the rest of the chain', async () => {
    const entries = chain(50);
    const problems = await problemsOf(entries.filter((_, index) => index !== 20), headOf(entries));
    expect(problems).toEqual([expect.objectContaining({ entry_id: 'usd-21', currency_id: 'usd', found: entries[20]!.hash })]);
    expect(problems[0]!.message).toContain('the unbroken chain ends at entry usd-19');
  });

  it('names a stored chain head that is not where the chain ends (the last entry removed, or the head changed)', async () => {
    const entries = chain(3);
    expect(await problemsOf(entries.slice(0, 2), headOf(entries))).toEqual([
      expect.objectContaining({ currency_id: 'usd', expected: entries[1]!.hash, found: entries[2]!.hash }),
    ]);
    expect(await problemsOf(entries, new Map())).toEqual([expect.objectContaining({ currency_id: 'usd', found: 'none' })]);
    expect(await problemsOf([], headOf(entries))).toEqual([expect.objectContaining({ currency_id: 'usd', found: entries[2]!.hash })]);
  });

  it('names the second of two entries that claim the same predecessor (a fork)', async () => {
    const entries = chain(3);
    const rival = { ...entries[1]!, id: 'usd-rival', description: 'rival' };
    rival.hash = entryHash(rival, rival.previous_hash);
    const problems = await problemsOf([entries[0]!, entries[1]!, rival, entries[2]!], headOf(entries));
    expect(problems).toContainEqual(expect.objectContaining({ entry_id: 'usd-rival' }));
  });

  it('names an entry whose poster, credential or request was changed, but not one posted before entries said so', async () => {
    // Version 2 covers who posted: the entry is its own audit record.
    for (const change of [{ created_by: 'user-bob' }, { credential_type: 'session' as const }, { credential_id: 'key-bob' },
      { request_id: 'request-forged' }, { hash_version: 1 as const }]) {
      const entries = chain(3);
      const edited = { ...entries[1]!, ...change };
      const problems = await problemsOf([entries[0]!, edited, entries[2]!], headOf(entries));
      expect(problems, JSON.stringify(change)).toEqual([expect.objectContaining({ entry_id: 'usd-1', found: entries[1]!.hash })]);
    }
    // Version 1 covers what it always did, and verifies as it always did.
    const old = chain(3, 'usd', 1);
    expect(await problemsOf(old, headOf(old))).toEqual([]);
    expect(await problemsOf([old[0]!, { ...old[1]!, created_by: 'user-bob' }, old[2]!], headOf(old)))
      .toEqual([expect.objectContaining({ entry_id: 'usd-1' })]);
  });

  it('hashes version 1 as before: the form of the entries posted before hash versions, an override reason appended', () => {
    const [entry] = chain(1, 'usd', 1);
    const { hash_version: _version, credential_type: _type, credential_id: _id, request_id: _request, ...before } = entry!;
    expect(entryHash(before, GENESIS_HASH)).toBe(entry!.hash);
    expect(canonicalEntry({ ...entry!, override_reason: 'late' }, GENESIS_HASH)).toMatch(/^\["ledger-entry-v1",.*,\["override_reason","late"\]\]$/);
    const [posted] = chain(1);
    expect(canonicalEntry(posted!, GENESIS_HASH)).toMatch(/^\["ledger-entry-v2",.*,null,"api_key","key-ann","request-0"\]$/);
  });
});
