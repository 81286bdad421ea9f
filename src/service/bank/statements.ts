/**
 * Importing a bank or card statement file, and reading statements back. The file is read whole and
 * checked before anything is written (a file with one bad line imports nothing; readStatement names
 * the line); then, in one write transaction holding the account's banking rows: the same file again
 * is a DUPLICATE, lines whose fingerprint the account already has are counted as duplicates and
 * skipped, and the statement with its new lines is stored and audited.
 */
import { createHash } from 'node:crypto';
import { initialValues } from '../../domain/audit.js';
import type { BankStatement, NewBankLine } from '../../domain/bank/banking.js';
import type { CsvMapping, ParsedStatement } from '../../domain/bank/statement.js';
import { LedgerError, notFound, validationError } from '../../domain/errors.js';
import type { Account } from '../../domain/types.js';
import type { BankStatementListInput, BankStatementView, ImportStatementInput } from '../../schemas/bank.js';
import type { Actor } from '../actor.js';
import { recordAudit } from '../audit-log.js';
import { confirmCredential } from '../auth/authenticate.js';
import type { Page, ServiceContext } from '../context.js';
import type { Work } from '../use-case.js';
import type { LedgerTx } from '../ports/ledger-store.js';
import { actingUserId, bankAccount } from './bank-accounts.js';
import { bankStatementView } from './bank-views.js';
import { decodeStatementBytes } from './formats/decode-statement-bytes.js';
import { readStatement } from './formats/read-statement.js';

const AUDITED_FIELDS = ['account_id', 'format', 'file_sha256', 'start_date', 'end_date', 'opening_balance', 'closing_balance',
  'line_count', 'new_count', 'duplicate_count'] as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The file's bytes and text: exactly one of `content` (text) and `content_base64` (bytes). */
function fileOf(input: ImportStatementInput): { bytes: Uint8Array; text: string } {
  if ((input.content === undefined) === (input.content_base64 === undefined)) {
    throw validationError('Give exactly one of content (the file\'s text) and content_base64 (its bytes)', 'content',
      'Send the file as text in content, or its bytes base64-encoded in content_base64');
  }
  if (input.content !== undefined) return { bytes: Buffer.from(input.content, 'utf8'), text: input.content };
  const encoded = input.content_base64!.replace(/\s+/g, '');
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) {
    throw validationError('content_base64 is not base64', 'content_base64', 'Encode the file\'s bytes with standard base64 (RFC 4648)');
  }
  const bytes = Buffer.from(encoded, 'base64');
  return { bytes, text: decodeStatementBytes(bytes) };
}

/** A file balance (in the bank's sign: positive in the holder's favour) signed by the account's normal side. */
function normalSide(account: Account, balance: bigint | null): bigint | null {
  if (balance === null) return null;
  return account.normal_balance === 'debit' ? balance : -balance;
}

export async function importBankStatement(ctx: ServiceContext, actor: Actor, input: ImportStatementInput): Promise<Work<BankStatementView>> {
  if (input.format === 'csv' && input.csv === undefined) {
    throw validationError('A CSV statement needs its column mapping', 'csv', 'Pass csv: {date_column, date_format, description_column, amount_column, ...}');
  }
  const { bytes, text } = fileOf(input);
  const account = await bankAccount(ctx.store, input.account_id);
  const currency = await ctx.currency(account.currency_id);
  // Parsing is the slow part; it runs before the transaction, which then only writes.
  const parsed = readStatement({ format: input.format, text, csv: input.csv as CsvMapping | undefined, scale: currency.asset_scale,
    currencyCode: currency.code });
  const fileSha256 = createHash('sha256').update(bytes).digest('hex');
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
    await tx.lockBankAccount(account.id);
    const current = await bankAccount(tx, account.id);
    const earlier = await tx.findBankStatementByFile(current.id, fileSha256);
    if (earlier !== undefined) {
      throw new LedgerError('DUPLICATE', `This file was imported for the account already (statement ${earlier.id}, ${earlier.imported_at})`, {
        field: 'content', suggestion: 'Nothing to do: its lines are in the books. A newer download of the same account imports only its new lines',
      });
    }
    const statement = await storeStatement(ctx, tx, current, parsed, { format: input.format, fileSha256, importedBy: actingUserId(confirmed) });
    const view = bankStatementView(statement, currency.asset_scale);
    await recordAudit(ctx, tx, confirmed, {
      action: 'bank_statement.import', target_type: 'bank_statement', target_id: statement.id, changes: initialValues(view, AUDITED_FIELDS),
    }, { occurredAt: statement.imported_at });
    return view;
  };
}

async function storeStatement(ctx: ServiceContext, tx: LedgerTx, account: Account,
  parsed: ParsedStatement, file: { format: BankStatement['format']; fileSha256: string; importedBy: string | null }): Promise<BankStatement> {
  const existing = await tx.existingFingerprints(account.id, parsed.lines.map((line) => line.fingerprint));
  const statementId = ctx.runtime.newId();
  const fresh: NewBankLine[] = parsed.lines.filter((line) => !existing.has(line.fingerprint)).map((line) => ({
    id: ctx.runtime.newId(), statement_id: statementId, account_id: account.id, posted_date: line.posted_date, amount: line.amount,
    description: line.description, external_id: line.external_id, fingerprint: line.fingerprint, line_number: line.line_number,
  }));
  const statement: BankStatement = {
    id: statementId, account_id: account.id, format: file.format, file_sha256: file.fileSha256, imported_at: ctx.now(),
    imported_by: file.importedBy, start_date: parsed.start_date, end_date: parsed.end_date,
    opening_balance: normalSide(account, parsed.opening_balance), closing_balance: normalSide(account, parsed.closing_balance),
    line_count: parsed.lines.length, new_count: fresh.length, duplicate_count: parsed.lines.length - fresh.length,
  };
  await tx.insertBankStatement(statement, fresh);
  return statement;
}

export async function getBankStatement(ctx: ServiceContext, id: string): Promise<BankStatementView> {
  const statement = await ctx.store.getBankStatement(id);
  if (!statement) throw notFound('Bank statement', id);
  return bankStatementView(statement, await ctx.scaleOf((await ctx.store.getAccount(statement.account_id))!.currency_id));
}

/** In import order. */
export async function listBankStatements(ctx: ServiceContext, input: BankStatementListInput): Promise<Page<BankStatementView>> {
  return ctx.store.read(async (reads) => {
    if (input.account_id !== undefined && !(await reads.getAccount(input.account_id))) throw notFound('Account', input.account_id, 'account_id');
    const request = ctx.pageRequest(`bank-statements:${input.account_id ?? ''}`, input);
    const page = await reads.listBankStatements({ account_id: input.account_id }, request);
    const scales = new Map<string, number>();
    for (const statement of page.items) {
      if (!scales.has(statement.account_id)) {
        scales.set(statement.account_id, await ctx.scaleOf((await reads.getAccount(statement.account_id))!.currency_id, reads));
      }
    }
    return ctx.toPage(`bank-statements:${input.account_id ?? ''}`, page, (statement) => bankStatementView(statement, scales.get(statement.account_id)!));
  });
}
