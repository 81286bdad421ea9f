/**
 * The ids of the running program (open-ledger.ts): UUIDv7 drawn from a pool of random numbers that
 * is refilled as it runs out. Many ids, across several refills: each well formed, unique, in the
 * order they were made, and random where the format says so.
 */
import { describe, expect, it } from 'vitest';
import { systemRuntime } from '../../src/app/open-ledger.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('ids', () => {
  it('are UUIDv7, unique and increasing across many refills of the random pool, with random tails', () => {
    const ids = Array.from({ length: 20_000 }, () => systemRuntime.newId());
    for (const id of ids) expect(id).toMatch(UUID_V7);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    // The last 32 bits are random in every id (RFC 9562's rand_b): a stuck or repeating pool shows here.
    const tails = new Set(ids.map((id) => id.slice(-8)));
    expect(tails.size).toBeGreaterThan(ids.length - 10);
  });
});
