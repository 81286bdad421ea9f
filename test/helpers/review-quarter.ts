/**
 * The quarter of the bookkeeper's review (issue 24), as a fixture for translated reports: a design
 * studio keeping its books in USD with one EUR client. Invoices in euros, the client's payment, a
 * conversion of 3,000.00 EUR into 3,246.00 USD through a clearing account in each currency, rent in
 * dollars, January closed; EUR rates on some days. Every translated figure the tests expect is worked
 * out by hand in test/api/translated-reports.test.ts.
 */
import { type ApiFixture, createCurrency, createPeriod, dataOf } from './api-fixture.js';

/** EUR → USD: the value of one euro in dollars from each day on. */
export const QUARTER_RATES: readonly [string, string][] = [
  ['2026-01-01', '1.10'], ['2026-01-20', '1.08'], ['2026-02-01', '1.12'], ['2026-02-15', '1.09'],
  ['2026-03-01', '1.085'], ['2026-03-31', '1.0842'],
];

export async function seedReviewQuarter(api: ApiFixture) {
  const usd = await createCurrency(api, { code: 'USD', caip19_id: 'swift:0/iso4217:USD', asset_scale: 2 });
  const eur = await createCurrency(api, { code: 'EUR', caip19_id: 'swift:0/iso4217:EUR', asset_scale: 2 });
  const account = async (account_number: string, name: string, currency: { id: string },
    account_type: 'asset' | 'liability' | 'equity' | 'revenue' | 'expense') => dataOf(await api.request('POST', '/api/v1/accounts', {
    account_number, name, currency_id: currency.id, account_type,
    normal_balance: account_type === 'asset' || account_type === 'expense' ? 'debit' : 'credit',
  }), 201) as { id: string; account_number: string };
  const a = {
    bankUsd: await account('1000', 'Bank USD', usd, 'asset'),
    bankEur: await account('1100', 'Bank EUR', eur, 'asset'),
    receivableEur: await account('1200', 'Receivable EUR', eur, 'asset'),
    clearingUsd: await account('1500', 'FX clearing USD', usd, 'asset'),
    clearingEur: await account('1510', 'FX clearing EUR', eur, 'asset'),
    retainedUsd: await account('3000', 'Retained earnings', usd, 'equity'),
    retainedEur: await account('3010', 'Retained earnings EUR', eur, 'equity'),
    capital: await account('3100', 'Owner capital', usd, 'equity'),
    revenueUsd: await account('4000', 'Design revenue USD', usd, 'revenue'),
    revenueEur: await account('4100', 'Design revenue EUR', eur, 'revenue'),
    rent: await account('6000', 'Rent', usd, 'expense'),
  };
  dataOf(await api.request('PATCH', '/api/v1/settings', {
    retained_earnings_account_id: a.retainedUsd.id, retained_earnings_account_ids: { [eur.id]: a.retainedEur.id },
  }));
  const january = await createPeriod(api, 'January 2026', '2026-01-01', '2026-01-31');
  const february = await createPeriod(api, 'February 2026', '2026-02-01', '2026-02-28');
  const march = await createPeriod(api, 'March 2026', '2026-03-01', '2026-03-31');
  for (const [rate_date, rate] of QUARTER_RATES) {
    dataOf(await api.request('POST', '/api/v1/exchange-rates', { currency_id: eur.id, rate_date, rate }), 201);
  }
  const post = async (entry_date: string, description: string, debit: { id: string }, credit: { id: string }, amount: string) =>
    dataOf(await api.request('POST', '/api/v1/journal-entries', {
      entry_date, description,
      lines: [{ account_id: debit.id, debit_amount: amount }, { account_id: credit.id, credit_amount: amount }],
    }), 201);
  await post('2026-01-05', 'Owner puts in capital', a.bankUsd, a.capital, '1000000');
  await post('2026-01-10', 'Invoice 1 to the Berlin client', a.receivableEur, a.revenueEur, '200000');
  await post('2026-01-25', 'Invoice 2 to the Berlin client', a.receivableEur, a.revenueEur, '100000');
  await post('2026-01-31', 'January rent', a.rent, a.bankUsd, '150000');
  dataOf(await api.request('POST', `/api/v1/periods/${january.id}/close`, {}));
  await post('2026-02-10', 'Berlin client pays invoices 1 and 2', a.bankEur, a.receivableEur, '300000');
  await post('2026-02-20', 'Invoice 3 to the Berlin client', a.receivableEur, a.revenueEur, '400050');
  await post('2026-02-25', 'Conversion: 3,000.00 EUR out', a.clearingEur, a.bankEur, '300000');
  await post('2026-02-25', 'Conversion: 3,246.00 USD in', a.bankUsd, a.clearingUsd, '324600');
  await post('2026-03-05', 'US client project', a.bankUsd, a.revenueUsd, '250000');
  await post('2026-03-15', 'Invoice 4 to the Berlin client', a.receivableEur, a.revenueEur, '150050');
  await post('2026-03-20', 'March rent', a.rent, a.bankUsd, '150000');
  return { usd, eur, accounts: a, periods: { january, february, march } };
}
