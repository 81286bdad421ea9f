import { describe, expect, it } from 'vitest';
import { fromCsvMapping, guessMapping, previewCsv, readCsvRecords, toCsvMapping } from './csv-preview.js';

/** The head of test/fixtures/bank/de-bank-giro-1252.csv: a German giro account's export. */
const GERMAN = [
  '"Kontonummer:";"DE89 3704 0044 0532 0130 00 / Girokonto";',
  '"Kontoinhaber:";"Jürgen Weiß";',
  '',
  '"Von:";"01.01.2026";',
  '"Bis:";"31.01.2026";',
  '"Kontostand vom 31.01.2026:";"2.415,67 EUR";',
  '',
  '"Buchungstag";"Wertstellung";"Buchungstext";"Auftraggeber / Begünstigter";"Verwendungszweck";"IBAN";"Betrag (EUR)";"Saldo (EUR)";',
  '"30.01.2026";"30.01.2026";"Lastschrift";"Stadtwerke Musterstadt GmbH";"Abschlag Strom/Gas Februar, Vertragskonto 4711";"DE02 1203 0000 0000 2020 51";"-98,00";"2.415,67";',
  '"28.01.2026";"28.01.2026";"Gutschrift";"Müller & Söhne GmbH";"Gehalt Januar 2026";"DE75 5121 0800 1245 1261 99";"3.250,00";"2.513,67";',
  '"15.01.2026";"15.01.2026";"Kartenzahlung";"Bäckerei „Zum Korn“";"girocard 14.01. 07:42 Bäckerei „Zum Korn“";"";"-4,80";"-736,33";',
  '',
].join('\r\n');

/** test/fixtures/bank/uk-card.csv */
const UK_CARD = [
  'Transaction Date,Posted Date,Description,Amount',
  '02/01/2026,03/01/2026,TESCO STORES 2231 LONDON,-42.17',
  '05/01/2026,05/01/2026,COSTA COFFEE 41235 LONDON,-3.45',
  '10/01/2026,10/01/2026,PAYMENT RECEIVED - THANK YOU,250.00',
  '12/01/2026,13/01/2026,AMAZON.CO.UK*AB12CD34E,"-1,299.00"',
].join('\n');
const EUR = { scale: 2, currencyCode: 'EUR' };

describe('the CSV mapping preview', () => {
  it('splits rows as the import does: quotes, doubled quotes, line breaks in quotes, stray quotes, blank rows', () => {
    const text = 'a;b;c\n"x;1";"say ""hi""";"two\nlines"\n\n;;\nBäckerei "Zum Korn";2;3\n';
    expect(readCsvRecords(text, ';', 0, 10)).toEqual([
      { lineNumber: 1, cells: ['a', 'b', 'c'] },
      { lineNumber: 2, cells: ['x;1', 'say "hi"', 'two\nlines'] },
      { lineNumber: 6, cells: ['Bäckerei "Zum Korn"', '2', '3'] },
    ]);
    expect(readCsvRecords(text, ';', 4, 10).map((record) => record.lineNumber)).toEqual([6]);
  });

  it('guesses a German bank export: preamble, semicolons, decimal comma, DD.MM.YYYY, amount and balance columns', () => {
    const text = GERMAN;
    const draft = guessMapping(text);
    expect(draft).toMatchObject({ delimiter: ';', skipRows: 7, header: true, dateFormat: 'DD.MM.YYYY', decimalSeparator: ',', amountMode: 'single' });
    expect(draft.columns).toMatchObject({ date: 1, description: 5, amount: 7, balance: 8 });
    const preview = previewCsv(text, draft, EUR);
    expect(preview.mappingError).toBeUndefined();
    expect(preview.headerLine).toBe(8);
    expect(preview.rows[0]).toMatchObject({ lineNumber: 9, date: '2026-01-30', amount: -9800n, balance: 241567n,
      description: 'Abschlag Strom/Gas Februar, Vertragskonto 4711' });
    expect(preview.rows[1]).toMatchObject({ amount: 325000n });
  });

  it('guesses a UK card export with a comma delimiter and grouped amounts in quotes', () => {
    const text = UK_CARD;
    const draft = guessMapping(text);
    expect(draft).toMatchObject({ delimiter: ',', skipRows: 0, header: true, dateFormat: 'DD/MM/YYYY', decimalSeparator: '.' });
    const preview = previewCsv(text, draft, { scale: 2, currencyCode: 'GBP' });
    expect(preview.rows.map((row) => row.amount)).toContain(-129900n);
  });

  it('reads separate money-out and money-in columns, and names a bad cell as the server would', () => {
    const text = 'Date,Details,Paid out,Paid in\n2026-03-01,Rent,1200.00,\n2026-03-02,Refund,,12.5\n2026-03-03,Oops,1.234,\n';
    const draft = guessMapping(text);
    expect(draft.amountMode).toBe('split');
    const rows = previewCsv(text, draft, EUR).rows;
    expect(rows.map((row) => row.amount)).toEqual([-120000n, 1250n, undefined]);
    expect(rows[2]!.error).toMatch(/debit "1.234"/);
  });

  it('says which column is missing before anything is read', () => {
    const text = 'Foo,Bar\n1,2\n';
    const preview = previewCsv(text, guessMapping(text), EUR);
    expect(preview.mappingError?.field).toBe('csv.amount_column');
  });

  it('sends header names when they are unique, numbers otherwise, and reads a remembered mapping back', () => {
    const header = ['Datum', 'Text', 'Betrag', 'Text'];
    const draft = fromCsvMapping({ delimiter: ';', skip_rows: 2, date_column: 'datum', date_format: 'DD.MM.YYYY', description_column: 2,
      amount_column: 'Betrag', decimal_separator: ',' }, header);
    expect(draft.columns).toMatchObject({ date: 1, description: 2, amount: 3, balance: null });
    expect(toCsvMapping(draft, header)).toEqual({ delimiter: ';', header: true, skip_rows: 2, date_column: 'Datum', date_format: 'DD.MM.YYYY',
      description_column: 2, amount_column: 'Betrag', decimal_separator: ',' });
  });
});
