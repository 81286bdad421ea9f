/**
 * ISO 20022 CAMT.053 bank-to-customer statements (`Document/BkToCstmrStmt/Stmt`), any version
 * (`camt.053.001.02` to `.13`): elements are matched by their local names, whatever the namespace
 * or its prefix. One `Stmt` per file; several (several accounts or several days) are refused.
 *
 * - Currency: `Acct/Ccy` must be the account's; so must every balance's and booked entry's
 *   `Amt@Ccy`.
 * - Balances: `Bal` with `Tp/CdOrPrtry/Cd` `OPBD` is the opening balance (`PRCD`, the previous
 *   closing, when there is no `OPBD`), `CLBD` the closing one; `Amt` signed by `CdtDbtInd` (CRDT
 *   positive, in the holder's favour). The first balance of each kind counts.
 * - Period: `FrToDt/FrDtTm` and `ToDtTm`, their date parts as written.
 * - Lines: each `Ntry` is one line, a batch too (one `Ntry` with several `TxDtls` is one booking,
 *   of the amount the bank booked; its transactions are not split out). Only booked entries are
 *   read: `Sts` `BOOK` (or no status, as a statement holds booked entries); `PDNG`, `INFO` and
 *   `FUTR` entries are skipped and counted nowhere; any other status is refused.
 * - Amount: `Amt`, positive for `CdtDbtInd` CRDT, negative for DBIT. `RvslInd` does NOT flip it:
 *   ISO 20022 defines `CdtDbtInd` of a reversal as the reversal's own direction ("if the
 *   CreditDebitIndicator is CRDT and ReversalIndicator is Yes, the original operation was a
 *   debit entry"), so the returned direct debit is already a CRDT, and the entries add up from
 *   the opening to the closing balance only when read this way.
 * - Date: `BookgDt` (`Dt` or `DtTm`), else `ValDt`.
 * - Reference: `AcctSvcrRef`, else `NtryRef` (`NONREF` counts as none); it is the external id
 *   and gives the fingerprint.
 * - Description of an entry with at most one `TxDtls`: the counterparty's name (`RltdPties`: the
 *   `Dbtr` of money in, the `Cdtr` of money out; the other way round for a reversal) and the
 *   remittance text (every `RmtInf/Ustrd` joined with spaces, else the structured creditor
 *   references `RmtInf/Strd/CdtrRefInf/Ref`, else `AddtlNtryInf`), joined by " / ". Of a batch:
 *   `AddtlNtryInf` (the bank's own summary, "SEPA batch transfer, 3 items"), else each
 *   transaction's name and remittance, joined by "; ".
 */
import { parseCamtAmount } from '../../../domain/bank/statement-amount.js';
import { parseIsoDateOrDateTime } from '../../../domain/bank/statement-date.js';
import { joinDescription, normaliseDescription } from '../../../domain/bank/statement-description.js';
import { atLine, fileError, lineError, quoted, tooManyLines } from '../../../domain/bank/statement-errors.js';
import { bankReference, FINGERPRINT_PREFIXES } from '../../../domain/bank/statement-fingerprint.js';
import { MAX_STATEMENT_LINES, type StatementDraft, type StatementLineDraft } from '../../../domain/bank/statement.js';
import { LineCounter } from './line-counter.js';
import { child, children, descend, findAll, textAt, type MarkupElement } from './markup-element.js';
import { readXmlDocument } from './read-xml-document.js';

const MESSAGES = new Set(['BkToCstmrStmt', 'BkToCstmrAcctRpt', 'BkToCstmrDbtCdtNtfctn']);
const SKIPPED_STATUSES = new Set(['PDNG', 'INFO', 'FUTR']);
const TRUE = new Set(['true', '1']);

export function readCamt053Statement(text: string, scale: number, currencyCode: string): StatementDraft {
  const statement = theOneStatement(readXmlDocument(text));
  return new CamtStatementReader(text, scale, currencyCode.toUpperCase()).read(statement);
}

function theOneStatement(root: MarkupElement): MarkupElement {
  const messages = findAll(root, MESSAGES);
  const statements = messages.filter((message) => message.name === 'BkToCstmrStmt').flatMap((message) => children(message, 'Stmt'));
  if (statements.length > 1) {
    throw fileError(`The file holds ${statements.length} statements (Stmt); an import reads one account's statement at a time`,
      'Ask the bank for one statement per file, or split the file into one file per Stmt');
  }
  const statement = statements[0];
  if (statement !== undefined) return statement;
  const other = messages[0]?.name;
  throw fileError(other === 'BkToCstmrAcctRpt' ? 'The file is a camt.052 account report, not a camt.053 statement'
    : other === 'BkToCstmrDbtCdtNtfctn' ? 'The file is a camt.054 notification, not a camt.053 statement'
    : 'The file holds no CAMT.053 statement (Document/BkToCstmrStmt/Stmt)', 'Export the account statement as camt.053');
}

class CamtStatementReader {
  private readonly lines: LineCounter;

  constructor(text: string, private readonly scale: number, private readonly currencyCode: string) {
    this.lines = new LineCounter(text);
  }

  /** Reads in file order (Acct, period, balances, entries), so the first bad line is the one reported. */
  read(statement: MarkupElement): StatementDraft {
    const currency = descend(statement, 'Acct', 'Ccy');
    const currencyCode = currency?.text.trim().toUpperCase() || null;
    if (currency !== undefined && currencyCode !== null && currencyCode !== this.currencyCode) {
      throw lineError(this.lineOf(currency), `the statement's account is in ${currencyCode} (Acct/Ccy), not in the account's currency ${this.currencyCode}`,
        'Import the file into an account in that currency');
    }
    const period = child(statement, 'FrToDt');
    const start_date = this.date(child(period, 'FrDtTm'));
    const end_date = this.date(child(period, 'ToDtTm'));
    const balances = new Map<string, bigint>();
    for (const balance of children(statement, 'Bal')) {
      const code = textAt(balance, 'Tp', 'CdOrPrtry', 'Cd')?.toUpperCase();
      const amount = atLine(this.lineOf(balance), () => this.signedAmount(balance));
      if (code !== undefined && !balances.has(code)) balances.set(code, amount);
    }
    const entries = children(statement, 'Ntry');
    if (entries.length > MAX_STATEMENT_LINES) throw tooManyLines();
    const lines: StatementLineDraft[] = [];
    for (const entry of entries) {
      const line = this.line(entry);
      if (line !== undefined) lines.push(line);
    }
    return {
      start_date,
      end_date,
      opening_balance: balances.get('OPBD') ?? balances.get('PRCD') ?? null,
      closing_balance: balances.get('CLBD') ?? null,
      currency_code: currencyCode,
      lines,
    };
  }

  /** The entry as a statement line, or undefined when it is not booked. */
  private line(entry: MarkupElement): StatementLineDraft | undefined {
    const line_number = this.lineOf(entry);
    return atLine(line_number, () => {
      const status = (textAt(entry, 'Sts', 'Cd') ?? textAt(entry, 'Sts', 'Prtry') ?? textAt(entry, 'Sts'))?.toUpperCase();
      if (status !== undefined && SKIPPED_STATUSES.has(status)) return undefined;
      if (status !== undefined && status !== 'BOOK') throw lineError(line_number, `the entry's status ${quoted(status)} is not BOOK, PDNG, INFO or FUTR`);
      const amount = this.signedAmount(entry);
      const reversal = TRUE.has(textAt(entry, 'RvslInd')?.toLowerCase() ?? '');
      const accountServicerReference = bankReference(textAt(entry, 'AcctSvcrRef'));
      const entryReference = bankReference(textAt(entry, 'NtryRef'));
      return {
        line_number,
        posted_date: this.entryDate(entry, line_number),
        amount,
        description: entryDescription(entry, textAt(entry, 'CdtDbtInd') === 'CRDT', reversal),
        external_id: accountServicerReference ?? entryReference,
        identity: accountServicerReference !== null ? FINGERPRINT_PREFIXES.camtAccountServicerReference + accountServicerReference
          : entryReference !== null ? FINGERPRINT_PREFIXES.camtEntryReference + entryReference : null,
      };
    });
  }

  /** `Amt` signed by `CdtDbtInd`, in the account's currency. */
  private signedAmount(element: MarkupElement): bigint {
    const amount = child(element, 'Amt');
    if (amount === undefined) throw fileError(`${element.name} has no Amt`);
    const currency = amount.attributes.Ccy?.trim().toUpperCase();
    if (currency !== undefined && currency !== this.currencyCode) {
      throw fileError(`the amount ${amount.text.trim()} ${currency} is not in the account's currency ${this.currencyCode}`,
        'Amounts in another currency than the account\'s are not imported; import the file into an account in that currency');
    }
    const magnitude = parseCamtAmount(amount.text, this.scale, 'Amt');
    const indicator = textAt(element, 'CdtDbtInd');
    if (indicator === 'CRDT') return magnitude;
    if (indicator === 'DBIT') return -magnitude;
    throw fileError(`${element.name} has CdtDbtInd ${quoted(indicator ?? '')}, not CRDT or DBIT`);
  }

  private entryDate(entry: MarkupElement, line_number: number): string {
    for (const [holder, kind] of [['BookgDt', 'Dt'], ['BookgDt', 'DtTm'], ['ValDt', 'Dt'], ['ValDt', 'DtTm']] as const) {
      const text = textAt(entry, holder, kind);
      if (text !== undefined) return parseIsoDateOrDateTime(text, `${holder}/${kind}`);
    }
    throw lineError(line_number, 'the entry has no booking date (BookgDt) or value date (ValDt)');
  }

  private date(element: MarkupElement | undefined): string | null {
    const text = element?.text.trim();
    if (element === undefined || text === undefined || text === '') return null;
    return atLine(this.lineOf(element), () => parseIsoDateOrDateTime(text, element.name));
  }

  private lineOf(element: MarkupElement): number {
    return this.lines.lineAt(element.offset);
  }
}

/** See the module's comment. `isCredit`: money came in. */
function entryDescription(entry: MarkupElement, isCredit: boolean, reversal: boolean): string {
  const details = children(entry, 'NtryDtls').flatMap((entryDetails) => children(entryDetails, 'TxDtls'));
  const additional = normaliseDescription(textAt(entry, 'AddtlNtryInf') ?? '');
  if (details.length > 1) {
    return additional !== '' ? additional
      : joinDescription(details.map((transaction) => joinDescription([counterpartyName(transaction, isCredit, reversal), remittance(transaction)], ' / ')), '; ');
  }
  const transaction = details[0];
  const text = (transaction === undefined ? '' : remittance(transaction)) || additional;
  return joinDescription([transaction === undefined ? undefined : counterpartyName(transaction, isCredit, reversal), text], ' / ');
}

/** The other party: who paid us (Dbtr) for money in, whom we paid (Cdtr) for money out; a reversal swaps them. */
function counterpartyName(transaction: MarkupElement, isCredit: boolean, reversal: boolean): string | undefined {
  const party = descend(transaction, 'RltdPties', isCredit !== reversal ? 'Dbtr' : 'Cdtr');
  // camt.053.001.02 puts the name in Dbtr/Nm; later versions in Dbtr/Pty/Nm.
  return textAt(party, 'Nm') ?? textAt(party, 'Pty', 'Nm');
}

function remittance(transaction: MarkupElement): string {
  const information = child(transaction, 'RmtInf');
  const unstructured = joinDescription(children(information, 'Ustrd').map((element) => element.text), ' ');
  if (unstructured !== '') return unstructured;
  return joinDescription(children(information, 'Strd').map((structured) => textAt(structured, 'CdtrRefInf', 'Ref')), ' ');
}
