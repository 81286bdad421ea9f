/**
 * Exchange rates, exact: a rate is the value of one major unit of a currency in the base currency,
 * a positive decimal with at most 12 fraction digits. It is kept as text in its canonical form and
 * computed with as an integer count of 10^-12 (never a float). Translating an amount rounds once,
 * half to even, to the base currency's scale.
 */
import { validationError } from '../errors.js';

/** Fraction digits a rate may have. */
export const RATE_SCALE = 12;
const RATE_UNIT = 10n ** BigInt(RATE_SCALE);
/** A rate's integer part may have at most this many digits (a rate of 10^18 is already absurd). */
const MAX_INTEGER_DIGITS = 18;

/** A rate as an exact integer count of 10^-12. */
export type RateUnits = bigint & { readonly __rate: unique symbol };

/**
 * Reads a rate as written (`1.0842`, `0.00001234`, `150`), refusing anything but a positive decimal
 * with at most 12 fraction digits; answers its canonical text (no leading zeros, no trailing
 * fraction zeros: `01.50` is `1.5`) and its units.
 */
export function parseRate(raw: unknown, field = 'rate'): { text: string; units: RateUnits } {
  const suggestion = 'Give the value of one unit of the currency in the base currency as a decimal string, e.g. "1.0842"';
  if (typeof raw !== 'string') throw validationError(`${field} must be a decimal string`, field, suggestion);
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(raw);
  if (!match) throw validationError(`${field} must be a positive decimal number such as 1.0842, not ${JSON.stringify(raw.slice(0, 40))}`, field, suggestion);
  const integer = match[1]!.replace(/^0+(?=[0-9])/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > RATE_SCALE) {
    throw validationError(`${field} has ${match[2]!.length} decimal places; at most ${RATE_SCALE} are kept`, field,
      `Round the rate to ${RATE_SCALE} decimal places`);
  }
  if (integer.length > MAX_INTEGER_DIGITS) throw validationError(`${field} is too large`, field, suggestion);
  const units = BigInt(integer) * RATE_UNIT + BigInt(fraction.padEnd(RATE_SCALE, '0') || '0');
  if (units === 0n) throw validationError(`${field} must be greater than zero`, field, suggestion);
  return { text: fraction === '' ? integer : `${integer}.${fraction}`, units: units as RateUnits };
}

/** The units of a rate stored in its canonical text. */
export function rateUnits(text: string): RateUnits {
  return parseRate(text).units;
}

/** `numerator / denominator` rounded half to even (denominator > 0). */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / denominator;
  const twiceRemainder = (magnitude % denominator) * 2n;
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) quotient += 1n;
  return negative ? -quotient : quotient;
}

/**
 * An amount in minor units of a currency with scale `fromScale`, in minor units of the base
 * currency (scale `toScale`) at `rate`: amount × rate / 10^12, moved between the scales, rounded
 * once, half to even.
 */
export function toBaseMinor(amount: bigint, rate: RateUnits, fromScale: number, toScale: number): bigint {
  const shift = toScale - fromScale;
  const numerator = amount * rate * (shift > 0 ? 10n ** BigInt(shift) : 1n);
  const denominator = RATE_UNIT * (shift < 0 ? 10n ** BigInt(-shift) : 1n);
  return divideHalfEven(numerator, denominator);
}
