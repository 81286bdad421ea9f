import { describe, expect, it } from 'vitest';
import { fixtureText, rowFingerprint } from '../../../../test/fixtures/bank-statements.js';
import { thrownBy } from '../../../../test/fixtures/domain.js';
import type { CsvMapping } from '../../../domain/bank/statement.js';
import { readStatement } from './read-statement.js';

const GERMAN: CsvMapping = {
  delimiter: ';', skip_rows: 7, date_column: 'Buchungstag', date_format: 'DD.MM.YYYY', description_column: 'Verwendungszweck',
  amount_column: 'Betrag (EUR)', decimal_separator: ',', balance_column: 'Saldo (EUR)',
};
const US: CsvMapping = {
  date_column: 'Posting Date', date_format: 'MM/DD/YYYY', description_column: 'Description', debit_column: 'Debit', credit_column: 'Credit',
  id_column: 'Transaction ID', balance_column: 'Balance',
};
const UK: CsvMapping = { date_column: 'Posted Date', date_format: 'DD/MM/YYYY', description_column: 'Description', amount_column: 'Amount' };
const SIMPLE: CsvMapping = { date_column: 'Date', date_format: 'YYYY-MM-DD', description_column: 'Text', amount_column: 'Amount' };

const readCsv = (text: string, csv: CsvMapping, currencyCode = 'EUR') => readStatement({ format: 'csv', text, csv, scale: 2, currencyCode });

describe('a German bank CSV (Windows-1252, ";", decimal comma, a preamble, newest first, a running balance)', () => {
  it('reads every line exactly', () => {
    expect(readCsv(fixtureText('de-bank-giro-1252.csv'), GERMAN)).toEqual({
      start_date: '2026-01-01',
      end_date: '2026-01-30',
      // Newest first: the top row is the closing balance, the bottom row's balance minus its amount the opening.
      opening_balance: 53567n,
      closing_balance: 241567n,
      currency_code: null,
      lines: [
        { line_number: 9, posted_date: '2026-01-30', amount: -9800n, description: 'Abschlag Strom/Gas Februar, Vertragskonto 4711', external_id: null,
          fingerprint: rowFingerprint('2026-01-30', -9800n, 'abschlag strom/gas februar, vertragskonto 4711', 1) },
        { line_number: 10, posted_date: '2026-01-28', amount: 325000n, description: 'Gehalt Januar 2026', external_id: null,
          fingerprint: rowFingerprint('2026-01-28', 325000n, 'gehalt januar 2026', 1) },
        { line_number: 11, posted_date: '2026-01-15', amount: -480n, description: 'girocard 14.01. 07:42 Bäckerei „Zum Korn“', external_id: null,
          fingerprint: rowFingerprint('2026-01-15', -480n, 'girocard 14.01. 07:42 bäckerei „zum korn“', 1) },
        { line_number: 12, posted_date: '2026-01-15', amount: -1230n, description: 'girocard 14.01. 16:05 Café Süß', external_id: null,
          fingerprint: rowFingerprint('2026-01-15', -1230n, 'girocard 14.01. 16:05 café süß', 1) },
        { line_number: 13, posted_date: '2026-01-02', amount: -125000n, description: 'Miete Januar – Whg. 3. OG links', external_id: null,
          fingerprint: rowFingerprint('2026-01-02', -125000n, 'miete januar – whg. 3. og links', 1) },
        { line_number: 14, posted_date: '2026-01-01', amount: -490n, description: 'Kontoführungsentgelt Dezember 4,90 €', external_id: null,
          fingerprint: rowFingerprint('2026-01-01', -490n, 'kontoführungsentgelt dezember 4,90 €', 1) },
      ],
    });
  });

  it('keeps its row fingerprints from release to release', () => {
    const [first] = readCsv(fixtureText('de-bank-giro-1252.csv'), GERMAN).lines;
    expect(first?.fingerprint).toBe('row:9cbfb4acdbd27bf9ac466eb0c7889e4ec619d0ad278456335b049476958fb007');
  });

  it('reads nothing from a file with one bad line, and names that line', () => {
    const text = fixtureText('de-bank-giro-1252.csv').replace('"-4,90"', '"-4,905"');
    const error = thrownBy(() => readCsv(text, GERMAN));
    expect([error.code, error.field, error.message]).toEqual(['VALIDATION_ERROR', 'content', 'line 14: amount "-4,905" has more than 2 decimal places']);
  });

  it('refuses a summary row under the transactions instead of skipping it', () => {
    const text = `${fixtureText('de-bank-giro-1252.csv').trimEnd()}\r\n"Kontostand";"";"";"";"";"";"2.415,67";"";\r\n`;
    expect(thrownBy(() => readCsv(text, GERMAN)).message).toBe('line 15: date "Kontostand" is not a valid DD.MM.YYYY date');
  });

  it('names the header row\'s columns when the mapping names one it lacks', () => {
    const error = thrownBy(() => readCsv(fixtureText('de-bank-giro-1252.csv'), { ...GERMAN, date_column: 'Datum' }));
    expect([error.field, error.message]).toEqual(['csv.date_column',
      'csv.date_column "Datum" is not in the header row, which has "Buchungstag", "Wertstellung", "Buchungstext", "Auftraggeber / Begünstigter", '
      + '"Verwendungszweck", "IBAN", "Betrag (EUR)", "Saldo (EUR)", ""']);
  });

  it('finds no header where the preamble is not skipped', () => {
    const error = thrownBy(() => readCsv(fixtureText('de-bank-giro-1252.csv'), { ...GERMAN, skip_rows: 0 }));
    expect(error.field).toBe('csv.date_column');
    expect(error.message).toMatch(/^csv\.date_column "Buchungstag" is not in the header row, which has "Kontonummer:", "DE89/);
  });
});

describe('a US bank CSV (debit and credit columns, "$", parentheses, quoted commas and line breaks, ids)', () => {
  it('reads every line exactly', () => {
    expect(readCsv(fixtureText('us-bank-checking.csv'), US, 'USD')).toEqual({
      start_date: '2026-01-02',
      end_date: '2026-01-09',
      opening_balance: 67055n,
      closing_balance: 1210n,
      currency_code: null,
      lines: [
        { line_number: 2, posted_date: '2026-01-02', amount: 245000n, description: 'ACME PAYROLL, INC. DIRECT DEP', external_id: 'TX-20260102-001', fingerprint: 'csv:id:TX-20260102-001' },
        { line_number: 3, posted_date: '2026-01-03', amount: -85000n, description: 'CHECK #1042', external_id: 'TX-20260103-001', fingerprint: 'csv:id:TX-20260103-001' },
        // The quoted description spans lines 4 and 5; the next row starts on line 6.
        { line_number: 4, posted_date: '2026-01-05', amount: -12345n, description: 'WHOLE FOODS MARKET #10234 AUSTIN, TX', external_id: 'TX-20260105-001', fingerprint: 'csv:id:TX-20260105-001' },
        { line_number: 6, posted_date: '2026-01-07', amount: -250000n, description: 'ONLINE TRANSFER TO SAVINGS "EMERGENCY FUND"', external_id: 'TX-20260107-001', fingerprint: 'csv:id:TX-20260107-001' },
        // "(35.00)" in the debit column is money out all the same; "0.00" in the credit column is fine.
        { line_number: 7, posted_date: '2026-01-08', amount: -3500n, description: 'OVERDRAFT FEE', external_id: 'TX-20260108-001', fingerprint: 'csv:id:TX-20260108-001' },
        { line_number: 8, posted_date: '2026-01-09', amount: 40000n, description: 'ZELLE FROM SMITH, JANE', external_id: 'TX-20260109-001', fingerprint: 'csv:id:TX-20260109-001' },
      ],
    });
  });

  it.each([
    ['both cells empty', '01/10/2026,TX-9,FEE,,,$1.00', 'line 9: both the debit and the credit cell are empty'],
    ['both cells filled', '01/10/2026,TX-9,FEE,$1.00,$2.00,$1.00', 'line 9: both the debit "$1.00" and the credit "$2.00" cell hold an amount'],
    ['a bad credit', '01/10/2026,TX-9,FEE,,1.2.3,$1.00', 'line 9: credit "1.2.3" is not an amount such as -1,234.56'],
    ['a bad balance', '01/10/2026,TX-9,FEE,,1.00,n/a', 'line 9: balance "n/a" is not an amount such as -1,234.56'],
    ['a day that does not exist', '02/30/2026,TX-9,FEE,,1.00,', 'line 9: date "02/30/2026" is not a valid MM/DD/YYYY date'],
    ['an amount in another currency', '01/10/2026,TX-9,FEE,,1.00 EUR,', 'line 9: credit "1.00 EUR" is in EUR, not in the account\'s currency USD'],
  ])('refuses a row with %s, naming its line', (_name, row, message) => {
    expect(thrownBy(() => readCsv(`${fixtureText('us-bank-checking.csv')}${row}\r\n`, US, 'USD')).message).toBe(message);
  });
});

describe('a UK card CSV (DD/MM/YYYY, one signed amount, no ids)', () => {
  const coffee = 'costa coffee 41235 london';

  it('reads every line exactly; two equal coffees on one day are two lines with occurrences 1 and 2', () => {
    expect(readCsv(fixtureText('uk-card.csv'), UK, 'GBP')).toEqual({
      start_date: '2026-01-03',
      end_date: '2026-01-15',
      opening_balance: null,
      closing_balance: null,
      currency_code: null,
      lines: [
        { line_number: 2, posted_date: '2026-01-03', amount: -4217n, description: 'TESCO STORES 2231 LONDON', external_id: null,
          fingerprint: rowFingerprint('2026-01-03', -4217n, 'tesco stores 2231 london', 1) },
        { line_number: 3, posted_date: '2026-01-05', amount: -345n, description: 'COSTA COFFEE 41235 LONDON', external_id: null,
          fingerprint: 'row:b1f4a929fb84b063902b728b55d4645f2a6e15e08b3b270d0f1ef7abb5eff309' },
        { line_number: 4, posted_date: '2026-01-05', amount: -345n, description: 'COSTA COFFEE 41235 LONDON', external_id: null,
          fingerprint: 'row:4a975256e1bfbc3af10c5d5ac650957848806bd058af6572aca05611b6f03d63' },
        { line_number: 5, posted_date: '2026-01-07', amount: -780n, description: 'TFL TRAVEL CH', external_id: null,
          fingerprint: rowFingerprint('2026-01-07', -780n, 'tfl travel ch', 1) },
        { line_number: 6, posted_date: '2026-01-10', amount: 25000n, description: 'PAYMENT RECEIVED - THANK YOU', external_id: null,
          fingerprint: rowFingerprint('2026-01-10', 25000n, 'payment received - thank you', 1) },
        { line_number: 7, posted_date: '2026-01-13', amount: -129900n, description: 'AMAZON.CO.UK*AB12CD34E', external_id: null,
          fingerprint: rowFingerprint('2026-01-13', -129900n, 'amazon.co.uk*ab12cd34e', 1) },
        { line_number: 8, posted_date: '2026-01-15', amount: 1899n, description: 'AMAZON.CO.UK REFUND', external_id: null,
          fingerprint: rowFingerprint('2026-01-15', 1899n, 'amazon.co.uk refund', 1) },
      ],
    });
    // The two coffees' fingerprints, as the definition gives them (computed independently).
    expect(rowFingerprint('2026-01-05', -345n, coffee, 1)).toBe('row:b1f4a929fb84b063902b728b55d4645f2a6e15e08b3b270d0f1ef7abb5eff309');
    expect(rowFingerprint('2026-01-05', -345n, coffee, 2)).toBe('row:4a975256e1bfbc3af10c5d5ac650957848806bd058af6572aca05611b6f03d63');
  });

  it('gives an overlapping later download the same fingerprints for the same transactions', () => {
    const first = readCsv(fixtureText('uk-card.csv'), UK, 'GBP').lines;
    const second = readCsv(fixtureText('uk-card-overlap.csv'), UK, 'GBP').lines;
    const known = new Set(first.map((line) => line.fingerprint));
    // The overlap: both coffees of 5 January (the bank wrote the first in other capitals this time),
    // the TfL fare, the payment, the Amazon order and its refund; new: a third coffee and Sainsbury's.
    expect(second.map((line) => known.has(line.fingerprint))).toEqual([true, true, true, true, true, true, false, false]);
    expect(second.slice(0, 2).map((line) => line.fingerprint)).toEqual(first.slice(1, 3).map((line) => line.fingerprint));
    expect(second[6]?.fingerprint).toBe(rowFingerprint('2026-01-19', -345n, coffee, 1));
  });
});

describe('rows and lines', () => {
  it('counts lines across quoted line breaks (CRLF or LF), blank lines and the preamble', () => {
    const text = 'Account;42\r\n\r\nDate;Text;Amount\r\n\r\n2026-01-02;"two\r\nlines";1\r\n;;\r\n2026-01-03;"three\nlines\n";2\r\n\r\n\r\n2026-01-04;one;3\r\n';
    const lines = readCsv(text, { ...SIMPLE, delimiter: ';', skip_rows: 2 }).lines;
    expect(lines.map((line) => [line.line_number, line.description, line.amount])).toEqual([
      [5, 'two lines', 100n], [8, 'three lines', 200n], [13, 'one', 300n],
    ]);
  });

  it('counts a lone carriage return as a line break (old Mac files)', () => {
    const lines = readCsv('Date,Text,Amount\r2026-01-02,a,1\r\r2026-01-03,b,2', SIMPLE).lines;
    expect(lines.map((line) => line.line_number)).toEqual([2, 4]);
  });

  it('reads tab-separated files without a header row, by column number', () => {
    const lines = readCsv('2026-01-02\t\t-1.50\tBus\n2026-01-03\tx\t2\tTram\n', {
      delimiter: '\t', header: false, date_column: 1, date_format: 'YYYY-MM-DD', description_column: 4, amount_column: 3, id_column: 2,
    }).lines;
    expect(lines.map((line) => [line.line_number, line.amount, line.description, line.external_id, line.fingerprint.slice(0, 4)])).toEqual([
      [1, -150n, 'Bus', null, 'row:'], [2, 200n, 'Tram', 'x', 'csv:'],
    ]);
  });

  it('keeps a stray quote inside an unquoted field as text', () => {
    const [line] = readCsv('Date,Text,Amount\n2026-01-02,Bäckerei "Zum Korn" GmbH,-4.80\n', SIMPLE).lines;
    expect(line?.description).toBe('Bäckerei "Zum Korn" GmbH');
  });

  it('reads a file with a header and no transactions as an empty statement', () => {
    expect(readCsv('Date,Text,Amount\n\n', SIMPLE)).toEqual({
      start_date: null, end_date: null, opening_balance: null, closing_balance: null, currency_code: null, lines: [],
    });
  });

  it.each([
    ['an unclosed quote, at the line where its row starts', 'Date,Text,Amount\n2026-01-02,a,1\n\n2026-01-03,"b\r\nc,2\n2026-01-04,d,3\n',
      'line 4: a quoted field is not closed (a " is missing)'],
    ['characters after a closing quote', 'Date,Text,Amount\n2026-01-02,"a\nb"x,1\n', 'line 2: a closing quote is followed by other characters than the delimiter'],
    ['an unclosed quote that swallows the rest of the file', `Date,Text,Amount\n2026-01-02,"${'x'.repeat(200_000)}\n`,
      'line 2: the row is longer than 100000 characters (a quote that is never closed?)'],
    ['a field longer than 10,000 characters', `Date,Text,Amount\n2026-01-02,${'x'.repeat(10_001)},1\n`, 'line 2: a field is longer than 10000 characters'],
    ['a row too short for the amount', 'Date,Text,Amount\n2026-01-02,a\n', 'line 2: amount is empty'],
  ])('refuses %s', (_name, text, message) => {
    const error = thrownBy(() => readCsv(text, SIMPLE));
    expect([error.field, error.message]).toEqual(['content', message]);
  });

  it('refuses a file without a header row', () => {
    const error = thrownBy(() => readCsv('\n\n', { ...SIMPLE, skip_rows: 1 }));
    expect([error.field, error.message]).toEqual(['content', 'The file has no header row after the 1 skipped lines']);
  });
});
