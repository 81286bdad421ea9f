import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/fixtures/domain.js';
import type { CsvDateFormat } from './statement.js';
import { parseCsvDate, parseIsoDateOrDateTime, parseOfxDate } from './statement-date.js';

describe('parseCsvDate', () => {
  it.each<[CsvDateFormat, string, string]>([
    ['YYYY-MM-DD', '2026-01-31', '2026-01-31'],
    ['YYYY-MM-DD', '2028-02-29', '2028-02-29'],
    ['DD/MM/YYYY', '31/01/2026', '2026-01-31'],
    ['DD/MM/YYYY', '5/1/2026', '2026-01-05'],
    ['MM/DD/YYYY', '01/31/2026', '2026-01-31'],
    ['MM/DD/YYYY', '1/5/2026', '2026-01-05'],
    ['DD.MM.YYYY', '31.01.2026', '2026-01-31'],
    ['DD.MM.YYYY', ' 01.02.2026 ', '2026-02-01'],
    ['DD.MM.YYYY', '29.02.2000', '2000-02-29'],
  ])('reads %s %s', (format, text, expected) => {
    expect(parseCsvDate(text, format)).toBe(expected);
  });

  it.each<[CsvDateFormat, string]>([
    ['YYYY-MM-DD', '2026-02-30'],
    ['YYYY-MM-DD', '2026-2-3'],
    ['YYYY-MM-DD', '2026-13-01'],
    ['YYYY-MM-DD', '0000-01-01'],
    ['DD/MM/YYYY', '29/02/2026'],
    ['DD/MM/YYYY', '31/04/2026'],
    ['DD/MM/YYYY', '01/31/2026'],
    ['MM/DD/YYYY', '31/01/2026'],
    ['MM/DD/YYYY', '02/29/1900'],
    ['DD.MM.YYYY', '32.01.2026'],
    ['DD.MM.YYYY', '00.01.2026'],
    ['DD.MM.YYYY', '31.01.26'],
    ['DD.MM.YYYY', '31/01/2026'],
    ['DD.MM.YYYY', '31.01.2026 10:00'],
    ['DD.MM.YYYY', ''],
    ['DD.MM.YYYY', 'Kontostand'],
  ])('refuses %s %j', (format, text) => {
    const error = thrownBy(() => parseCsvDate(text, format));
    expect(error.message).toBe(`date ${JSON.stringify(text)} is not a valid ${format} date`);
  });
});

describe('parseOfxDate', () => {
  it.each([
    ['20260131', '2026-01-31'],
    ['202601311200', '2026-01-31'],
    ['20260131120000', '2026-01-31'],
    ['20260131120000.000', '2026-01-31'],
    ['20260131235959.000[-5:EST]', '2026-01-31'],
    ['20260131230000[+5.30:IST]', '2026-01-31'],
    ['20260131120000[0:GMT]', '2026-01-31'],
    ['20260131120000 [-5]', '2026-01-31'],
    ['20280229', '2028-02-29'],
  ])('reads %s as %s (the date part as written)', (text, expected) => {
    expect(parseOfxDate(text, 'DTPOSTED')).toBe(expected);
  });

  it.each(['20260230', '2026013', '2026-01-31', '20260131250000', '20260131126000', '20260131120000[EST]', 'x20260131'])('refuses %s', (text) => {
    expect(thrownBy(() => parseOfxDate(text, 'DTPOSTED')).message)
      .toBe(`DTPOSTED ${JSON.stringify(text)} is not a valid OFX date such as 20260131 or 20260131120000[-5:EST]`);
  });
});

describe('parseIsoDateOrDateTime', () => {
  it.each([
    ['2026-01-31', '2026-01-31'],
    ['2026-01-31+01:00', '2026-01-31'],
    ['2026-01-31T23:30:00', '2026-01-31'],
    ['2026-01-31T23:30:00.123Z', '2026-01-31'],
    ['2026-01-31T23:30:00-05:00', '2026-01-31'],
  ])('reads %s', (text, expected) => {
    expect(parseIsoDateOrDateTime(text, 'BookgDt/Dt')).toBe(expected);
  });

  it.each(['2026-02-30', '2026-01-31T24:00:00', '31.01.2026', '2026-01-31T10:00', ''])('refuses %j', (text) => {
    expect(thrownBy(() => parseIsoDateOrDateTime(text, 'BookgDt/Dt')).message)
      .toBe(`BookgDt/Dt ${JSON.stringify(text)} is not a valid date such as 2026-01-31 or 2026-01-31T10:15:00`);
  });
});
