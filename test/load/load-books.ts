/**
 * Books for the load tests: a receivables control account with one customer holding many open
 * invoices (aging it is the heaviest report a read-only key can ask for), cash and sales, and keys
 * for a reader and a poster. Seeded through the service's import, the fastest real path.
 */
import { initLedger, openLedger } from '../../src/app/open-ledger.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';
import type { CreateEntryInput } from '../../src/schemas/journal-entry.js';

export interface LoadBooks {
  receivables: string;
  cash: string;
  sales: string;
  readerKey: string;
  posterKey: string;
  otherReaderKey: string;
}

export async function seedLoadBooks(location: string, openInvoices: number): Promise<LoadBooks> {
  await initLedger(location);
  const service = await openLedger(location, undefined, { scryptCost: 2 ** 10 });
  try {
    const operator = LOCAL_OPERATOR;
    const usd = await service.createFiatCurrency(operator, 'USD');
    await service.createPeriod(operator, { name: '2026', start_date: '2026-01-01', end_date: '2026-12-31' });
    const account = (account_number: string, name: string, account_type: 'asset' | 'revenue', extra: Record<string, unknown> = {}) =>
      service.createAccount(operator, { account_number, name, currency_id: usd.id, account_type,
        normal_balance: account_type === 'asset' ? 'debit' : 'credit', ...extra });
    const receivables = await account('1200', 'Receivables', 'asset', { has_subledger: true });
    const customer = await service.createAccount(operator, { account_number: '1200-01', name: 'Big customer', parent_id: receivables.id,
      entity_id: 'big-customer' });
    const cash = await account('1000', 'Cash', 'asset');
    const sales = await account('4000', 'Sales', 'revenue');
    async function* invoices(): AsyncIterable<CreateEntryInput> {
      for (let index = 0; index < openInvoices; index += 1) {
        const month = String(1 + (index % 11)).padStart(2, '0');
        const day = String(1 + (index % 28)).padStart(2, '0');
        yield { entry_date: `2026-${month}-${day}`, description: `Invoice ${index}`,
          lines: [{ account_id: customer.id, debit_amount: '10000' }, { account_id: sales.id, credit_amount: '10000' }] };
      }
    }
    if (openInvoices > 0) await service.importJournalEntries(operator, invoices);
    const key = async (name: string, permissions: Record<string, boolean>) =>
      (await service.createServiceAccount(null, { name, permissions })).api_key;
    return {
      receivables: receivables.id, cash: cash.id, sales: sales.id,
      readerKey: await key('reader', {}), otherReaderKey: await key('other reader', {}), posterKey: await key('poster', { 'journals:create': true }),
    };
  } finally {
    await service.ctx.store.close();
  }
}

/** The p-th percentile (0-100) of some durations, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The server process's peak resident memory so far (VmHWM), in MiB. */
export async function peakRssMiB(pid: number): Promise<number> {
  const { readFileSync } = await import('node:fs');
  return Number(/VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}
