/**
 * OFX statements: OFX 1.x SGML, OFX 2.x XML and QFX (Quicken's OFX, SGML with Intuit's
 * `<INTU.BID>` tags) alike. OFX 2.x is read by fast-xml-parser; one that is not well-formed XML
 * (a bare `&`, which banks do write) by the SGML reader, as OFX 1.x. One bank (`STMTRS`) or credit card (`CCSTMTRS`) statement per file;
 * a file with several accounts' statements is refused (one account per import).
 *
 * - Lines: `BANKTRANLIST/STMTTRN`. `TRNAMT` is signed from the holder's side, which is already
 *   "positive = money in" (a card purchase is negative, a card payment positive); it is taken as
 *   is (`TRNTYPE` never changes a sign). `DTPOSTED` gives the date (the date part as written,
 *   whatever the time and zone after it). `FITID` is the external id and the fingerprint.
 * - Description: `NAME` (or `PAYEE/NAME`), plus `MEMO` when it adds something: a memo that the
 *   name already contains is dropped, a memo that starts with the name (banks cut `NAME` to 32
 *   characters and put the whole text in `MEMO`) replaces it, any other memo follows after " / ".
 * - Period: `BANKTRANLIST/DTSTART` and `DTEND`, their date parts as written (`DTEND` is often the
 *   moment of the download, and stays so).
 * - Balances: `LEDGERBAL/BALAMT` is the closing balance; `AVAILBAL` is not a booked balance and is
 *   ignored. OFX states no opening balance, so it stays null (closing minus the lines would be
 *   one only if the list covered every booking since the balance's date, which OFX does not say).
 * - Currency: `CURDEF`, which must be the account's. A transaction with its own `CURRENCY`
 *   aggregate is in that currency, and is refused unless it is the account's; `ORIGCURRENCY`
 *   only tells where the amount came from and is ignored.
 */
import { bankReference, FINGERPRINT_PREFIXES, referenceIdentity } from '../../../domain/bank/statement-fingerprint.js';
import { parseOfxAmount } from '../../../domain/bank/statement-amount.js';
import { parseOfxDate } from '../../../domain/bank/statement-date.js';
import { normaliseDescription } from '../../../domain/bank/statement-description.js';
import { atLine, fileError, lineError, tooManyLines } from '../../../domain/bank/statement-errors.js';
import { MAX_STATEMENT_LINES, type StatementDraft, type StatementLineDraft } from '../../../domain/bank/statement.js';
import { LineCounter } from './line-counter.js';
import { child, children, findAll, textAt, type MarkupElement } from './markup-element.js';
import { readOfxSgml } from './read-ofx-sgml.js';
import { readXmlDocument } from './read-xml-document.js';

const STATEMENTS = new Set(['STMTRS', 'CCSTMTRS', 'INVSTMTRS']);
/** OFX 2.x starts with an XML declaration or the `<?OFX ...?>` processing instruction. */
const XML_START = /^\s*<\?(?:xml|OFX)\b/;

export function readOfxStatement(text: string, scale: number, currencyCode: string): StatementDraft {
  // OFX 2.x is XML, but banks ship it with a bare "&" ("AT&T"): such a file is read as SGML,
  // which reads closed tags too and still refuses a file cut off or a tag closing nothing.
  const root = XML_START.test(text) ? readXmlDocument(text, readOfxSgml) : readOfxSgml(text);
  const statement = theOneStatement(root);
  return new OfxStatementReader(text, scale, currencyCode.toUpperCase()).read(statement);
}

function theOneStatement(root: MarkupElement): MarkupElement {
  const ofx = child(root, 'OFX');
  if (ofx === undefined) throw fileError('The file is not OFX: it has no <OFX> element', 'Check the format, or export the statement as OFX, QFX or CSV');
  const statements = findAll(ofx, STATEMENTS);
  if (statements.length > 1) {
    throw fileError(`The file holds ${statements.length} statements (several accounts); an import reads one account's statement`,
      'Download each account\'s statement as its own file and import each into its account');
  }
  const statement = statements[0];
  if (statement === undefined) {
    const status = textAt(findAll(ofx, new Set(['STATUS']))[0], 'MESSAGE');
    throw fileError(`The OFX file holds no bank or credit card statement (STMTRS or CCSTMTRS)${status === undefined ? '' : `; the bank says: ${status}`}`);
  }
  if (statement.name === 'INVSTMTRS') throw fileError('The OFX file is an investment statement (INVSTMTRS), which is not read', 'Import a bank or credit card statement');
  return statement;
}

class OfxStatementReader {
  private readonly lines: LineCounter;

  constructor(text: string, private readonly scale: number, private readonly currencyCode: string) {
    this.lines = new LineCounter(text);
  }

  /** Reads in file order (CURDEF, the list's period, its transactions, LEDGERBAL): the first bad line is reported. */
  read(statement: MarkupElement): StatementDraft {
    const currency = child(statement, 'CURDEF');
    const currencyCode = currency?.text.trim().toUpperCase() || null;
    if (currency !== undefined && currencyCode !== null && currencyCode !== this.currencyCode) {
      throw lineError(this.lineOf(currency), `the statement is in ${currencyCode} (CURDEF), not in the account's currency ${this.currencyCode}`,
        'Import the file into an account in that currency');
    }
    const list = child(statement, 'BANKTRANLIST');
    const start_date = this.date(child(list, 'DTSTART'));
    const end_date = this.date(child(list, 'DTEND'));
    const transactions = children(list, 'STMTTRN');
    if (transactions.length > MAX_STATEMENT_LINES) throw tooManyLines();
    const lines = transactions.map((transaction) => this.line(transaction));
    const balance = child(child(statement, 'LEDGERBAL'), 'BALAMT');
    const closing_balance = balance === undefined ? null
      : atLine(this.lineOf(balance), () => parseOfxAmount(balance.text, this.scale, 'BALAMT'));
    return { start_date, end_date, opening_balance: null, closing_balance, currency_code: currencyCode, lines };
  }

  private line(transaction: MarkupElement): StatementLineDraft {
    const line_number = this.lineOf(transaction);
    return atLine(line_number, () => {
      const amount = textAt(transaction, 'TRNAMT');
      const posted = textAt(transaction, 'DTPOSTED');
      if (amount === undefined) throw lineError(line_number, 'the transaction has no TRNAMT');
      if (posted === undefined) throw lineError(line_number, 'the transaction has no DTPOSTED');
      const currency = textAt(transaction, 'CURRENCY', 'CURSYM')?.toUpperCase();
      if (currency !== undefined && currency !== this.currencyCode) {
        throw lineError(line_number, `the transaction is in ${currency} (CURRENCY), not in the account's currency ${this.currencyCode}`);
      }
      const external_id = bankReference(textAt(transaction, 'FITID'));
      return {
        line_number,
        posted_date: parseOfxDate(posted, 'DTPOSTED'),
        amount: parseOfxAmount(amount, this.scale, 'TRNAMT'),
        description: ofxDescription(textAt(transaction, 'NAME') ?? textAt(transaction, 'PAYEE', 'NAME'), textAt(transaction, 'MEMO')),
        external_id,
        identity: referenceIdentity(FINGERPRINT_PREFIXES.ofx, external_id),
      };
    });
  }

  private date(element: MarkupElement | undefined): string | null {
    const text = element?.text.trim();
    if (element === undefined || text === undefined || text === '') return null;
    return atLine(this.lineOf(element), () => parseOfxDate(text, element.name));
  }

  private lineOf(element: MarkupElement): number {
    return this.lines.lineAt(element.offset);
  }
}

/** `NAME`, plus `MEMO` when it adds something (see the module's comment). */
export function ofxDescription(name: string | undefined, memo: string | undefined): string {
  const shortText = normaliseDescription(name ?? '');
  const longText = normaliseDescription(memo ?? '');
  if (longText === '') return shortText;
  if (shortText === '') return longText;
  const shortLower = shortText.toLowerCase();
  const longLower = longText.toLowerCase();
  if (shortLower.includes(longLower)) return shortText;
  if (longLower.startsWith(shortLower)) return longText;
  return `${shortText} / ${longText}`;
}
