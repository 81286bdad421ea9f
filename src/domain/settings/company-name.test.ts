import { describe, expect, it } from 'vitest';
import { LedgerError } from '../errors.js';
import { normalizeCompanyName } from './company-name.js';

describe('normalizeCompanyName', () => {
  it.each([
    ['Acme Ltd', 'Acme Ltd'],
    ['  Acme Ltd\u00a0 ', 'Acme Ltd'],
    ['Müller & Söhne GmbH', 'Müller & Söhne GmbH'],
    ['株式会社サンプル', '株式会社サンプル'],
    ['x'.repeat(200), 'x'.repeat(200)],
    ['😀'.repeat(200), '😀'.repeat(200)],
  ])('keeps %j as %j', (given, stored) => {
    expect(normalizeCompanyName(given)).toBe(stored);
  });

  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['201 characters', 'x'.repeat(201)],
    ['a line break', 'Acme\nLtd'],
    ['a tab', 'Acme\tLtd'],
    ['a NUL', 'Acme\u0000'],
    ['DEL', 'Acme\u007f'],
    ['a C1 control', 'Acme\u0085Ltd'],
    ['a line separator', 'Acme\u2028Ltd'],
  ])('refuses %s with a VALIDATION_ERROR naming the field', (_case, given) => {
    const error = (() => {
      try {
        normalizeCompanyName(given);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(LedgerError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'company_name', suggestion: expect.any(String) });
  });
});
