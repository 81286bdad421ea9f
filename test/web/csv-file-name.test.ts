/** The names of the web UI's CSV downloads: company, report, what it covers. */
import { describe, expect, it } from 'vitest';
import { csvFileName, fileNameSlug, reportCoverage } from '../../web/src/lib/csv-text.js';

describe('CSV file names', () => {
  it.each<[string | null, (string | undefined | false)[], string]>([
    [null, ['trial-balance', '2026-06-30'], 'trial-balance-2026-06-30.csv'],
    ['Acme Ltd', ['income-statement', '2026-01-01-to-2026-06-30'], 'acme-ltd-income-statement-2026-01-01-to-2026-06-30.csv'],
    ['  Müller & Söhne GmbH ', ['general-ledger', '1200-01', 'from-2026-01-01'], 'muller-sohne-gmbh-general-ledger-1200-01-from-2026-01-01.csv'],
    ['株式会社サンプル', ['balance-sheet', '2026-06-30', 'EUR'], '株式会社サンプル-balance-sheet-2026-06-30-eur.csv'],
    ['Acme "Quotes" / Slashes\\Ltd.', ['trial-balance', undefined, false, ''], 'acme-quotes-slashes-ltd-trial-balance.csv'],
    ['!!!', ['trial-balance'], 'trial-balance.csv'],
  ])('names %j %j as %s', (company, parts, expected) => {
    expect(csvFileName(company, parts)).toBe(expected);
  });

  it('keeps long company names short', () => {
    expect(fileNameSlug('Northwind Traders International Holdings (Europe) Limited, a very long name indeed')).toHaveLength(60);
    expect(fileNameSlug(`${'a'.repeat(59)} b`)).toBe('a'.repeat(59));
  });

  it.each([
    [{ as_of_date: '2026-06-30', start_date: null, end_date: null }, '2026-06-30'],
    [{ start_date: '2026-01-01', end_date: '2026-06-30' }, '2026-01-01-to-2026-06-30'],
    [{ start_date: '2026-01-01', end_date: null }, 'from-2026-01-01'],
    [{ end_date: '2026-06-30' }, 'to-2026-06-30'],
    [{}, 'all-time-2026-11-25'],
  ])('says what %j covers: %s', (dates, expected) => {
    expect(reportCoverage(dates, '2026-11-25')).toBe(expected);
  });
});
