/**
 * Amounts as statement files print them, read exactly into minor units. Each reader here only
 * rewrites the file's text into the plain form `-1234.56` and hands that to `parseMajorUnits`,
 * the project's one amount parser, so that the scale and the 128-bit range are checked in one
 * place and no amount is ever a floating-point number.
 *
 * The messages name the amount as the file wrote it ("amount "12.345" has more than 2 decimal
 * places"); the format readers put the line number in front (`atLine`).
 */
import { validationError, type LedgerError } from '../errors.js';
import { parseMajorUnits, type AmountMinor } from '../money/amount.js';
import { quoted } from './statement-errors.js';
import type { DecimalSeparator } from './statement.js';

/**
 * More digits than any amount within 128 bits at any sensible scale has: refused before a huge
 * digit string becomes a bigint.
 */
const MAX_DIGITS = 80;
const DIGITS = /^[0-9]+$/;
const PLAIN_WITH_POINT = /^-?[0-9]+(?:\.[0-9]+)?$/;
const PLAIN_WITH_COMMA = /^-?[0-9]+(?:,[0-9]+)?$/;
/**
 * Grouping as people write it: 1,234,567 / 1.234.567 / 1 234 567 (also with a no-break or narrow
 * no-break space) / 1'234'567 (Swiss), one grouping character throughout...
 */
const GROUPED_BY_THOUSANDS = /^[0-9]{1,3}([.,'\u2019 \u00A0\u202F\u2009])[0-9]{3}(?:\1[0-9]{3})*$/;
/** ...or the Indian way, in lakhs and crores: 12,34,567. */
const GROUPED_INDIAN = /^[0-9]{1,2}([.,'\u2019 \u00A0\u202F\u2009])(?:[0-9]{2}\1)*[0-9]{3}$/;
const GROUPING_CHARACTERS = /[.,'\u2019 \u00A0\u202F\u2009]/g;
/** A three-letter currency code before the number ("EUR 12,30", "EUR-12,30"), not part of a word. */
const CODE_AT_START = /^[A-Z]{3}(?![A-Za-z])/;
const CODE_AT_END = /(?<![A-Za-z])[A-Z]{3}$/;
/** A credit or debit mark after the number, as card statements print it ("12.30 CR"). */
const CREDIT_DEBIT_AT_END = /(?<![A-Za-z])(?:CR|DR|Cr|Dr)$/;
/** One currency symbol: $, €, £, ¥, ₹, ... (Unicode category Sc). */
const SYMBOL = /^\p{Sc}$/u;

export interface CsvAmountOptions {
  decimalSeparator: DecimalSeparator;
  scale: number;
  /** The account's currency: a code printed beside an amount must be this one. */
  currencyCode: string;
}

/**
 * A CSV cell's amount: `decimalSeparator` separates the fraction; the other of `.`/`,`, spaces
 * (also U+00A0, U+202F, U+2009) and apostrophes group digits (groups of three, or Indian
 * grouping) and are removed. Negative: a leading `-` (or U+2212), a trailing `-` (`12,30-`),
 * parentheses (`(12.30)`) or a trailing `DR`; a leading or trailing `+` or `CR` is positive;
 * at most one sign. One currency symbol or code may stand before or after the number; a code
 * must be the account's currency. Anything else (`1e5`, `--5`, `1.2.3`, an empty cell) is
 * refused.
 */
export function parseCsvAmount(raw: string, options: CsvAmountOptions, label = 'amount'): AmountMinor {
  // Most cells are plain already ("-12.30", "1234,56"): they skip the peeling below.
  const plain = options.decimalSeparator === '.' ? (PLAIN_WITH_POINT.test(raw) ? raw : undefined)
    : PLAIN_WITH_COMMA.test(raw) ? raw.replace(',', '.') : undefined;
  return toMinorUnits(plain ?? new CsvAmountText(raw, options, label).plain(), raw, options.scale, label);
}

/**
 * OFX `TRNAMT`/`BALAMT`: an optional sign, digits, and `.` or `,` as the decimal point (the OFX
 * specification allows either); no grouping.
 */
const OFX_AMOUNT = /^([+-])?([0-9]*)(?:[.,]([0-9]*))?$/;

export function parseOfxAmount(raw: string, scale: number, label: string): AmountMinor {
  const text = raw.trim();
  const match = OFX_AMOUNT.exec(text);
  const [, sign, whole = '', fraction = ''] = match ?? [];
  if (!match || whole.length + fraction.length === 0) {
    throw validationError(`${label} ${quoted(raw)} is not an amount such as -1234.56`, label);
  }
  return toMinorUnits(`${sign === '-' ? '-' : ''}${whole || '0'}${fraction ? `.${fraction}` : ''}`, raw, scale, label);
}

/** CAMT `Amt` (xs:decimal, never negative: the direction is `CdtDbtInd`). */
const CAMT_AMOUNT = /^\+?([0-9]*)(?:\.([0-9]*))?$/;

export function parseCamtAmount(raw: string, scale: number, label: string): AmountMinor {
  const text = raw.trim();
  const match = CAMT_AMOUNT.exec(text);
  const [, whole = '', fraction = ''] = match ?? [];
  if (!match || whole.length + fraction.length === 0) {
    const why = text.startsWith('-') ? 'is negative, but CAMT amounts are unsigned (CdtDbtInd gives the direction)'
      : 'is not an amount such as 1234.56';
    throw validationError(`${label} ${quoted(raw)} ${why}`, label);
  }
  return toMinorUnits(`${whole || '0'}${fraction ? `.${fraction}` : ''}`, raw, scale, label);
}

/** Hands the plain text to the project's one parser, whose messages then quote the file's text. */
function toMinorUnits(plain: string, raw: string, scale: number, label: string): AmountMinor {
  if (plain.length > MAX_DIGITS) {
    throw validationError(`${label} ${quoted(raw)} is outside the signed 128-bit range`, label);
  }
  try {
    return parseMajorUnits(plain, scale, label);
  } catch {
    // Parsed again only to fail with the file's text in the message (quoting every amount of a
    // large file up front would cost more than reading it).
    return parseMajorUnits(plain, scale, `${label} ${quoted(raw)}`);
  }
}

/** Peels signs and currency marks off both ends of a CSV amount, then reads the number left. */
class CsvAmountText {
  private text: string;
  private sign: '+' | '-' | undefined;
  private currencyMarked = false;

  constructor(private readonly raw: string, private readonly options: CsvAmountOptions, private readonly label: string) {
    this.text = raw.trim();
  }

  plain(): string {
    if (this.text === '') throw validationError(`${this.label} is empty`, this.label);
    if (this.text.startsWith('(') && this.text.endsWith(')')) {
      this.setSign('-');
      this.text = this.text.slice(1, -1).trim();
    }
    // A sign and a currency, in either order, at either end: "-$12.30", "$-12.30", "12,30- EUR".
    if (this.peelStart()) this.peelStart();
    if (this.peelEnd()) this.peelEnd();
    return `${this.sign === '-' ? '-' : ''}${this.number()}`;
  }

  private peelStart(): boolean {
    const first = this.text.charAt(0);
    let length = 1;
    if (first === '-' || first === '\u2212' || first === '+') {
      this.setSign(first === '+' ? '+' : '-');
    } else if (CODE_AT_START.test(this.text)) {
      this.setCurrency(this.text.slice(0, 3));
      length = 3;
    } else if (SYMBOL.test(first)) {
      this.setCurrency(undefined);
    } else {
      return false;
    }
    this.text = this.text.slice(length).trimStart();
    return true;
  }

  private peelEnd(): boolean {
    const last = this.text.charAt(this.text.length - 1);
    let length = 1;
    if (last === '-' || last === '\u2212' || last === '+') {
      this.setSign(last === '+' ? '+' : '-');
    } else if (CREDIT_DEBIT_AT_END.test(this.text)) {
      this.setSign(this.text.charAt(this.text.length - 2).toUpperCase() === 'C' ? '+' : '-');
      length = 2;
    } else if (CODE_AT_END.test(this.text)) {
      this.setCurrency(this.text.slice(-3));
      length = 3;
    } else if (SYMBOL.test(last)) {
      this.setCurrency(undefined);
    } else {
      return false;
    }
    this.text = this.text.slice(0, -length).trimEnd();
    return true;
  }

  private setSign(sign: '+' | '-'): void {
    if (this.sign !== undefined) throw this.notAnAmount();
    this.sign = sign;
  }

  /** `code` undefined for a symbol, which names no single currency ($ is several) and is not checked. */
  private setCurrency(code: string | undefined): void {
    if (this.currencyMarked) throw this.notAnAmount();
    this.currencyMarked = true;
    const expected = this.options.currencyCode.toUpperCase();
    if (code !== undefined && code !== expected) {
      throw validationError(`${this.label} ${quoted(this.raw)} is in ${code}, not in the account's currency ${expected}`, this.label,
        'Import the file into an account in that currency');
    }
  }

  private number(): string {
    const parts = this.text.split(this.options.decimalSeparator);
    const [whole = '', fraction] = parts;
    if (parts.length > 2 || (fraction !== undefined && !DIGITS.test(fraction))) throw this.notAnAmount();
    const suffix = fraction === undefined ? '' : `.${fraction}`;
    if (DIGITS.test(whole)) return whole + suffix;
    if (whole === '' && fraction !== undefined) return `0${suffix}`;
    if (GROUPED_BY_THOUSANDS.test(whole) || GROUPED_INDIAN.test(whole)) return whole.replace(GROUPING_CHARACTERS, '') + suffix;
    throw this.notAnAmount();
  }

  private notAnAmount(): LedgerError {
    const example = this.options.decimalSeparator === ',' ? '-1.234,56' : '-1,234.56';
    return validationError(`${this.label} ${quoted(this.raw)} is not an amount such as ${example}`, this.label,
      `Check the column and csv.decimal_separator ("${this.options.decimalSeparator}" now)`);
  }
}
