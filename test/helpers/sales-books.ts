/**
 * The smallest books a server test posts into: USD, the period 2026, Cash (1000) and Sales (4000),
 * and an admin service account's key, made through the service on an initialised empty ledger
 * before any `ledger serve` opens it.
 */
import { initLedger, openLedger } from '../../src/app/open-ledger.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';

export interface SalesBooks {
  adminKey: string;
  cash: string;
  sales: string;
}

export async function seedSalesBooks(location: string): Promise<SalesBooks> {
  await initLedger(location);
  const service = await openLedger(location, undefined, { scryptCost: 2 ** 10 });
  try {
    const usd = await service.createFiatCurrency(LOCAL_OPERATOR, 'USD');
    await service.createPeriod(LOCAL_OPERATOR, { name: '2026', start_date: '2026-01-01', end_date: '2026-12-31' });
    const account = async (account_number: string, name: string, account_type: 'asset' | 'revenue', normal_balance: 'debit' | 'credit') =>
      (await service.createAccount(LOCAL_OPERATOR, { account_number, name, currency_id: usd.id, account_type, normal_balance })).id;
    return {
      cash: await account('1000', 'Cash', 'asset', 'debit'),
      sales: await account('4000', 'Sales', 'revenue', 'credit'),
      adminKey: (await service.createServiceAccount(null, { name: 'admin', permissions: { admin: true } })).api_key,
    };
  } finally {
    await service.close();
  }
}
