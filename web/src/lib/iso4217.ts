/**
 * ISO 4217 currencies from the browser's own Intl data (no table shipped): codes, English
 * names, symbols and the number of minor-unit digits.
 */
export interface FiatCurrency {
  code: string;
  name: string;
  symbol: string;
  scale: number;
}

let cached: FiatCurrency[] | undefined;

export function fiatCurrencies(): FiatCurrency[] {
  if (cached) return cached;
  const codes = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : ['USD', 'EUR', 'GBP', 'JPY', 'CHF'];
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  cached = codes.map((code) => describeFiat(code, names)).filter((row): row is FiatCurrency => row !== null);
  return cached;
}

function describeFiat(code: string, names: Intl.DisplayNames): FiatCurrency | null {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' });
    const symbol = format.formatToParts(0).find((part) => part.type === 'currency')?.value ?? code;
    return { code, name: names.of(code) ?? code, symbol, scale: format.resolvedOptions().maximumFractionDigits ?? 2 };
  } catch {
    return null;
  }
}

export function fiatCaip19(code: string): string {
  return `swift:0/iso4217:${code.toUpperCase()}`;
}
