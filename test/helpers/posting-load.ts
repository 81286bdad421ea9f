/**
 * Concurrent posting with Idempotency-Keys against a real `ledger serve` process, for the crash
 * and shutdown tests: books seeded through the service, clients that post until told to stop, and
 * the check of the books afterwards (every acknowledged entry there with its lines, every entry
 * balanced, `verifyLedger` clean).
 */
import { expect } from 'vitest';
import { initLedger, openLedger } from '../../src/app/open-ledger.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';

export interface LoadBooks {
  key: string;
  cash: string;
  sales: string;
}

export async function seedLoadBooks(location: string): Promise<LoadBooks> {
  await initLedger(location);
  const service = await openLedger(location, undefined, { scryptCost: 2 ** 10 });
  try {
    const op = LOCAL_OPERATOR;
    const usd = await service.createFiatCurrency(op, 'USD');
    await service.createPeriod(op, { name: '2026', start_date: '2026-01-01', end_date: '2026-12-31' });
    const open = (account_number: string, account_type: 'asset' | 'revenue') => service.createAccount(op, {
      account_number, name: account_number, currency_id: usd.id, account_type,
      normal_balance: account_type === 'asset' ? 'debit' : 'credit',
    });
    const cash = await open('1000', 'asset');
    const sales = await open('4000', 'revenue');
    const clerk = await service.createServiceAccount(null, { name: 'poster', permissions: { 'journals:create': true } });
    return { key: clerk.api_key, cash: cash.id, sales: sales.id };
  } finally {
    await service.ctx.store.close();
  }
}

/** The body of request number `index`: its amount is index + 1, so every request is distinct. */
export function loadEntry(books: LoadBooks, index: number) {
  const amount = String(index + 1);
  return {
    entry_date: '2026-03-15', description: `load ${index}`,
    lines: [{ account_id: books.cash, debit_amount: amount }, { account_id: books.sales, credit_amount: amount }],
  };
}

export type Outcome = { status: number; body: any } | { error: string };

/** POSTs entry number `index` with its own Idempotency-Key; a failed connection is an outcome, not a throw. */
export async function postLoadEntry(baseUrl: string, books: LoadBooks, index: number): Promise<Outcome> {
  try {
    const response = await fetch(`${baseUrl}/api/v1/journal-entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${books.key}`, 'content-type': 'application/json', 'idempotency-key': `load-${index}` },
      body: JSON.stringify(loadEntry(books, index)),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  } catch (error) {
    return { error: String((error as Error).cause ?? error) };
  }
}

/**
 * `clients` loops that post entries numbered from a shared counter until `stop()` says so or a
 * connection fails (the server is gone). Resolves with every outcome by request number.
 */
export function postUntilStopped(baseUrl: string, books: LoadBooks, clients: number, onAnswer: (answered: number) => void) {
  const outcomes = new Map<number, Outcome>();
  let next = 0;
  let stopped = false;
  let answered = 0;
  const loop = async () => {
    while (!stopped) {
      const index = next++;
      const outcome = await postLoadEntry(baseUrl, books, index);
      outcomes.set(index, outcome);
      if ('error' in outcome) return;
      answered += 1;
      onAnswer(answered);
    }
  };
  const done = Promise.all(Array.from({ length: clients }, loop)).then(() => outcomes);
  return { done, stop: () => { stopped = true; } };
}

/**
 * The books as the service reads them: every acknowledged entry there with the lines it was
 * answered with, every entry balanced with at least two lines, and `verifyLedger` clean (each
 * maintained total equal to the sum of its lines). Answers the number of entries.
 */
export async function expectConsistentBooks(location: string, acknowledged: readonly any[]): Promise<number> {
  const service = await openLedger(location, undefined, { scryptCost: 2 ** 10 });
  try {
    const stored = new Map<string, any>();
    let cursor: string | undefined;
    do {
      const page = await service.listJournalEntries({ limit: 200, cursor });
      for (const entry of page.data) stored.set(entry.id, entry);
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    for (const entry of acknowledged) expect(stored.get(entry.id), `acknowledged entry ${entry.id}`).toEqual(entry);
    for (const entry of stored.values()) {
      expect(entry.lines.length, `lines of ${entry.id}`).toBeGreaterThanOrEqual(2);
      const sum = (side: 'debit_amount' | 'credit_amount') => entry.lines.reduce((total: bigint, line: any) => total + minorUnits(line[side]), 0n);
      expect(sum('debit_amount'), `balance of ${entry.id}`).toBe(sum('credit_amount'));
    }
    const verified = await service.verifyLedger(LOCAL_OPERATOR);
    expect(verified.problems).toEqual([]);
    expect(verified.ok).toBe(true);
    return stored.size;
  } finally {
    await service.ctx.store.close();
  }
}

/** '12.30' as 1230: every amount of one currency has the same number of decimals. */
function minorUnits(amount: string | null | undefined): bigint {
  return BigInt((amount ?? '0').replace('.', ''));
}

/** Resolves with the process's exit code and signal once it has exited. */
export function exitOf(child: import('node:child_process').ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
