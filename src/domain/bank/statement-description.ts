/** The text of a statement line as people read it and as fingerprints compare it. */

/** Whitespace and control characters, which say nothing in a one-line description. */
const BLANKS = /[\s\u0000-\u001F\u007F]+/g;

/** Trimmed, every run of whitespace (tabs, newlines in a quoted field, no-break spaces) one space. */
export function normaliseDescription(text: string): string {
  return text.replace(BLANKS, ' ').trim();
}

/** The parts that are not empty, each normalised, joined by `separator`. */
export function joinDescription(parts: readonly (string | undefined)[], separator: string): string {
  const kept: string[] = [];
  for (const part of parts) {
    const text = part === undefined ? '' : normaliseDescription(part);
    if (text !== '') kept.push(text);
  }
  return kept.join(separator);
}

/**
 * The description as a row fingerprint compares it: normalised, in Unicode composed form (NFC,
 * so an "ü" typed as u + combining diaeresis equals "ü") and lower-cased, so that a bank that
 * changes its capitals between two downloads still yields the same fingerprint.
 */
export function fingerprintDescription(description: string): string {
  return normaliseDescription(description).normalize('NFC').toLowerCase();
}
