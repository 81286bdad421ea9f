/**
 * What the bank and reconciliation commands print about the accounts they show: number, name,
 * currency code and the currency's scale (for amounts typed in major units). Read once per command
 * from the chart of accounts and the currencies.
 */
import type { LedgerService } from '../service/ledger-service.js';
import { collect } from './paging.js';

export interface AccountLabel {
  id: string;
  number: string;
  name: string;
  currencyCode: string;
  scale: number;
  /** The side that increases the balance: a bank (asset) is debit, a card (liability) credit. */
  normalBalance: 'debit' | 'credit';
}

export interface AccountLabels {
  of(id: string): AccountLabel | undefined;
  /** "1000 Bank", or the id itself for an account that does not exist. */
  name(id: string | null): string;
  /** The code of the account's currency, or '' when unknown. */
  currencyCode(id: string): string;
}

export async function accountLabels(service: LedgerService): Promise<AccountLabels> {
  const [accounts, { data: currencies }] = await Promise.all([
    service.chartOfAccounts(),
    collect((cursor) => service.listCurrencies({ limit: 200, cursor }), {}),
  ]);
  const currencyById = new Map(currencies.map((currency) => [currency.id, currency]));
  const byId = new Map(accounts.map((account) => {
    const currency = currencyById.get(account.currency_id);
    return [account.id, { id: account.id, number: account.account_number, name: account.name, currencyCode: currency?.code ?? '',
      scale: currency?.asset_scale ?? 0, normalBalance: account.normal_balance }];
  }));
  return {
    of: (id) => byId.get(id),
    name: (id) => {
      if (id === null) return '';
      const label = byId.get(id);
      return label === undefined ? id : `${label.number} ${label.name}`;
    },
    currencyCode: (id) => byId.get(id)?.currencyCode ?? '',
  };
}
