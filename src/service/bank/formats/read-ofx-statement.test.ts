import { describe, expect, it } from 'vitest';
import { fixtureText } from '../../../../test/fixtures/bank-statements.js';
import { thrownBy } from '../../../../test/fixtures/domain.js';
import { ofxDescription } from './read-ofx-statement.js';
import { readStatement } from './read-statement.js';

const readOfx = (text: string, currencyCode = 'USD') => readStatement({ format: 'ofx', text, scale: 2, currencyCode });

describe('an OFX 1.02 SGML bank statement (CHARSET:1252, unclosed leaves, empty <MEMO> leaves)', () => {
  it('reads every line exactly', () => {
    expect(readOfx(fixtureText('ofx102-checking-1252.ofx'))).toEqual({
      start_date: '2026-01-01',
      end_date: '2026-01-31',
      opening_balance: null,
      closing_balance: 151757n,
      currency_code: 'USD',
      lines: [
        { line_number: 43, posted_date: '2026-01-02', amount: 245000n, description: 'ACME PAYROLL INC / DIRECT DEP PPD ID: 9111111101',
          external_id: '202601020001', fingerprint: 'ofx:202601020001' },
        // <MEMO> with no text before <NAME>: an empty leaf, and NAME still belongs to the transaction.
        { line_number: 51, posted_date: '2026-01-05', amount: -85000n, description: 'CHECK 1042', external_id: '202601050001', fingerprint: 'ofx:202601050001' },
        // The memo starts with the (cut) name, so it replaces it; the 0xE9 byte is "É" under CHARSET:1252.
        { line_number: 60, posted_date: '2026-01-06', amount: -1875n, description: 'CAFÉ BLEU & BISTRO AUSTIN TX', external_id: '202601060001', fingerprint: 'ofx:202601060001' },
        { line_number: 68, posted_date: '2026-01-15', amount: -6410n, description: 'AT&T MOBILITY / ONLINE PMT', external_id: '202601150001', fingerprint: 'ofx:202601150001' },
        { line_number: 76, posted_date: '2026-01-31', amount: 42n, description: 'INTEREST PAYMENT', external_id: '202601310001', fingerprint: 'ofx:202601310001' },
      ],
    });
  });

  it('reads nothing from a file with one bad transaction, and names its line', () => {
    const text = fixtureText('ofx102-checking-1252.ofx').replace('<TRNAMT>-64.10', '<TRNAMT>-64.105');
    const error = thrownBy(() => readOfx(text));
    expect([error.field, error.message]).toEqual(['content', 'line 68: TRNAMT "-64.105" has more than 2 decimal places']);
  });

  it.each([
    ['a transaction without TRNAMT', '<TRNAMT>-64.10\r\n', '', 'line 68: the transaction has no TRNAMT'],
    ['a posting date that does not exist', '<DTPOSTED>20260115', '<DTPOSTED>20260231', 'line 68: DTPOSTED "20260231" is not a valid OFX date such as 20260131 or 20260131120000[-5:EST]'],
    ['a bad closing balance', '<BALAMT>1517.57', '<BALAMT>1,517.57', 'line 86: BALAMT "1,517.57" is not an amount such as -1234.56'],
    ['a transaction in another currency', '<MEMO>ONLINE PMT', '<MEMO>ONLINE PMT\r\n<CURRENCY>\r\n<CURRATE>0.92\r\n<CURSYM>EUR\r\n</CURRENCY>',
      'line 68: the transaction is in EUR (CURRENCY), not in the account\'s currency USD'],
  ])('refuses %s', (_name, find, replace, message) => {
    expect(thrownBy(() => readOfx(fixtureText('ofx102-checking-1252.ofx').replace(find, replace))).message).toBe(message);
  });

  it('refuses a statement in another currency than the account\'s', () => {
    const error = thrownBy(() => readOfx(fixtureText('ofx102-checking-1252.ofx'), 'EUR'));
    expect([error.field, error.message]).toEqual(['content', 'line 34: the statement is in USD (CURDEF), not in the account\'s currency EUR']);
  });

  it('refuses a file with several accounts\' statements', () => {
    const text = fixtureText('ofx102-checking-1252.ofx');
    const statement = text.slice(text.indexOf('<STMTTRNRS>'), text.indexOf('</STMTTRNRS>') + '</STMTTRNRS>'.length);
    const error = thrownBy(() => readOfx(text.replace('</BANKMSGSRSV1>', `${statement}\r\n</BANKMSGSRSV1>`)));
    expect([error.field, error.message]).toEqual(['content', 'The file holds 2 statements (several accounts); an import reads one account\'s statement']);
  });

  it('numbers a FITID the bank repeats, so that both transactions are read', () => {
    const text = fixtureText('ofx102-checking-1252.ofx').replace('<FITID>202601150001', '<FITID>202601060001');
    expect(readOfx(text).lines.map((line) => line.fingerprint)).toEqual([
      'ofx:202601020001', 'ofx:202601050001', 'ofx:202601060001', 'ofx:202601060001#2', 'ofx:202601310001',
    ]);
  });
});

describe('an OFX 2.1 XML credit card statement', () => {
  it('reads every line exactly (a purchase is negative, a refund and a payment positive)', () => {
    expect(readOfx(fixtureText('ofx211-creditcard.ofx'))).toEqual({
      start_date: '2026-01-04',
      end_date: '2026-02-03',
      opening_balance: null,
      closing_balance: -123496n,
      currency_code: 'USD',
      lines: [
        { line_number: 33, posted_date: '2026-01-05', amount: -1199n, description: 'SPOTIFY USA / 877-778-1161 NY',
          external_id: '2026010524692160004100012345678', fingerprint: 'ofx:2026010524692160004100012345678' },
        { line_number: 42, posted_date: '2026-01-12', amount: -24830n, description: 'BARNES & NOBLE #2291',
          external_id: '2026011224692160012100098765432', fingerprint: 'ofx:2026011224692160012100098765432' },
        // ORIGCURRENCY only says where the amount came from: the amount is in USD.
        { line_number: 50, posted_date: '2026-01-18', amount: -8640n, description: 'HOTEL LE MARAIS PARIS',
          external_id: '2026011824692160018100011112222', fingerprint: 'ofx:2026011824692160018100011112222' },
        { line_number: 61, posted_date: '2026-01-20', amount: 4200n, description: 'BARNES & NOBLE #2291 / RETURN',
          external_id: '2026012024692160020100033334444', fingerprint: 'ofx:2026012024692160020100033334444' },
        { line_number: 69, posted_date: '2026-01-25', amount: 50000n, description: 'PAYMENT - THANK YOU',
          external_id: '2026012574000000000000000000001', fingerprint: 'ofx:2026012574000000000000000000001' },
        // 23:00 Pacific on 31 January is 1 February in UTC; the date stays as the bank wrote it.
        { line_number: 76, posted_date: '2026-01-31', amount: -143027n, description: 'DELTA AIR LINES ATLANTA GA TKT 0062291234567',
          external_id: '2026013124692160031100055556666', fingerprint: 'ofx:2026013124692160031100055556666' },
      ],
    });
  });

  it('refuses a document type declaration', () => {
    const text = fixtureText('ofx211-creditcard.ofx').replace('<OFX>', '<!DOCTYPE OFX [<!ENTITY x "y">]>\n<OFX>');
    expect(thrownBy(() => readOfx(text)).message).toBe('line 3: the file declares a document type (<!DOCTYPE), which statement files never need and which is not read');
  });

  it('refuses a file cut off in the middle', () => {
    const text = fixtureText('ofx211-creditcard.ofx');
    expect(thrownBy(() => readOfx(text.slice(0, text.indexOf('<STMTTRN>', 1200)))).message)
      .toBe('line 42: the file ends before </BANKTRANLIST>; it may have been cut off');
  });

  it('reads a file that is not well-formed XML because of a bare "&" as SGML', () => {
    const text = fixtureText('ofx211-creditcard.ofx').replaceAll('BARNES &amp; NOBLE', 'BARNES & NOBLE');
    expect(readOfx(text)).toEqual(readOfx(fixtureText('ofx211-creditcard.ofx')));
  });

  it('refuses a file whose tags cross, even as SGML', () => {
    const text = fixtureText('ofx211-creditcard.ofx').replace('<NAME>SPOTIFY USA</NAME>', '<NAME>SPOTIFY USA</NAMEE>');
    expect(thrownBy(() => readOfx(text)).message).toBe('line 39: </NAMEE> closes no open element');
  });
});

describe('a QFX file (SGML with Intuit\'s tags, closed and unclosed leaves, a PAYEE aggregate)', () => {
  it('reads every line exactly', () => {
    expect(readOfx(fixtureText('qfx-savings.qfx'))).toEqual({
      start_date: '2026-01-01',
      end_date: '2026-02-01',
      opening_balance: null,
      closing_balance: 1238317n,
      currency_code: 'USD',
      lines: [
        { line_number: 15, posted_date: '2026-01-07', amount: 250000n, description: 'TRANSFER FROM CHECKING ...2231', external_id: '90000010700001', fingerprint: 'ofx:90000010700001' },
        { line_number: 16, posted_date: '2026-01-15', amount: -12000n, description: 'CITY OF SPRINGFIELD WATER / ACCT 55-1021', external_id: '90000011500001', fingerprint: 'ofx:90000011500001' },
        { line_number: 17, posted_date: '2026-01-31', amount: 317n, description: 'INTEREST EARNED', external_id: '90000013100001', fingerprint: 'ofx:90000013100001' },
      ],
    });
  });
});

describe('files that are not one bank or card statement', () => {
  it.each([
    ['a CSV', 'Date,Amount\n2026-01-01,1\n', 'The file is not OFX: it has no <OFX> element'],
    ['an OFX file without a statement', '<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>15500<SEVERITY>ERROR<MESSAGE>Signon invalid</STATUS></SONRS></SIGNONMSGSRSV1></OFX>',
      'The OFX file holds no bank or credit card statement (STMTRS or CCSTMTRS); the bank says: Signon invalid'],
    ['an investment statement', '<OFX><INVSTMTMSGSRSV1><INVSTMTTRNRS><INVSTMTRS><CURDEF>USD</INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1></OFX>',
      'The OFX file is an investment statement (INVSTMTRS), which is not read'],
  ])('refuses %s', (_name, text, message) => {
    const error = thrownBy(() => readOfx(text));
    expect([error.field, error.message]).toEqual(['content', message]);
  });
});

describe('ofxDescription', () => {
  it.each([
    ['NAME alone', 'ACME', undefined, 'ACME'],
    ['MEMO alone', undefined, 'ONLINE PMT', 'ONLINE PMT'],
    ['a memo that adds something', 'AT&T', 'ONLINE PMT', 'AT&T / ONLINE PMT'],
    ['a memo the name already says', 'BARNES & NOBLE #2291', 'barnes & noble', 'BARNES & NOBLE #2291'],
    ['a memo that continues the cut name', 'DELTA AIR LINES ATL', 'DELTA AIR LINES ATLANTA GA', 'DELTA AIR LINES ATLANTA GA'],
    ['whitespace', '  A   B ', ' C\tD ', 'A B / C D'],
    ['nothing', undefined, undefined, ''],
  ])('%s', (_name, name, memo, expected) => {
    expect(ofxDescription(name, memo)).toBe(expected);
  });
});
