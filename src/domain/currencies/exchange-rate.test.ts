import { describe, expect, it } from 'vitest';
import { LedgerError } from '../errors.js';
import { divideHalfEven, parseRate, rateUnits, toBaseMinor } from './exchange-rate.js';

describe('parseRate', () => {
  it('keeps a rate exact, in canonical text', () => {
    expect(parseRate('1.0842')).toEqual({ text: '1.0842', units: 1_084_200_000_000n });
    expect(parseRate('01.50').text).toBe('1.5');
    expect(parseRate('150').text).toBe('150');
    expect(parseRate('150.000').text).toBe('150');
    expect(parseRate('0.000000000001')).toEqual({ text: '0.000000000001', units: 1n });
    expect(parseRate('0.100000000000000').text).toBe('0.1');
  });

  it.each([['0'], ['0.000'], ['-1.1'], ['1,08'], ['1e3'], [''], ['.5'], ['1.'], ['0.0000000000001'], ['1234567890123456789'], [1.08]])(
    'refuses %j', (raw) => {
      expect(() => parseRate(raw)).toThrow(LedgerError);
    });

  it('reads stored text back', () => {
    expect(rateUnits('1.1')).toBe(1_100_000_000_000n);
  });
});

describe('divideHalfEven', () => {
  it.each([
    [5n, 2n, 2n], [7n, 2n, 4n], [-5n, 2n, -2n], [-7n, 2n, -4n], [10n, 4n, 2n], [14n, 4n, 4n], [11n, 4n, 3n], [9n, 4n, 2n], [0n, 3n, 0n],
  ])('%s / %s = %s', (numerator, denominator, expected) => {
    expect(divideHalfEven(numerator, denominator)).toBe(expected);
  });
});

describe('toBaseMinor', () => {
  it('translates at the rate, rounding once half to even, across scales', () => {
    // 3,000.00 EUR at 1.082 = 3,246.00 USD.
    expect(toBaseMinor(300_000n, rateUnits('1.082'), 2, 2)).toBe(324_600n);
    // 0.05 at 1.1 = 0.055 -> 0.06 (6 is even); 0.15 at 1.1 = 0.165 -> 0.16.
    expect(toBaseMinor(5n, rateUnits('1.1'), 2, 2)).toBe(6n);
    expect(toBaseMinor(15n, rateUnits('1.1'), 2, 2)).toBe(16n);
    expect(toBaseMinor(-15n, rateUnits('1.1'), 2, 2)).toBe(-16n);
    // 1,000 JPY (scale 0) at 0.0067 = 6.70 USD; 1 BTC (scale 8) at 65000.5 = 65,000.50 USD.
    expect(toBaseMinor(1000n, rateUnits('0.0067'), 0, 2)).toBe(670n);
    expect(toBaseMinor(100_000_000n, rateUnits('65000.5'), 8, 2)).toBe(6_500_050n);
    // Past 2^64 stays exact.
    expect(toBaseMinor(2n ** 100n, rateUnits('2'), 2, 2)).toBe(2n ** 101n);
  });
});
