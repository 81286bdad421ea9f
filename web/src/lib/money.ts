/**
 * Money in the UI, on top of the server's own money module (src/domain/money/amount.ts, which is
 * pure and bundles as is): amounts stay bigint minor units, typed text is parsed exactly with
 * parseMajorUnits, never through a floating-point number.
 */
import { formatAmount, MAX_AMOUNT, parseMajorUnits } from '../../../src/domain/money/amount.js';

/** "1234567.50" -> "1,234,567.50": groups the whole part of an already formatted amount. */
export function groupDigits(display: string): string {
  const negative = display.startsWith('-');
  const unsigned = negative ? display.slice(1) : display;
  const [whole = '0', fraction] = unsigned.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}

/** Formats minor units for the screen: exact digits, thousands grouped. */
export function displayMinor(value: bigint | string, scale: number): string {
  return groupDigits(formatAmount(typeof value === 'bigint' ? value : BigInt(value), scale));
}

export type ParsedAmount = { ok: true; minor: bigint } | { ok: false; message: string } | { ok: true; minor: null };

/**
 * Parses an amount typed in major units ("250.00", "1,250.5") into minor units at `scale`.
 * Empty input is "no amount" (minor: null). Negative amounts and too many decimals are refused.
 */
export function parseAmountInput(text: string, scale: number): ParsedAmount {
  const cleaned = text.replace(/[,\s_]/g, '');
  if (cleaned === '') return { ok: true, minor: null };
  if (cleaned.startsWith('-')) return { ok: false, message: 'Enter a positive amount; use the other column for the opposite side' };
  try {
    const minor = parseMajorUnits(cleaned, scale, 'amount');
    if (minor > MAX_AMOUNT) return { ok: false, message: 'This amount is too large' };
    return { ok: true, minor };
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^amount /, '') : 'Not a valid amount';
    return { ok: false, message: capitalise(message) };
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Sums integer strings exactly. */
export function sumMinor(values: Iterable<string | bigint>): bigint {
  let total = 0n;
  for (const value of values) total += typeof value === 'bigint' ? value : BigInt(value);
  return total;
}

export function absolute(value: bigint): bigint {
  return value < 0n ? -value : value;
}
