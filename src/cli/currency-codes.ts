/**
 * The code of every currency by id, read once per command, so that what the CLI prints names
 * currencies as people know them (`USD`), never by id.
 */
import type { LedgerService } from '../service/ledger-service.js';
import { collect } from './paging.js';

/** The code of a currency; an id the ledger does not know is printed as it is. */
export type CurrencyCodes = (currencyId: string) => string;

export async function currencyCodes(service: LedgerService): Promise<CurrencyCodes> {
  const { data } = await collect((cursor) => service.listCurrencies({ limit: 200, cursor }), {});
  const codes = new Map(data.map((currency) => [currency.id, currency.code]));
  return (currencyId) => codes.get(currencyId) ?? currencyId;
}
