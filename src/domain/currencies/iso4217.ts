/**
 * Fiat currencies from their ISO 4217 code, with name, symbol and decimal places taken from the
 * Unicode CLDR data that ships with the JavaScript runtime (Intl), not from a hand-typed table.
 */
import { validationError } from '../errors.js';

export interface FiatCurrency {
  code: string;
  name: string;
  symbol: string;
  asset_scale: number;
  asset_type: 'fiat';
  caip19_id: string;
}

export function fiatCurrency(codeInput: string): FiatCurrency {
  const code = codeInput.trim().toUpperCase();
  const name = /^[A-Z]{3}$/.test(code)
    ? new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'none' }).of(code)
    : undefined;
  if (name === undefined) {
    throw validationError(`${codeInput} is not an ISO 4217 currency code`, 'code',
      'Use a three-letter code such as USD, EUR or JPY; for other assets use `currencies create`');
  }
  const format = new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' });
  const symbol = format.formatToParts(1).find((part) => part.type === 'currency')?.value ?? code;
  return {
    code,
    name,
    symbol,
    asset_scale: format.resolvedOptions().maximumFractionDigits ?? 2,
    asset_type: 'fiat',
    caip19_id: `swift:0/iso4217:${code}`,
  };
}
