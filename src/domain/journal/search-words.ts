/**
 * The words of journal entries that `q` searches, defined once so that every store answers a
 * search the same (docs/api.md, "Finding entries"). A word is a run of letters and digits; case
 * and accents do not count ("Café" is the word "cafe"); anything else separates words
 * ("INV-2026/0042" is "inv", "2026", "0042"). An entry matches a query when every word of the
 * query begins some word of the entry's description, reference or line descriptions.
 */

/** Words longer than this are kept (and matched) by their first this-many characters. */
export const MAX_WORD_LENGTH = 64;

/** The words of a text, in order, duplicates kept. */
export function searchWords(text: string): string[] {
  const folded = text.normalize('NFKD').toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '');
  return folded.split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map((word) => [...word].slice(0, MAX_WORD_LENGTH).join(''));
}

/** The distinct words an entry is found by: its description's, reference's and lines' descriptions'. */
export function entrySearchWords(entry: {
  description: string;
  reference: string | null;
  lines: readonly { description: string | null }[];
}): string[] {
  const texts = [entry.description, entry.reference ?? '', ...entry.lines.map((line) => line.description ?? '')];
  return [...new Set(texts.flatMap(searchWords))];
}

/** The distinct words of a query, or none when it has no letter or digit. */
export function queryWords(query: string): string[] {
  return [...new Set(searchWords(query))];
}
