import { describe, expect, it } from 'vitest';
import { entrySearchWords, MAX_WORD_LENGTH, queryWords, searchWords } from './search-words.js';

describe('search words', () => {
  it.each([
    ['Office rent', ['office', 'rent']],
    ['INV-2026/0042', ['inv', '2026', '0042']],
    ['Café «Müller» & Söhne', ['cafe', 'muller', 'sohne']],
    ['  --  ', []],
    ['ÅNGSTRÖM 42kg', ['angstrom', '42kg']],
    ['Ｆｕｌｌwidth', ['fullwidth']],
  ])('splits %j into %j', (text, words) => {
    expect(searchWords(text)).toEqual(words);
  });

  it('keeps a long word by its first characters', () => {
    expect(searchWords('a'.repeat(200))).toEqual(['a'.repeat(MAX_WORD_LENGTH)]);
  });

  it('finds an entry by its description, reference and line descriptions, each word once', () => {
    expect(entrySearchWords({
      description: 'Rent rent', reference: 'R-1', lines: [{ description: 'Office' }, { description: null }],
    })).toEqual(['rent', 'r', '1', 'office']);
  });

  it('has no words in a query of punctuation only', () => {
    expect(queryWords(' -/- ')).toEqual([]);
  });
});
