/**
 * Money in the UI, on top of the server's own money module (src/domain/money/amount.ts, which is
 * pure and bundles as is): amounts stay bigint minor units, and typed text is read exactly, by
 * string arithmetic, never through a floating-point number.
 *
 * Two conventions meet here. Amounts the app shows (reports, lists) use the API's display form
 * with "," between thousands (`displayMinor`). Amounts a person types are read in the browser's
 * own convention (`parseAmountInput`): "1,234.56" in en-US, "1.234,56" in de-DE, "1 234,56" in
 * fr-FR, with the separators taken from Intl, and written back in it (`formatAmountInput`).
 */
import { formatAmount, MAX_AMOUNT } from '../../../src/domain/money/amount.js';

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

// ---------------------------------------------------------------------------------------------
// Amounts as people type them, in their browser's locale

/** How a locale writes numbers with Latin digits: "1,234,567.5" gives decimal ".", group ",", sizes 3 and 3. */
export interface NumberFormatParts {
  locale: string;
  decimal: string;
  group: string;
  /** Digits in the group next to the decimal separator (3 nearly everywhere). */
  primaryGroupSize: number;
  /** Digits in the groups further left (2 in en-IN: "12,34,567"). */
  secondaryGroupSize: number;
}

/** The locale the browser formats numbers in (Playwright's `locale`, the user's language settings). */
export function browserLocale(): string {
  return new Intl.NumberFormat().resolvedOptions().locale;
}

const partsCache = new Map<string, NumberFormatParts>();

/**
 * The separators of `locale`, read from Intl by formatting a sample number (a constant, not money).
 * Latin digits are asked for, since amounts are typed with 0-9 everywhere in this app.
 */
export function numberFormatParts(locale: string = browserLocale()): NumberFormatParts {
  const cached = partsCache.get(locale);
  if (cached) return cached;
  const parts = new Intl.NumberFormat(locale, { numberingSystem: 'latn', useGrouping: true }).formatToParts(1234567.5);
  const integers = parts.filter((part) => part.type === 'integer').map((part) => part.value.length);
  const primaryGroupSize = integers.at(-1) ?? 3;
  const result: NumberFormatParts = {
    locale,
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
    group: parts.find((part) => part.type === 'group')?.value ?? ',',
    primaryGroupSize,
    secondaryGroupSize: integers.length >= 3 ? integers.at(-2)! : primaryGroupSize,
  };
  partsCache.set(locale, result);
  return result;
}

export type ParsedAmount = { ok: true; minor: bigint } | { ok: false; message: string } | { ok: true; minor: null };

export interface AmountInputOptions {
  /** Defaults to the browser's locale. */
  locale?: string;
  /** The entry's currency, when known: its symbol or code may be typed before or after the amount. */
  currency?: { code: string; symbol: string } | undefined;
}

/** Characters that count as a space: people type a plain space where fr-FR formats U+202F. */
const SPACES = /[\s\u00a0\u2007\u2009\u202f]/;
const APOSTROPHES = /['\u2019]/;
const MINUS = /^[-\u2212]|[-\u2212]$/;

/** Whether `char` is the locale's group separator, counting look-alikes (any space, either apostrophe). */
function isGroupChar(char: string, group: string): boolean {
  if (char === group) return true;
  if (SPACES.test(group)) return SPACES.test(char);
  if (APOSTROPHES.test(group)) return APOSTROPHES.test(char);
  return false;
}

const quote = (text: string) => `"${text}"`;

/**
 * Reads an amount typed in major units into minor units at `scale`, in the separators of the
 * browser's locale, with an optional currency symbol or code before or after it ("$1,234.56",
 * "1.234,56 €", "EUR 12"). Empty input is "no amount" (minor: null). Anything that could be read
 * two ways, or not at all, is refused with a message that says why: a second decimal separator,
 * a group separator in the wrong place ("1,5" in en-US is not one and a half), more decimals
 * than the currency has, letters, another currency's sign, a negative amount, or more than the
 * largest amount (2^127 - 1 minor units).
 */
export function parseAmountInput(text: string, scale: number, options: AmountInputOptions = {}): ParsedAmount {
  const format = numberFormatParts(options.locale);
  const currency = options.currency;
  let body = text.trim();
  if (body === '') return { ok: true, minor: null };

  let negative = false;
  if (body.startsWith('(') && body.endsWith(')')) { negative = true; body = body.slice(1, -1).trim(); }
  const takeSign = () => {
    if (MINUS.test(body)) { negative = true; body = body.replace(MINUS, '').trim(); }
    else if (body.startsWith('+')) body = body.slice(1).trim();
  };
  takeSign();
  const leading = takeCurrencyMarker(body, 'start', currency);
  if (!leading.ok) return leading;
  body = leading.rest;
  takeSign();
  const trailing = takeCurrencyMarker(body, 'end', currency);
  if (!trailing.ok) return trailing;
  body = trailing.rest;
  takeSign();
  if (leading.marker !== undefined && trailing.marker !== undefined) {
    return { ok: false, message: 'Give the currency once, before or after the amount' };
  }
  if (negative) return { ok: false, message: 'Enter a positive amount; use the other column for the opposite side' };
  if (body === '') return { ok: false, message: 'Enter a number' };

  const digits = readDigits(body, format);
  if (!digits.ok) return digits;
  const { whole, fraction } = digits;
  if (fraction.length > scale) {
    const name = currency?.code ?? 'This currency';
    return {
      ok: false,
      message: scale === 0
        ? `${name} has no decimal places; enter a whole number`
        : `${name} has ${scale} decimal place${scale === 1 ? '' : 's'}; this amount has ${fraction.length}`,
    };
  }
  const minorDigits = (whole + fraction.padEnd(scale, '0')).replace(/^0+(?=\d)/, '');
  // Compare lengths first, so a pasted page of digits never becomes a bigint.
  if (minorDigits.length > MAX_AMOUNT.toString().length || BigInt(minorDigits) > MAX_AMOUNT) {
    return { ok: false, message: `Too large: the largest amount is ${formatAmountInput(MAX_AMOUNT, scale, format.locale)}` };
  }
  return { ok: true, minor: BigInt(minorDigits) };
}

type MarkerResult = { ok: true; rest: string; marker: string | undefined } | { ok: false; message: string };

/**
 * Removes a currency symbol or code from one end of `body`. The entry's own symbol or code is
 * taken; another currency's ("€" on a USD entry) is refused by name; other letters are left in
 * place for the digit check to report.
 */
function takeCurrencyMarker(body: string, end: 'start' | 'end', currency: AmountInputOptions['currency']): MarkerResult {
  const own = currency ? [currency.symbol, currency.code].filter((marker) => marker.trim() !== '') : [];
  for (const marker of own.sort((a, b) => b.length - a.length)) {
    const piece = end === 'start' ? body.slice(0, marker.length) : body.slice(body.length - marker.length);
    if (piece.toLocaleUpperCase() === marker.toLocaleUpperCase()) {
      const rest = (end === 'start' ? body.slice(marker.length) : body.slice(0, body.length - marker.length)).trim();
      return { ok: true, rest, marker };
    }
  }
  // Anything else that looks like a currency: a run of currency signs, or an ISO code (three capitals).
  const pattern = end === 'start' ? /^(\p{Sc}+|[A-Z]{3}(?![A-Za-z]))/u : /(\p{Sc}+|(?<![A-Za-z])[A-Z]{3})$/u;
  const found = pattern.exec(body)?.[0];
  if (found === undefined) return { ok: true, rest: body, marker: undefined };
  if (currency) {
    return { ok: false, message: `This entry is in ${currency.code}; ${quote(found)} is not its currency. Remove it, or choose accounts in that currency` };
  }
  const rest = (end === 'start' ? body.slice(found.length) : body.slice(0, body.length - found.length)).trim();
  return { ok: true, rest, marker: found };
}

type DigitsResult = { ok: true; whole: string; fraction: string } | { ok: false; message: string };

/** Splits "1,234.56" into "1234" and "56", checking every separator against the locale. */
function readDigits(body: string, format: NumberFormatParts): DigitsResult {
  const { decimal, group } = format;
  const groupName = SPACES.test(group) ? 'a space' : quote(group);
  const convention = `in this browser's number format (${format.locale}) ${quote(decimal)} marks decimals and ${groupName} thousands`;
  const decimalPositions: number[] = [];
  const strangers: string[] = [];
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (/[0-9]/.test(char)) continue;
    if (char === decimal) decimalPositions.push(index);
    else if (!isGroupChar(char, group)) strangers.push(char);
  }
  // A letter says more than the space before it ("12 apples").
  const stranger = strangers.find((char) => !SPACES.test(char)) ?? strangers[0];
  if (stranger === '.' || stranger === ',') return { ok: false, message: `${quote(stranger)} is not used in amounts here: ${convention}` };
  if (stranger !== undefined) {
    const what = SPACES.test(stranger) ? 'A space' : quote(stranger);
    return { ok: false, message: `${what} cannot be part of an amount; type digits, ${quote(decimal)} for decimals and ${groupName} between thousands` };
  }
  if (decimalPositions.length > 1) {
    return { ok: false, message: `Two decimal separators (${quote(decimal)}): ${convention}` };
  }
  const cut = decimalPositions[0] ?? body.length;
  const wholeText = body.slice(0, cut);
  const fraction = body.slice(cut + 1);
  if ([...fraction].some((char) => isGroupChar(char, group))) {
    return { ok: false, message: `A thousands separator after the decimal separator: ${convention}` };
  }
  const groups = splitGroups(wholeText, group);
  if (groups.length > 1 && !groupsAreWellPlaced(groups, format)) {
    return { ok: false, message: `Thousands separator in the wrong place: ${convention} (groups of ${format.primaryGroupSize} digits)` };
  }
  const whole = groups.join('');
  if (whole === '' && fraction === '') return { ok: false, message: 'Enter a number' };
  return { ok: true, whole: whole === '' ? '0' : whole, fraction };
}

function splitGroups(whole: string, group: string): string[] {
  const groups: string[] = [''];
  for (const char of whole) {
    if (isGroupChar(char, group)) groups.push('');
    else groups[groups.length - 1] += char;
  }
  return groups;
}

/** "1,234,567": the last group has the primary size, the ones before it the secondary, the first at most that. */
function groupsAreWellPlaced(groups: readonly string[], format: NumberFormatParts): boolean {
  const last = groups.length - 1;
  return groups.every((digits, index) => {
    if (index === last) return digits.length === format.primaryGroupSize;
    if (index === 0) return digits.length >= 1 && digits.length <= format.secondaryGroupSize;
    return digits.length === format.secondaryGroupSize;
  });
}

/**
 * Writes minor units the way `parseAmountInput` reads them in `locale`: 123456 at scale 2 is
 * "1,234.56" in en-US and "1.234,56" in de-DE. String arithmetic only, so every digit is kept.
 */
export function formatAmountInput(minor: bigint, scale: number, locale: string = browserLocale()): string {
  const format = numberFormatParts(locale);
  const plain = formatAmount(minor, scale);
  const negative = plain.startsWith('-');
  const [whole = '0', fraction] = (negative ? plain.slice(1) : plain).split('.');
  const groups: string[] = [];
  let rest = whole;
  let size = format.primaryGroupSize;
  while (rest.length > size) {
    groups.unshift(rest.slice(rest.length - size));
    rest = rest.slice(0, rest.length - size);
    size = format.secondaryGroupSize;
  }
  groups.unshift(rest);
  return `${negative ? '-' : ''}${groups.join(format.group)}${fraction !== undefined ? `${format.decimal}${fraction}` : ''}`;
}

// ---------------------------------------------------------------------------------------------

/** Sums integer strings exactly. */
export function sumMinor(values: Iterable<string | bigint>): bigint {
  let total = 0n;
  for (const value of values) total += typeof value === 'bigint' ? value : BigInt(value);
  return total;
}

export function absolute(value: bigint): bigint {
  return value < 0n ? -value : value;
}
