import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/fixtures/domain.js';
import { parseCamtAmount, parseCsvAmount, parseOfxAmount, type CsvAmountOptions } from './statement-amount.js';

const POINT: CsvAmountOptions = { decimalSeparator: '.', scale: 2, currencyCode: 'EUR' };
const COMMA: CsvAmountOptions = { decimalSeparator: ',', scale: 2, currencyCode: 'EUR' };
// 2^127 - 1 and 2^127, written out.
const MAX_TEXT = '170141183460469231731687303715884105727';
const ABOVE_MAX_TEXT = '170141183460469231731687303715884105728';

describe('parseCsvAmount with a decimal point', () => {
  it.each([
    ['a plain amount', '12.30', 1230n],
    ['a whole amount', '12', 1200n],
    ['one fraction digit', '12.3', 1230n],
    ['a leading minus', '-12.30', -1230n],
    ['a leading plus', '+12.30', 1230n],
    ['the minus sign U+2212', '\u221212.30', -1230n],
    ['a trailing minus (some German banks)', '12.30-', -1230n],
    ['parentheses', '(12.30)', -1230n],
    ['comma grouping', '-1,234.56', -123456n],
    ['several groups', '1,234,567.89', 123456789n],
    ['space grouping', '1 234.56', 123456n],
    ['no-break space grouping', '1\u00A0234.56', 123456n],
    ['narrow no-break space grouping', '1\u202F234.56', 123456n],
    ['Swiss apostrophes', "1'234.50", 123450n],
    ['Indian grouping', '12,34,567.00', 123456700n],
    ['a dollar sign', '$12.30', 1230n],
    ['a dollar sign after the minus', '-$1,234.56', -123456n],
    ['a dollar sign before the minus', '$-12.30', -1230n],
    ['a dollar sign in parentheses', '($352.90)', -35290n],
    ['a pound sign', '£7.80', 780n],
    ['a euro sign after', '12.30 €', 1230n],
    ['the account currency code after', '12.30 EUR', 1230n],
    ['the account currency code before', 'EUR -12.30', -1230n],
    ['a credit mark', '12.30 CR', 1230n],
    ['a debit mark', '12.30 DR', -1230n],
    ['surrounding spaces', '  12.30  ', 1230n],
    ['a leading decimal point', '.50', 50n],
    ['zero', '0.00', 0n],
    ['negative zero', '-0.00', 0n],
    ['leading zeros', '0012.30', 1230n],
  ])('reads %s (%s)', (_name, text, expected) => {
    expect(parseCsvAmount(text, POINT)).toBe(expected);
  });

  it.each([
    ['two decimal points', '1.2.3', 'amount "1.2.3" is not an amount such as -1,234.56'],
    ['more fraction digits than the scale', '12.345', 'amount "12.345" has more than 2 decimal places'],
    ['an exponent', '1e5', 'amount "1e5" is not an amount such as -1,234.56'],
    ['two minus signs', '--5', 'amount "--5" is not an amount such as -1,234.56'],
    ['a minus sign and parentheses', '(-5.00)', 'amount "(-5.00)" is not an amount such as -1,234.56'],
    ['a leading and a trailing minus', '-5.00-', 'amount "-5.00-" is not an amount such as -1,234.56'],
    ['an empty cell', '', 'amount is empty'],
    ['spaces only', '   ', 'amount is empty'],
    ['a sign only', '-', 'amount "-" is not an amount such as -1,234.56'],
    ['a decimal comma read with a point (bad grouping)', '12,30', 'amount "12,30" is not an amount such as -1,234.56'],
    ['groups of the wrong size', '1,23,4.00', 'amount "1,23,4.00" is not an amount such as -1,234.56'],
    ['mixed grouping characters', "1,234'567.00", 'amount "1,234\'567.00" is not an amount such as -1,234.56'],
    ['a trailing decimal point', '12.', 'amount "12." is not an amount such as -1,234.56'],
    ['words', 'twelve', 'amount "twelve" is not an amount such as -1,234.56'],
    ['two currency marks', '$12.30 USD', 'amount "$12.30 USD" is not an amount such as -1,234.56'],
    ['another currency code', '12.30 USD', 'amount "12.30 USD" is in USD, not in the account\'s currency EUR'],
    ['a hexadecimal number', '0x10', 'amount "0x10" is not an amount such as -1,234.56'],
    ['infinity', 'Infinity', 'amount "Infinity" is not an amount such as -1,234.56'],
  ])('refuses %s (%s)', (_name, text, message) => {
    const error = thrownBy(() => parseCsvAmount(text, POINT));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toBe(message);
  });

  it('names the column it reads in the message', () => {
    expect(thrownBy(() => parseCsvAmount('x', POINT, 'debit')).message).toBe('debit "x" is not an amount such as -1,234.56');
  });
});

describe('parseCsvAmount with a decimal comma', () => {
  it.each([
    ['a German amount', '1.234,56', 123456n],
    ['a negative German amount', '-1.234,56', -123456n],
    ['a trailing minus', '12,30-', -1230n],
    ['a currency after', '12,30 EUR', 1230n],
    ['a euro sign and space grouping', '1 234,56 €', 123456n],
    ['no grouping', '1234,56', 123456n],
    ['points grouping a whole amount', '1.234.567', 123456700n],
  ])('reads %s (%s)', (_name, text, expected) => {
    expect(parseCsvAmount(text, COMMA)).toBe(expected);
  });

  it.each([
    ['a decimal point read with a comma', '12.30', 'amount "12.30" is not an amount such as -1.234,56'],
    ['two decimal commas', '1,2,3', 'amount "1,2,3" is not an amount such as -1.234,56'],
    ['three fraction digits', '12,345', 'amount "12,345" has more than 2 decimal places'],
  ])('refuses %s (%s)', (_name, text, message) => {
    expect(thrownBy(() => parseCsvAmount(text, COMMA)).message).toBe(message);
  });
});

describe('the 128-bit range and other scales', () => {
  it('reads 2^127 - 1 at scale 0 and refuses 2^127', () => {
    const options = { ...POINT, scale: 0 };
    expect(parseCsvAmount(MAX_TEXT, options)).toBe((1n << 127n) - 1n);
    expect(parseCsvAmount(`-${ABOVE_MAX_TEXT}`, options)).toBe(-(1n << 127n));
    expect(thrownBy(() => parseCsvAmount(ABOVE_MAX_TEXT, options)).message)
      .toBe(`amount "${ABOVE_MAX_TEXT}" is outside the signed 128-bit range`);
  });

  it('refuses a huge digit string before making a bigint of it', () => {
    const digits = '9'.repeat(5000);
    expect(thrownBy(() => parseCsvAmount(digits, POINT)).message).toMatch(/^amount "9{57}\.\.\." is outside the signed 128-bit range$/);
  });

  it('reads scale 0 and scale 3 exactly', () => {
    expect(parseCsvAmount('1,234', { ...POINT, scale: 0 })).toBe(1234n);
    expect(thrownBy(() => parseCsvAmount('12.5', { ...POINT, scale: 0 })).message).toBe('amount "12.5" has more than 0 decimal places');
    expect(parseCsvAmount('-1.005', { ...POINT, scale: 3 })).toBe(-1005n);
  });
});

describe('parseOfxAmount', () => {
  it.each([
    ['-12.30', -1230n],
    ['+500.00', 50000n],
    ['2450', 245000n],
    ['.42', 42n],
    ['-.50', -50n],
    ['-12,30', -1230n],
    ['12.', 1200n],
  ])('reads %s', (text, expected) => {
    expect(parseOfxAmount(text, 2, 'TRNAMT')).toBe(expected);
  });

  it.each([
    ['1,234.56', 'TRNAMT "1,234.56" is not an amount such as -1234.56'],
    ['1e5', 'TRNAMT "1e5" is not an amount such as -1234.56'],
    ['', 'TRNAMT "" is not an amount such as -1234.56'],
    ['-', 'TRNAMT "-" is not an amount such as -1234.56'],
    ['12.345', 'TRNAMT "12.345" has more than 2 decimal places'],
  ])('refuses %j', (text, message) => {
    expect(thrownBy(() => parseOfxAmount(text, 2, 'TRNAMT')).message).toBe(message);
  });
});

describe('parseCamtAmount', () => {
  it.each([
    ['2350.00', 235000n],
    ['0.30', 30n],
    ['7', 700n],
    ['+1.5', 150n],
  ])('reads %s', (text, expected) => {
    expect(parseCamtAmount(text, 2, 'Amt')).toBe(expected);
  });

  it.each([
    ['-5.00', 'Amt "-5.00" is negative, but CAMT amounts are unsigned (CdtDbtInd gives the direction)'],
    ['1,00', 'Amt "1,00" is not an amount such as 1234.56'],
    ['', 'Amt "" is not an amount such as 1234.56'],
    ['1.001', 'Amt "1.001" has more than 2 decimal places'],
  ])('refuses %j', (text, message) => {
    expect(thrownBy(() => parseCamtAmount(text, 2, 'Amt')).message).toBe(message);
  });
});
