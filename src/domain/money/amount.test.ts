import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/fixtures/domain.js';
import {
  MAX_AMOUNT, MIN_AMOUNT, addChecked, asAmount, formatAmount, formatWithCode, parseLineAmount, parseMajorUnits,
} from './amount.js';


// 2^127 - 1 and -2^127 written out, so a mistake in the constants cannot hide behind itself.
const MAX_TEXT = '170141183460469231731687303715884105727';
const MIN_TEXT = '-170141183460469231731687303715884105728';
const ABOVE_MAX_TEXT = '170141183460469231731687303715884105728';

describe('the 128-bit range constants', () => {
  it('are 2^127 - 1 and -2^127', () => {
    expect(MAX_AMOUNT.toString()).toBe(MAX_TEXT);
    expect(MIN_AMOUNT.toString()).toBe(MIN_TEXT);
  });
});

describe('parseLineAmount', () => {
  const field = 'lines[1].credit_amount';

  it.each([
    ['zero', '0', 0n],
    ['a single digit', '7', 7n],
    ['a typical amount', '25000', 25000n],
    ['the largest amount, 2^127 - 1', MAX_TEXT, MAX_AMOUNT],
    ['one below the largest amount', '170141183460469231731687303715884105726', MAX_AMOUNT - 1n],
    ['a 39-digit string starting with 1', '100000000000000000000000000000000000000', 10n ** 38n],
  ])('accepts %s', (_name, raw, expected) => {
    expect(parseLineAmount(raw, field)).toBe(expected);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
  ])('treats %s as an absent side', (_name, raw) => {
    expect(parseLineAmount(raw, field)).toBeUndefined();
  });

  it.each([
    ['a JSON number', 100],
    ['a JSON zero', 0],
    ['a JSON float', 1.5],
    ['a bigint', 100n],
    ['a boolean', true],
    ['an object', { amount: '100' }],
    ['an array', ['100']],
    ['an empty string', ''],
    ['a minus sign', '-100'],
    ['negative zero', '-0'],
    ['a plus sign', '+100'],
    ['a decimal point', '100.00'],
    ['a trailing decimal point', '100.'],
    ['a leading decimal point', '.5'],
    ['a decimal comma', '100,00'],
    ['a lower-case exponent', '1e5'],
    ['an upper-case exponent', '1E5'],
    ['a leading zero', '0100'],
    ['a doubled zero', '00'],
    ['a leading space', ' 100'],
    ['a trailing space', '100 '],
    ['a trailing newline', '100\n'],
    ['an inner space', '1 000'],
    ['digit grouping with underscores', '1_000'],
    ['a hexadecimal literal', '0x10'],
    ['a bigint literal suffix', '100n'],
    ['letters', 'abc'],
    ['full-width digits', '\uFF11\uFF10\uFF10'],
    ['Infinity', 'Infinity'],
    ['NaN', 'NaN'],
  ])('rejects %s as a validation error naming the field', (_name, raw) => {
    const error = thrownBy(() => parseLineAmount(raw, field));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe(field);
  });

  it.each([
    ['one above 2^127 - 1', ABOVE_MAX_TEXT],
    ['2^128', (1n << 128n).toString()],
    ['a 39-digit string of nines', '9'.repeat(39)],
    ['a 40-digit string', '1' + '0'.repeat(39)],
    ['a million-digit string', '9'.repeat(1_000_000)],
  ])('rejects %s as beyond the largest amount', (_name, raw) => {
    const error = thrownBy(() => parseLineAmount(raw, field));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe(field);
    expect(error.message).toContain('exceeds the largest amount');
  });
});

describe('formatAmount', () => {
  it.each([
    [0n, 0, '0'],
    [5n, 0, '5'],
    [-5n, 0, '-5'],
    [25000n, 0, '25000'],
    [0n, 2, '0.00'],
    [5n, 2, '0.05'],
    [-5n, 2, '-0.05'],
    [50n, 2, '0.50'],
    [-50n, 2, '-0.50'],
    [99n, 2, '0.99'],
    [100n, 2, '1.00'],
    [-100n, 2, '-1.00'],
    [25000n, 2, '250.00'],
    [-25000n, 2, '-250.00'],
    [123456789n, 2, '1234567.89'],
    [1n, 18, '0.000000000000000001'],
    [-1n, 18, '-0.000000000000000001'],
    [10n ** 18n, 18, '1.000000000000000000'],
    [1_500_000_000_000_000_000n, 18, '1.500000000000000000'],
    [0n, 38, '0.00000000000000000000000000000000000000'],
    [1n, 38, '0.00000000000000000000000000000000000001'],
    [-1n, 38, '-0.00000000000000000000000000000000000001'],
  ])('formats %s at scale %s as %s', (value, scale, expected) => {
    expect(formatAmount(value, scale)).toBe(expected);
  });

  it.each([
    [MAX_AMOUNT, 0, MAX_TEXT],
    [MIN_AMOUNT, 0, MIN_TEXT],
    [MAX_AMOUNT, 2, '1701411834604692317316873037158841057.27'],
    [MIN_AMOUNT, 2, '-1701411834604692317316873037158841057.28'],
    [MAX_AMOUNT, 18, '170141183460469231731.687303715884105727'],
    [MIN_AMOUNT, 18, '-170141183460469231731.687303715884105728'],
    [MAX_AMOUNT, 38, '1.70141183460469231731687303715884105727'],
    [MIN_AMOUNT, 38, '-1.70141183460469231731687303715884105728'],
    [MAX_AMOUNT, 39, '0.170141183460469231731687303715884105727'],
    [MIN_AMOUNT, 39, '-0.170141183460469231731687303715884105728'],
  ])('formats the range edge %s at scale %s exactly', (value, scale, expected) => {
    expect(formatAmount(value, scale)).toBe(expected);
  });
});

describe('parseMajorUnits', () => {
  const field = 'amount';

  it.each([
    ['250.00', 2, 25000n],
    ['250', 2, 25000n],
    ['250.5', 2, 25050n],
    ['0.05', 2, 5n],
    ['-0.05', 2, -5n],
    ['-250.00', 2, -25000n],
    ['0', 2, 0n],
    ['-0', 2, 0n],
    ['12', 0, 12n],
    ['-12', 0, -12n],
    ['007.10', 2, 710n],
    ['  1.25  ', 2, 125n],
    ['0.000000000000000001', 18, 1n],
    ['1.5', 18, 1_500_000_000_000_000_000n],
    ['0.1', 38, 10n ** 37n],
    [MAX_TEXT, 0, MAX_AMOUNT],
    [MIN_TEXT, 0, MIN_AMOUNT],
    ['1701411834604692317316873037158841057.27', 2, MAX_AMOUNT],
    ['-1701411834604692317316873037158841057.28', 2, MIN_AMOUNT],
    ['1.70141183460469231731687303715884105727', 38, MAX_AMOUNT],
  ])('converts %s at scale %s to exactly %s minor units', (text, scale, expected) => {
    expect(parseMajorUnits(text, scale, field)).toBe(expected);
  });

  it.each([
    ['0.5', 0],
    ['1.001', 2],
    ['-0.001', 2],
    ['1.0000000000000000001', 18],
    // A zero past the scale is still too many digits: the rule is about digits, not value.
    ['1.000', 2],
  ])('rejects %s at scale %s for having too many decimal places', (text, scale) => {
    const error = thrownBy(() => parseMajorUnits(text, scale, field));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe(field);
    expect(error.message).toBe(`${field} has more than ${scale} decimal places`);
  });

  it.each([
    [ABOVE_MAX_TEXT, 0],
    ['-170141183460469231731687303715884105729', 0],
    ['1701411834604692317316873037158841057.28', 2],
    ['-1701411834604692317316873037158841057.29', 2],
    ['2', 38],
    ['-2', 38],
  ])('rejects %s at scale %s as outside the 128-bit range', (text, scale) => {
    const error = thrownBy(() => parseMajorUnits(text, scale, field));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe(field);
    expect(error.message).toContain('outside the signed 128-bit range');
  });

  it.each([
    [''],
    ['   '],
    ['abc'],
    ['+1.00'],
    ['1.'],
    ['.5'],
    ['1,00'],
    ['1e2'],
    ['1.2.3'],
    ['--1'],
    ['1 000'],
  ])('rejects the malformed decimal %j', (text) => {
    const error = thrownBy(() => parseMajorUnits(text, 2, field));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe(field);
    expect(error.message).toBe(`${field} must be a decimal number such as 250.00`);
  });
});

describe('addChecked', () => {
  it.each([
    [1n, 2n, 3n],
    [-5n, 5n, 0n],
    [MAX_AMOUNT, 0n, MAX_AMOUNT],
    [MAX_AMOUNT - 1n, 1n, MAX_AMOUNT],
    [MIN_AMOUNT, 0n, MIN_AMOUNT],
    [MIN_AMOUNT + 1n, -1n, MIN_AMOUNT],
    [MAX_AMOUNT, MIN_AMOUNT, -1n],
    [MAX_AMOUNT, -MAX_AMOUNT, 0n],
  ])('adds %s and %s to %s', (a, b, expected) => {
    expect(addChecked(a, b)).toBe(expected);
  });

  it.each([
    [MAX_AMOUNT, 1n],
    [1n, MAX_AMOUNT],
    [MAX_AMOUNT, MAX_AMOUNT],
    [MIN_AMOUNT, -1n],
    [-1n, MIN_AMOUNT],
    [MIN_AMOUNT, MIN_AMOUNT],
  ])('returns undefined when %s + %s leaves the range', (a, b) => {
    expect(addChecked(a, b)).toBeUndefined();
  });
});

describe('asAmount', () => {
  it.each([
    [0n],
    [MAX_AMOUNT],
    [MIN_AMOUNT],
    [-1n],
  ])('accepts %s', (value) => {
    expect(asAmount(value)).toBe(value);
  });

  it.each([
    [MAX_AMOUNT + 1n],
    [MIN_AMOUNT - 1n],
    [1n << 200n],
  ])('rejects %s with a RangeError', (value) => {
    expect(() => asAmount(value)).toThrow(RangeError);
    expect(() => asAmount(value)).toThrow(`amount ${value} is outside the signed 128-bit range`);
  });
});

describe('formatWithCode', () => {
  it.each<[bigint, string, number, string]>([
    [9240n, 'USD', 2, '92.40 USD'],
    [-5n, 'USD', 2, '-0.05 USD'],
    [300n, 'JPY', 0, '300 JPY'],
    [1n, 'BTC', 8, '0.00000001 BTC'],
  ])('writes %s minor units of %s (scale %s) as %s', (value, code, scale, expected) => {
    expect(formatWithCode(value, { code, asset_scale: scale })).toBe(expected);
  });
});
