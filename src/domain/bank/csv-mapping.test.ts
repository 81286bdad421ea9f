import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/fixtures/domain.js';
import { checkCsvMapping, resolveCsvColumns } from './csv-mapping.js';
import type { CsvMapping } from './statement.js';

const MAPPING: CsvMapping = { date_column: 'Date', date_format: 'YYYY-MM-DD', description_column: 'Text', amount_column: 'Amount' };

describe('checkCsvMapping', () => {
  it('fills in the defaults', () => {
    expect(checkCsvMapping(MAPPING)).toEqual({
      delimiter: ',', header: true, skipRows: 0, dateFormat: 'YYYY-MM-DD', decimalSeparator: '.',
      columns: { date: 'Date', description: 'Text', amount: 'Amount' },
    });
  });

  it.each<[string, CsvMapping | undefined, string, string]>([
    ['no mapping', undefined, 'csv', 'A CSV statement needs the csv column mapping'],
    ['an amount and a debit column', { ...MAPPING, debit_column: 'Out' }, 'csv.amount_column',
      'csv.amount_column cannot be given together with csv.debit_column or csv.credit_column'],
    ['a debit column without a credit column', { ...MAPPING, amount_column: undefined, debit_column: 'Out' }, 'csv.credit_column', 'csv.credit_column is required'],
    ['a credit column without a debit column', { ...MAPPING, amount_column: undefined, credit_column: 'In' }, 'csv.debit_column', 'csv.debit_column is required'],
    ['no amount column at all', { ...MAPPING, amount_column: undefined }, 'csv.amount_column', 'csv.amount_column is required'],
    ['a column number 0', { ...MAPPING, date_column: 0 }, 'csv.date_column', 'csv.date_column must be a column number from 1, or a header name'],
    ['a fractional column number', { ...MAPPING, date_column: 1.5 }, 'csv.date_column', 'csv.date_column must be a column number from 1, or a header name'],
    ['an empty column name', { ...MAPPING, description_column: ' ' }, 'csv.description_column', 'csv.description_column must be a header name or a column number from 1'],
    ['a name without a header row', { ...MAPPING, header: false }, 'csv.date_column', 'csv.date_column names a column, but csv.header is false'],
    ['an unknown delimiter', { ...MAPPING, delimiter: '|' as ',' }, 'csv.delimiter', 'csv.delimiter must be one of ",", ";", "\\t"'],
    ['an unknown date format', { ...MAPPING, date_format: 'D.M.YY' as 'DD.MM.YYYY' }, 'csv.date_format',
      'csv.date_format must be one of "YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY", "DD.MM.YYYY"'],
    ['an unknown decimal separator', { ...MAPPING, decimal_separator: "'" as '.' }, 'csv.decimal_separator', 'csv.decimal_separator must be one of ".", ","'],
    ['negative skip_rows', { ...MAPPING, skip_rows: -1 }, 'csv.skip_rows', 'csv.skip_rows must be a whole number from 0 to 1000'],
  ])('refuses %s', (_name, mapping, field, message) => {
    const error = thrownBy(() => checkCsvMapping(mapping));
    expect([error.code, error.field, error.message]).toEqual(['VALIDATION_ERROR', field, message]);
  });
});

describe('resolveCsvColumns', () => {
  it('finds names trimmed and case-insensitively, and numbers from 1', () => {
    const settings = checkCsvMapping({ ...MAPPING, date_column: ' date ', id_column: 4 });
    expect(resolveCsvColumns(settings, ['Text', 'DATE', ' Amount ', 'Ref'])).toEqual({ date: 1, description: 0, amount: 2, id: 3 });
  });

  it('takes numbers as they are without a header row', () => {
    const settings = checkCsvMapping({ header: false, date_column: 1, date_format: 'YYYY-MM-DD', description_column: 3, amount_column: 2 });
    expect(resolveCsvColumns(settings, null)).toEqual({ date: 0, description: 2, amount: 1 });
  });

  it('names the header names it found when a column is missing', () => {
    const error = thrownBy(() => resolveCsvColumns(checkCsvMapping({ ...MAPPING, amount_column: 'Betrag' }), ['Date', 'Text', 'Amount (EUR)']));
    expect([error.field, error.message]).toEqual(['csv.amount_column',
      'csv.amount_column "Betrag" is not in the header row, which has "Date", "Text", "Amount (EUR)"']);
  });

  it('refuses a name that two columns have', () => {
    const error = thrownBy(() => resolveCsvColumns(checkCsvMapping(MAPPING), ['Date', 'Text', 'Amount', 'amount']));
    expect([error.field, error.message]).toEqual(['csv.amount_column', 'csv.amount_column "Amount" names more than one column of the header row']);
  });

  it('refuses a number beyond the header row', () => {
    const error = thrownBy(() => resolveCsvColumns(checkCsvMapping({ ...MAPPING, amount_column: 4 }), ['Date', 'Text', 'Amount']));
    expect([error.field, error.message]).toEqual(['csv.amount_column', 'csv.amount_column is column 4, but the header row has 3: "Date", "Text", "Amount"']);
  });
});
