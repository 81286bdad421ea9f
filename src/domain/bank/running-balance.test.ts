import { describe, expect, it } from 'vitest';
import { balancesFromRunningBalances, type RunningBalanceRow } from './running-balance.js';

const row = (posted_date: string, amount: bigint, balance: bigint | null): RunningBalanceRow => ({ posted_date, amount, balance });

describe('balancesFromRunningBalances', () => {
  it.each<[string, RunningBalanceRow[], bigint | null, bigint | null]>([
    ['oldest first', [row('2026-01-01', -100n, 900n), row('2026-01-02', 50n, 950n), row('2026-01-03', -25n, 925n)], 1000n, 925n],
    ['newest first', [row('2026-01-03', -25n, 925n), row('2026-01-02', 50n, 950n), row('2026-01-01', -100n, 900n)], 1000n, 925n],
    ['one day, balances adding up top-down', [row('2026-01-05', -10n, 90n), row('2026-01-05', -20n, 70n)], 100n, 70n],
    ['one day, balances adding up bottom-up (newest first)', [row('2026-01-05', -20n, 70n), row('2026-01-05', -10n, 90n)], 100n, 70n],
    ['one day, balances adding up neither way (file order wins)', [row('2026-01-05', -10n, 5n), row('2026-01-05', -20n, 7n)], 15n, 7n],
    ['a single row', [row('2026-01-05', -10n, 90n)], 100n, 90n],
    ['newest first, same-day rows: the top one is the latest', [row('2026-01-02', 5n, 30n), row('2026-01-02', 10n, 25n), row('2026-01-01', 15n, 15n)], 0n, 30n],
    ['empty balance cells at both ends', [row('2026-01-01', -100n, null), row('2026-01-02', 50n, 950n), row('2026-01-03', -25n, null)], 1000n, 925n],
    ['no balance at all', [row('2026-01-01', -100n, null), row('2026-01-02', 50n, null)], null, null],
    ['an overdrawn account', [row('2026-01-01', -500n, -300n), row('2026-01-02', 100n, -200n)], 200n, -200n],
  ])('%s', (_name, rows, opening, closing) => {
    expect(balancesFromRunningBalances(rows)).toEqual({ opening_balance: opening, closing_balance: closing });
  });
});
