import { describe, expect, it } from 'vitest';
import { fingerprintDescription, joinDescription, normaliseDescription } from './statement-description.js';
import { bankReference, fingerprintLines, FINGERPRINT_PREFIXES, rowFingerprintText } from './statement-fingerprint.js';
import type { StatementLineDraft } from './statement.js';

/** A stand-in hash that shows the text it was given, so the tests read the exact pre-image. */
const showText = (text: string) => `<${text}>`;

function draft(overrides: Partial<StatementLineDraft>): StatementLineDraft {
  return { line_number: 2, posted_date: '2026-01-05', amount: -345n, description: 'COSTA COFFEE', external_id: null, identity: null, ...overrides };
}

describe('the fingerprint prefixes', () => {
  it('never change (they are stored)', () => {
    expect(FINGERPRINT_PREFIXES).toEqual({
      ofx: 'ofx:', camtAccountServicerReference: 'camt:acctsvcrref:', camtEntryReference: 'camt:ntryref:', csvId: 'csv:id:', row: 'row:',
    });
  });
});

describe('rowFingerprintText', () => {
  it('is the date, the signed minor-unit amount, the normalised description and the occurrence, one per line', () => {
    expect(rowFingerprintText({ posted_date: '2026-01-05', amount: -345n, description: '  Café  SÜSS\tBerlin ' }, 2))
      .toBe('2026-01-05\n-345\ncafé süss berlin\n2');
  });

  it('compares descriptions in composed Unicode form', () => {
    const decomposed = 'Cafe\u0301';
    expect(rowFingerprintText({ posted_date: '2026-01-05', amount: 1n, description: decomposed }, 1))
      .toBe(rowFingerprintText({ posted_date: '2026-01-05', amount: 1n, description: 'Café' }, 1));
  });
});

describe('fingerprintLines', () => {
  it('counts identical rows of one file: two equal coffees are occurrences 1 and 2', () => {
    const lines = fingerprintLines([
      draft({ line_number: 2 }),
      draft({ line_number: 3, description: 'costa  coffee' }),
      draft({ line_number: 4, amount: -350n }),
      draft({ line_number: 5, posted_date: '2026-01-06' }),
    ], showText);
    expect(lines.map((line) => line.fingerprint)).toEqual([
      'row:<2026-01-05\n-345\ncosta coffee\n1>',
      'row:<2026-01-05\n-345\ncosta coffee\n2>',
      'row:<2026-01-05\n-350\ncosta coffee\n1>',
      'row:<2026-01-06\n-345\ncosta coffee\n1>',
    ]);
  });

  it('uses the bank reference when there is one, and counts occurrences only among rows without', () => {
    const lines = fingerprintLines([
      draft({ identity: 'ofx:A1', external_id: 'A1' }),
      draft({}),
      draft({ identity: 'ofx:A2', external_id: 'A2' }),
      draft({}),
    ], showText);
    expect(lines.map((line) => line.fingerprint)).toEqual([
      'ofx:A1', 'row:<2026-01-05\n-345\ncosta coffee\n1>', 'ofx:A2', 'row:<2026-01-05\n-345\ncosta coffee\n2>',
    ]);
  });

  it('numbers a bank reference the file repeats, so that no line is taken for another', () => {
    const lines = fingerprintLines([draft({ identity: 'ofx:7' }), draft({ identity: 'ofx:7' }), draft({ identity: 'ofx:7' })], showText);
    expect(lines.map((line) => line.fingerprint)).toEqual(['ofx:7', 'ofx:7#2', 'ofx:7#3']);
  });

  it('keeps everything else of each line', () => {
    const [line] = fingerprintLines([draft({ line_number: 9, external_id: 'X', identity: 'csv:id:X' })], showText);
    expect(line).toEqual({
      line_number: 9, posted_date: '2026-01-05', amount: -345n, description: 'COSTA COFFEE', external_id: 'X', fingerprint: 'csv:id:X',
    });
  });
});

describe('bankReference', () => {
  it.each([
    ['2026010200017', '2026010200017'],
    ['  ABC-1 ', 'ABC-1'],
    ['', null],
    ['   ', null],
    ['NONREF', null],
    ['nonref', null],
    [undefined, null],
  ])('reads %j as %j', (text, expected) => {
    expect(bankReference(text)).toBe(expected);
  });
});

describe('descriptions', () => {
  it.each([
    ['  a  b\t\tc\r\nd ', 'a b c d'],
    ['no\u00A0break', 'no break'],
    ['nul\u0000byte', 'nul byte'],
    ['', ''],
  ])('normalises %j to %j', (text, expected) => {
    expect(normaliseDescription(text)).toBe(expected);
  });

  it('joins the parts that are not empty', () => {
    expect(joinDescription(['Stadtwerke ', undefined, ' ', 'Abschlag  Januar'], ' / ')).toBe('Stadtwerke / Abschlag Januar');
  });

  it('lower-cases for fingerprints', () => {
    expect(fingerprintDescription(' ÜBERWEISUNG  Müller ')).toBe('überweisung müller');
  });
});
