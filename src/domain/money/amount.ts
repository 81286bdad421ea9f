/**
 * Exact money: amounts are signed 128-bit integers of a currency's smallest unit, held as
 * `bigint` and carried across every boundary as decimal strings. This is the only module that
 * parses or formats amounts.
 */
import { validationError } from '../errors.js';

declare const minorUnitsBrand: unique symbol;
/** A signed amount in a currency's smallest unit, within the signed 128-bit range. */
export type AmountMinor = bigint & { readonly [minorUnitsBrand]: true };

export const MAX_AMOUNT = (1n << 127n) - 1n;
export const MIN_AMOUNT = -(1n << 127n);
export const ZERO = 0n as AmountMinor;

const NON_NEGATIVE_INTEGER = /^(0|[1-9][0-9]*)$/;
const MAX_AMOUNT_DIGITS = MAX_AMOUNT.toString().length;

export function isWithinRange(value: bigint): boolean {
  return value >= MIN_AMOUNT && value <= MAX_AMOUNT;
}

/** Narrows a bigint known to be in range (e.g. read back from our own storage). */
export function asAmount(value: bigint): AmountMinor {
  if (!isWithinRange(value)) {
    throw new RangeError(`amount ${value} is outside the signed 128-bit range`);
  }
  return value as AmountMinor;
}

/**
 * Parses a line amount as sent by a client: a JSON string of digits, no sign, no decimal point,
 * no exponent, no leading zeros, at most 2^127 - 1. `null`/absent is returned as `undefined`.
 */
export function parseLineAmount(raw: unknown, field: string): AmountMinor | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') {
    throw validationError(`${field} must be a string of digits, not a JSON ${typeof raw}`, field,
      'Send amounts as strings in the smallest currency unit, e.g. "25000" for 250.00');
  }
  if (!NON_NEGATIVE_INTEGER.test(raw)) {
    throw validationError(`${field} must be a non-negative integer string without sign, decimal point, exponent or leading zeros`,
      field, 'Send the amount in the smallest currency unit, e.g. "25000" for 250.00 with 2 decimal places');
  }
  // Compare digit counts first so a million-digit string never becomes a bigint.
  if (raw.length > MAX_AMOUNT_DIGITS || BigInt(raw) > MAX_AMOUNT) {
    throw validationError(`${field} exceeds the largest amount, 2^127 - 1`, field,
      'Split the amount over several entries');
  }
  return BigInt(raw) as AmountMinor;
}

const STORED_INTEGER = /^-?(0|[1-9][0-9]*)$/;

/**
 * Parses an amount or total read back from storage (produced by `toDecimalString`, or a
 * database's numeric text). Every adapter reads every stored amount through here, so a value
 * edited behind the service's back into something that is not an integer, or out of the signed
 * 128-bit range, fails loudly instead of being summed.
 */
export function parseStoredAmount(text: string): AmountMinor {
  if (!STORED_INTEGER.test(text) || text.length > MAX_AMOUNT_DIGITS + 1) {
    throw new RangeError(`stored amount ${JSON.stringify(text.slice(0, 60))} is not an integer within the signed 128-bit range`);
  }
  return asAmount(BigInt(text));
}

export function toDecimalString(value: bigint): string {
  return value.toString();
}

/** Adds two amounts, or returns `undefined` when the result would leave the 128-bit range. */
export function addChecked(a: bigint, b: bigint): AmountMinor | undefined {
  const sum = a + b;
  return isWithinRange(sum) ? (sum as AmountMinor) : undefined;
}

/**
 * Formats an amount with exactly `scale` fraction digits, no grouping and no symbol:
 * 25000 at scale 2 is "250.00", -5 at scale 2 is "-0.05".
 */
export function formatAmount(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  if (scale === 0) return negative ? `-${digits}` : digits;
  const padded = digits.padStart(scale + 1, '0');
  const whole = padded.slice(0, padded.length - scale);
  const fraction = padded.slice(padded.length - scale);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/**
 * Parses a decimal in major units ("250.00", "-0.05", "12") into minor units at `scale`,
 * exactly. More fraction digits than the scale allows is an error, never a rounding.
 */
export function parseMajorUnits(text: string, scale: number, field: string): AmountMinor {
  const match = /^(-)?([0-9]+)(?:\.([0-9]+))?$/.exec(text.trim());
  if (!match) {
    throw validationError(`${field} must be a decimal number such as 250.00`, field);
  }
  const [, sign, whole = '0', fraction = ''] = match;
  if (fraction.length > scale) {
    throw validationError(`${field} has more than ${scale} decimal places`, field,
      `Use at most ${scale} digits after the decimal point`);
  }
  const minor = BigInt(whole + fraction.padEnd(scale, '0')) * (sign ? -1n : 1n);
  if (!isWithinRange(minor)) {
    throw validationError(`${field} is outside the signed 128-bit range`, field);
  }
  return minor as AmountMinor;
}

/** What a message needs to name an amount as a person writes it: the currency's code and scale. */
export interface CurrencyLabel {
  code: string;
  asset_scale: number;
}

/**
 * An amount as people write it in a sentence: formatted at the currency's scale and followed by
 * its code, 9240 in USD is "92.40 USD". Error messages name amounts this way; the raw minor units
 * stay in the fields the caller sent.
 */
export function formatWithCode(value: bigint, currency: CurrencyLabel): string {
  return `${formatAmount(value, currency.asset_scale)} ${currency.code}`;
}
