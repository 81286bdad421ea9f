/**
 * Books for the banking tests: a currency, a bank account (asset), a card account (liability), and
 * the accounts the bank's money goes to and comes from. Each call makes accounts of its own in a
 * currency of its own, so the tests of one file share a ledger without sharing lines.
 */
import { type ApiFixture, createAccount, createCurrency, walkPages } from './api-fixture.js';

let serial = 0;

export interface BankBooks {
  currency: { id: string; code: string };
  bank: { id: string };
  card: { id: string };
  sales: { id: string };
  fees: { id: string };
  groceries: { id: string };
  receivables: { id: string };
  equity: { id: string };
}

export async function bankBooks(api: ApiFixture): Promise<BankBooks> {
  serial += 1;
  const currency = await createCurrency(api, { asset_scale: 2 });
  const account = (number: string, account_type: string, normal_balance: string, name: string) => createAccount(api, {
    account_number: `BK${serial}-${number}`, name, currency_id: currency.id, account_type, normal_balance,
  });
  return {
    currency,
    bank: await account('1000', 'asset', 'debit', 'Bank'),
    card: await account('2100', 'liability', 'credit', 'Card'),
    sales: await account('4000', 'revenue', 'credit', 'Sales'),
    fees: await account('6100', 'expense', 'debit', 'Bank fees'),
    groceries: await account('6200', 'expense', 'debit', 'Groceries'),
    receivables: await account('1200', 'asset', 'debit', 'Receivables'),
    equity: await account('3000', 'equity', 'credit', 'Opening balance'),
  };
}

/** A German-style CSV mapping: semicolons, decimal comma, DD.MM.YYYY, two preamble lines, a balance column. */
export const SEMICOLON_MAPPING = {
  delimiter: ';', skip_rows: 2, date_column: 'Buchungstag', date_format: 'DD.MM.YYYY', description_column: 'Verwendungszweck',
  amount_column: 'Betrag', decimal_separator: ',', balance_column: 'Saldo',
} as const;

/** A statement in that shape; each row is [date DD.MM.YYYY, description, amount, balance after it]. */
export function semicolonCsv(rows: readonly (readonly [string, string, string, string])[]): string {
  return ['Konto;DE00 1234 5678 9012 3456 78', 'Zeitraum;01.03.2026 - 31.03.2026', 'Buchungstag;Verwendungszweck;Betrag;Saldo',
    ...rows.map((row) => row.join(';'))].join('\n');
}

export function importCsv(api: ApiFixture, accountId: string, content: string, token?: string) {
  return api.request('POST', '/api/v1/bank-statements', { account_id: accountId, format: 'csv', content, csv: SEMICOLON_MAPPING },
    token === undefined ? {} : { token });
}

/** Every bank line the query selects, walking its pages. */
export async function bankLinesOf(api: ApiFixture, query: string): Promise<any[]> {
  return (await walkPages(api, `/api/v1/bank-lines?${query}`, { limit: 200 })).rows;
}
