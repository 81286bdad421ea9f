/**
 * CSV cells for spreadsheets. A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return is read as a formula by Excel, LibreOffice and Google Sheets ("CSV injection"), so such a
 * cell gets a leading `'`, which spreadsheets show as text. Spreadsheets also skip leading spaces
 * and line breaks, and take the full-width forms `＝ ＋ － ＠` as the ASCII ones, so a formula
 * character after white space, or a full-width one, is neutralised too. A plain decimal number (an
 * amount such as `-0.05`) cannot be a formula and stays a number. Shared by `ledger export` and
 * the web UI.
 */

const FORMULA_START = /^[\t\r]|^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/u;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** The text to write for a cell, before quoting: formula-looking text neutralised, numbers kept. */
export function neutraliseCsvText(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** One RFC 4180 field: neutralised, then quoted when it holds a quote, a comma, a line break or edge spaces. */
export function csvField(value: string | number | boolean | null | undefined): string {
  const text = neutraliseCsvText(value === null || value === undefined ? '' : String(value));
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
