import { describe, expect, it } from 'vitest';
import { fixtureText, rowFingerprint } from '../../../../test/fixtures/bank-statements.js';
import { thrownBy } from '../../../../test/fixtures/domain.js';
import type { ParsedStatement } from '../../../domain/bank/statement.js';
import { readStatement } from './read-statement.js';

const readCamt = (text: string, currencyCode: string) => readStatement({ format: 'camt053', text, scale: 2, currencyCode });
const sum = (statement: ParsedStatement) => statement.lines.reduce((total, line) => total + line.amount, 0n);

describe('a CAMT.053.001.02 statement (German bank, batch, reversal, pending entry, references)', () => {
  const statement = () => readCamt(fixtureText('camt053-001-02.xml'), 'EUR');

  it('reads every booked entry exactly', () => {
    expect(statement()).toEqual({
      // No FrToDt: the first and last booked dates.
      start_date: '2026-01-02',
      end_date: '2026-01-31',
      opening_balance: 100000n,
      closing_balance: 142690n,
      currency_code: 'EUR',
      lines: [
        { line_number: 59, posted_date: '2026-01-02', amount: 235000n, description: 'Müller & Söhne GmbH / Gehalt Januar 2026',
          external_id: '2026010200017', fingerprint: 'camt:acctsvcrref:2026010200017' },
        { line_number: 108, posted_date: '2026-01-05', amount: -8990n,
          description: 'Stadtwerke Musterstadt GmbH / Abschlag Strom Januar Vertragskonto 4711 Kundennr. 0815',
          external_id: '2026010500042', fingerprint: 'camt:acctsvcrref:2026010500042' },
        // A batch of three transfers is one line of the amount the bank booked.
        { line_number: 150, posted_date: '2026-01-10', amount: -187000n, description: 'SEPA-Sammelüberweisung 3 Posten',
          external_id: '2026011000003', fingerprint: 'camt:acctsvcrref:2026011000003' },
        // The returned direct debit (RvslInd) is a CRDT: money back in; the counterparty is the original creditor.
        { line_number: 210, posted_date: '2026-01-12', amount: 8990n, description: 'Stadtwerke Musterstadt GmbH / RUECKLASTSCHRIFT Abschlag Strom Januar',
          external_id: '2026011200005', fingerprint: 'camt:acctsvcrref:2026011200005' },
        // The PDNG entry of line 252 is not read.
        { line_number: 265, posted_date: '2026-01-20', amount: -4560n, description: 'Kartenzahlung girocard REWE Markt 2026-01-19',
          external_id: 'KARTE-0120-01', fingerprint: 'camt:ntryref:KARTE-0120-01' },
        // AcctSvcrRef NONREF is no reference: a row fingerprint.
        { line_number: 278, posted_date: '2026-01-31', amount: -750n, description: 'Kontoführungsentgelt',
          external_id: null, fingerprint: rowFingerprint('2026-01-31', -750n, 'kontoführungsentgelt', 1) },
      ],
    });
  });

  it('adds up from the opening to the closing balance (so reversals are read the right way round)', () => {
    const { opening_balance, closing_balance } = statement();
    expect((opening_balance ?? 0n) + sum(statement())).toBe(closing_balance);
  });

  it('joins the transactions of a batch without AddtlNtryInf', () => {
    const text = fixtureText('camt053-001-02.xml').replace('<AddtlNtryInf>SEPA-Sammelüberweisung 3 Posten</AddtlNtryInf>', '');
    expect(readCamt(text, 'EUR').lines[2]?.description)
      .toBe('Anna Schmidt / Honorar Dezember; Druckerei Becker KG / RE 2025-1187; Finanzamt Musterstadt / USt-VA 12/2025');
  });

  it.each([
    ['an entry amount in another currency', '<Amt Ccy="EUR">45.60</Amt>', '<Amt Ccy="USD">45.60</Amt>',
      'line 265: the amount 45.60 USD is not in the account\'s currency EUR'],
    ['a balance in another currency', '<Amt Ccy="EUR">1426.90</Amt>', '<Amt Ccy="GBP">1426.90</Amt>', 'line 42: the amount 1426.90 GBP is not in the account\'s currency EUR'],
    ['an entry amount with too many decimals', '<Amt Ccy="EUR">89.90</Amt>', '<Amt Ccy="EUR">89.905</Amt>', 'line 108: Amt "89.905" has more than 2 decimal places'],
    ['an unknown CdtDbtInd', '<CdtDbtInd>CRDT</CdtDbtInd>\n        <Sts>BOOK', '<CdtDbtInd>CR</CdtDbtInd>\n        <Sts>BOOK', 'line 59: Ntry has CdtDbtInd "CR", not CRDT or DBIT'],
    ['an unknown status', '<Sts>BOOK</Sts>', '<Sts>HOLD</Sts>', 'line 59: the entry\'s status "HOLD" is not BOOK, PDNG, INFO or FUTR'],
    ['a booking date that does not exist', '<Dt>2026-01-20</Dt>', '<Dt>2026-01-32</Dt>', 'line 265: BookgDt/Dt "2026-01-32" is not a valid date such as 2026-01-31 or 2026-01-31T10:15:00'],
  ])('refuses %s, naming the line, and reads nothing', (_name, find, replace, message) => {
    const error = thrownBy(() => readCamt(fixtureText('camt053-001-02.xml').replace(find, replace), 'EUR'));
    expect([error.code, error.field, error.message]).toEqual(['VALIDATION_ERROR', 'content', message]);
  });

  it('skips a pending entry without reading it (its currency does not matter)', () => {
    const text = fixtureText('camt053-001-02.xml').replace('<Amt Ccy="EUR">25.00</Amt>', '<Amt Ccy="USD">25.00</Amt>');
    expect(readCamt(text, 'EUR').lines).toHaveLength(6);
  });

  it('refuses a statement of an account in another currency', () => {
    const error = thrownBy(() => readCamt(fixtureText('camt053-001-02.xml'), 'USD'));
    expect([error.field, error.message]).toEqual(['content', 'line 20: the statement\'s account is in EUR (Acct/Ccy), not in the account\'s currency USD']);
  });

  it('refuses a file with several statements', () => {
    const text = fixtureText('camt053-001-02.xml');
    const stmt = text.slice(text.indexOf('<Stmt>'), text.indexOf('</Stmt>') + '</Stmt>'.length);
    const error = thrownBy(() => readCamt(text.replace('</BkToCstmrStmt>', `${stmt}\n</BkToCstmrStmt>`), 'EUR'));
    expect([error.field, error.message]).toEqual(['content', 'The file holds 2 statements (Stmt); an import reads one account\'s statement at a time']);
  });
});

describe('a CAMT.053.001.08 statement (Swiss bank, CHF, period, PRCD, DtTm, structured reference)', () => {
  const expected: ParsedStatement = {
    start_date: '2026-02-01',
    end_date: '2026-02-28',
    // No OPBD: the previous closing balance (PRCD) opens the statement.
    opening_balance: 523015n,
    closing_balance: 599990n,
    currency_code: 'CHF',
    lines: [
      { line_number: 58, posted_date: '2026-02-03', amount: 120000n, description: 'Muster AG / 210000000003139471430009017',
        external_id: 'ZKB-20260203-0001', fingerprint: 'camt:acctsvcrref:ZKB-20260203-0001' },
      // Instructed in EUR (AmtDtls), booked in CHF: the booked amount is read.
      { line_number: 110, posted_date: '2026-02-10', amount: -43000n, description: 'Ferienwohnung Alpenblick GmbH / Anzahlung Buchung 2026-118',
        external_id: 'ZKB-20260210-0007', fingerprint: 'camt:acctsvcrref:ZKB-20260210-0007' },
      { line_number: 153, posted_date: '2026-02-27', amount: -30n, description: 'Spesen Auslandzahlung',
        external_id: 'ZKB-20260227-0002', fingerprint: 'camt:acctsvcrref:ZKB-20260227-0002' },
      // No booking date: the value date.
      { line_number: 177, posted_date: '2026-02-28', amount: 5n, description: 'Zinsgutschrift', external_id: 'Z-2026-02', fingerprint: 'camt:ntryref:Z-2026-02' },
    ],
  };

  it('reads every entry exactly', () => {
    expect(readCamt(fixtureText('camt053-001-08.xml'), 'CHF')).toEqual(expected);
  });

  it('adds up from the opening to the closing balance', () => {
    expect(expected.lines.reduce((total, line) => total + line.amount, expected.opening_balance ?? 0n)).toBe(expected.closing_balance);
  });

  it('reads the same with a namespace prefix and CRLF line ends', () => {
    const prefixed = fixtureText('camt053-001-08.xml')
      .replace(/<(\/?)([A-Za-z]+)/g, (_whole, slash: string, name: string) => `<${slash}camt:${name}`)
      .replace('xmlns=', 'xmlns:camt=').replace(/\n/g, '\r\n');
    expect(readCamt(prefixed, 'CHF')).toEqual(expected);
  });
});

describe('files that are not one CAMT.053 statement', () => {
  it.each([
    ['a camt.052 report', '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08"><BkToCstmrAcctRpt><Rpt/></BkToCstmrAcctRpt></Document>',
      'The file is a camt.052 account report, not a camt.053 statement'],
    ['a camt.054 notification', '<Document><BkToCstmrDbtCdtNtfctn><Ntfctn/></BkToCstmrDbtCdtNtfctn></Document>', 'The file is a camt.054 notification, not a camt.053 statement'],
    ['another XML file', '<Document><CstmrCdtTrfInitn/></Document>', 'The file holds no CAMT.053 statement (Document/BkToCstmrStmt/Stmt)'],
  ])('refuses %s', (_name, text, message) => {
    const error = thrownBy(() => readCamt(text, 'EUR'));
    expect([error.field, error.message]).toEqual(['content', message]);
  });
});
