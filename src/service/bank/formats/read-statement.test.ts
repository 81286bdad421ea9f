import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../../test/fixtures/domain.js';
import { readStatement } from './read-statement.js';

const SIMPLE = { date_column: 'Date', date_format: 'YYYY-MM-DD', description_column: 'Text', amount_column: 'Amount' } as const;

function csvRows(count: number): string {
  const rows = ['Date,Text,Amount'];
  for (let index = 0; index < count; index += 1) rows.push(`2026-01-${String((index % 28) + 1).padStart(2, '0')},Coffee,-3.45`);
  return rows.join('\n');
}

describe('readStatement', () => {
  it('ignores a byte order mark at the start of the text', () => {
    const statement = readStatement({ format: 'csv', text: '\uFEFFDate,Text,Amount\n2026-01-02,a,1\n', csv: SIMPLE, scale: 2, currencyCode: 'EUR' });
    expect(statement.lines.map((line) => [line.line_number, line.amount])).toEqual([[2, 100n]]);
  });

  it('refuses an unknown format', () => {
    const error = thrownBy(() => readStatement({ format: 'mt940' as 'csv', text: '', scale: 2, currencyCode: 'EUR' }));
    expect([error.field, error.message]).toEqual(['format', 'format must be one of "csv", "ofx", "camt053"']);
  });

  it('refuses CSV without a mapping', () => {
    expect(thrownBy(() => readStatement({ format: 'csv', text: 'a\n', scale: 2, currencyCode: 'EUR' })).field).toBe('csv');
  });

  it('reads 200,000 transactions and refuses 200,001', () => {
    expect(readStatement({ format: 'csv', text: csvRows(200_000), csv: SIMPLE, scale: 2, currencyCode: 'EUR' }).lines).toHaveLength(200_000);
    const error = thrownBy(() => readStatement({ format: 'csv', text: csvRows(200_001), csv: SIMPLE, scale: 2, currencyCode: 'EUR' }));
    expect([error.field, error.message]).toEqual(['content', 'The file holds more than 200,000 transactions']);
  });

  it('refuses more than 200,000 OFX transactions and CAMT entries', () => {
    const transaction = '<STMTTRN><TRNAMT>1<DTPOSTED>20260101</STMTTRN>';
    const ofx = `<OFX><STMTRS><CURDEF>EUR<BANKTRANLIST>${transaction.repeat(200_001)}</BANKTRANLIST></STMTRS></OFX>`;
    expect(thrownBy(() => readStatement({ format: 'ofx', text: ofx, scale: 2, currencyCode: 'EUR' })).message).toBe('The file holds more than 200,000 transactions');
    const camt = `<Document><BkToCstmrStmt><Stmt>${'<Ntry/>'.repeat(200_001)}</Stmt></BkToCstmrStmt></Document>`;
    expect(thrownBy(() => readStatement({ format: 'camt053', text: camt, scale: 2, currencyCode: 'EUR' })).message).toBe('The file holds more than 200,000 transactions');
  });

  it('refuses a scale that is not a whole number from 0', () => {
    expect(() => readStatement({ format: 'csv', text: '', csv: SIMPLE, scale: -1, currencyCode: 'EUR' })).toThrow(RangeError);
  });
});
