/**
 * Amounts typed in the browser's locale: read exactly into minor units, or refused with a reason.
 * Plain vitest in Node, whose ICU knows the same locales as Chromium.
 */
import { describe, expect, it } from 'vitest';
import { formatAmountInput, numberFormatParts, parseAmountInput } from './money.js';

const USD = { code: 'USD', symbol: '$' };
const EUR = { code: 'EUR', symbol: '€' };
const MAX = (1n << 127n) - 1n;

const minor = (text: string, scale: number, locale: string, currency?: { code: string; symbol: string }) => {
  const parsed = parseAmountInput(text, scale, { locale, currency });
  return parsed.ok ? parsed.minor : `refused: ${parsed.message}`;
};

describe('numberFormatParts', () => {
  it.each([
    ['en-US', '.', ',', 3, 3],
    ['de-DE', ',', '.', 3, 3],
    ['en-IN', '.', ',', 3, 2],
  ])('reads the separators of %s from Intl', (locale, decimal, group, primary, secondary) => {
    expect(numberFormatParts(locale)).toMatchObject({ decimal, group, primaryGroupSize: primary, secondaryGroupSize: secondary });
  });

  it('finds a space-like group separator in fr-FR', () => {
    expect(numberFormatParts('fr-FR')).toMatchObject({ decimal: ',' });
    expect(numberFormatParts('fr-FR').group).toMatch(/^[\s\u00a0\u202f]$/);
  });
});

describe('parseAmountInput reads what the locale means', () => {
  it.each([
    ['1,234.56', 'en-US', 123456n],
    ['1234.56', 'en-US', 123456n],
    ['1,234,567.5', 'en-US', 123456750n],
    ['.5', 'en-US', 50n],
    ['7.', 'en-US', 700n],
    ['0.07', 'en-US', 7n],
    ['007', 'en-US', 700n],
    ['1.234,56', 'de-DE', 123456n],
    ['1234,56', 'de-DE', 123456n],
    ['12.345', 'de-DE', 1234500n],
    ['1 234,56', 'fr-FR', 123456n],
    ['1\u202f234,56', 'fr-FR', 123456n],
    ['1\u00a0234,56', 'fr-FR', 123456n],
    ["1'234.56", 'de-CH', 123456n],
    ['1\u2019234.56', 'de-CH', 123456n],
    ['12,34,567.89', 'en-IN', 1234567_89n],
    ['  250.00  ', 'en-US', 25000n],
  ])('%s in %s is %s minor units', (text, locale, expected) => {
    expect(minor(text, 2, locale)).toBe(expected);
  });

  it.each([
    ['$1,234.56', USD, 'en-US', 123456n],
    ['$ 1,234.56', USD, 'en-US', 123456n],
    ['1,234.56 $', USD, 'en-US', 123456n],
    ['USD 1,234.56', USD, 'en-US', 123456n],
    ['1,234.56usd', USD, 'en-US', 123456n],
    ['1.234,56 €', EUR, 'de-DE', 123456n],
    ['€1.234,56', EUR, 'de-DE', 123456n],
    ['EUR 12', EUR, 'de-DE', 1200n],
  ])('takes the entry currency\'s sign or code: %s', (text, currency, locale, expected) => {
    expect(minor(text, 2, locale, currency)).toBe(expected);
  });

  it('takes a currency sign before the currency is known, and names it once it is', () => {
    expect(minor('€12,50', 2, 'de-DE')).toBe(1250n);
    expect(minor('€12.50', 2, 'en-US', USD)).toBe('refused: This entry is in USD; "€" is not its currency. Remove it, or choose accounts in that currency');
    expect(minor('12.50 EUR', 2, 'en-US', USD)).toMatch(/^refused: This entry is in USD; "EUR" is not its currency/);
  });

  it('reads empty input as no amount', () => {
    expect(parseAmountInput('', 2, { locale: 'en-US' })).toEqual({ ok: true, minor: null });
    expect(parseAmountInput('   ', 2, { locale: 'en-US' })).toEqual({ ok: true, minor: null });
  });

  it('is exact up to the largest 128-bit amount and refuses one minor unit more', () => {
    expect(minor('1,701,411,834,604,692,317,316,873,037,158,841,057.27', 2, 'en-US')).toBe(MAX);
    expect(minor('1701411834604692317316873037158841057.27', 2, 'en-US')).toBe(MAX);
    expect(minor('170141183460469231731687303715884105727', 0, 'de-DE')).toBe(MAX);
    expect(minor('0.000000000000000001', 18, 'en-US')).toBe(1n);
    expect(minor('1701411834604692317316873037158841057.28', 2, 'en-US'))
      .toBe('refused: Too large: the largest amount is 1,701,411,834,604,692,317,316,873,037,158,841,057.27');
    expect(minor('9'.repeat(5000), 2, 'en-US')).toMatch(/^refused: Too large/);
  });
});

describe('parseAmountInput refuses what it cannot read, saying why', () => {
  it.each([
    ['1.234.56', 'en-US', 'Two decimal separators (".")'],
    ['1,23', 'en-US', 'Thousands separator in the wrong place: in this browser\'s number format (en-US) "." marks decimals and "," thousands (groups of 3 digits)'],
    ['1,5', 'en-US', 'Thousands separator in the wrong place'],
    ['1,2345', 'en-US', 'Thousands separator in the wrong place'],
    [',123', 'en-US', 'Thousands separator in the wrong place'],
    ['1,,234', 'en-US', 'Thousands separator in the wrong place'],
    ['1.5', 'de-DE', 'Thousands separator in the wrong place: in this browser\'s number format (de-DE) "," marks decimals and "." thousands'],
    ['1,234.56', 'de-DE', 'A thousands separator after the decimal separator: in this browser\'s number format (de-DE)'],
    ['1.5', 'fr-FR', '"." is not used in amounts here: in this browser\'s number format (fr-FR) "," marks decimals and a space thousands'],
    ['12.34.56', 'de-DE', 'Thousands separator in the wrong place'],
    ['1,2,3', 'de-DE', 'Two decimal separators (",")'],
    ['12abc', 'en-US', '"a" cannot be part of an amount; type digits, "." for decimals and "," between thousands'],
    ['12 apples', 'en-US', '"a" cannot be part of an amount'],
    ['1 234', 'en-US', 'A space cannot be part of an amount'],
    ['1e5', 'en-US', '"e" cannot be part of an amount'],
    ['0x10', 'en-US', '"x" cannot be part of an amount'],
    ['-5', 'en-US', 'Enter a positive amount; use the other column for the opposite side'],
    ['\u22125', 'en-US', 'Enter a positive amount'],
    ['(5.00)', 'en-US', 'Enter a positive amount'],
    ['5-', 'en-US', 'Enter a positive amount'],
    ['$', 'en-US', 'Enter a number'],
    ['.', 'en-US', 'Enter a number'],
    ['$5 $', 'en-US', 'Give the currency once, before or after the amount'],
  ])('%s in %s', (text, locale, message) => {
    const parsed = parseAmountInput(text, 2, { locale, currency: USD });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });

  it('refuses more decimals than the currency has, naming it', () => {
    expect(minor('1.234', 2, 'en-US', USD)).toBe('refused: USD has 2 decimal places; this amount has 3');
    expect(minor('12,5', 0, 'de-DE', { code: 'JPY', symbol: '¥' })).toBe('refused: JPY has no decimal places; enter a whole number');
    expect(minor('0.12', 1, 'en-US')).toBe('refused: This currency has 1 decimal place; this amount has 2');
  });
});

describe('formatAmountInput', () => {
  it.each([
    [123456n, 2, 'en-US', '1,234.56'],
    [123456n, 2, 'de-DE', '1.234,56'],
    [123456789n, 2, 'en-IN', '12,34,567.89'],
    [5n, 2, 'de-DE', '0,05'],
    [1234n, 0, 'en-US', '1,234'],
    [MAX, 2, 'de-DE', '1.701.411.834.604.692.317.316.873.037.158.841.057,27'],
  ])('writes %s at scale %s in %s as %s', (value, scale, locale, expected) => {
    expect(formatAmountInput(value, scale, locale)).toBe(expected);
  });

  it.each(['en-US', 'de-DE', 'fr-FR', 'de-CH', 'en-IN', 'es-ES', 'pl-PL'])('writes what parseAmountInput reads back in %s', (locale) => {
    for (const value of [1n, 99n, 100n, 123456n, 100000000n, 98765432101n, MAX]) {
      expect(minor(formatAmountInput(value, 2, locale), 2, locale)).toBe(value);
    }
  });
});
