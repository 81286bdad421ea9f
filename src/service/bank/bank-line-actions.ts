/**
 * Deciding what a bank line is: post it as a new entry (through the one posting path), accept many
 * suggestions at once (all or none), match it to entries already posted, exclude it with a reason,
 * or take a decision back. Nothing is decided silently: a suggestion waits for one of these.
 *
 * Order of refusals: an unknown line (404); the permission; a line a finished reconciliation holds
 * (409 RECONCILED, for unmatch and exclude); a line already matched or excluded (409
 * BANK_LINE_RESOLVED, for post, match and exclude); then the input (400), and for a post every
 * rule of the posting path.
 */
import type { BankLine } from '../../domain/bank/banking.js';
import { LedgerError, notFound, validationError } from '../../domain/errors.js';
import { formatWithCode } from '../../domain/money/amount.js';
import type { JournalEntryView } from '../../domain/types.js';
import type {
  AcceptBankLinesInput, BankLineView, ExcludeBankLineInput, MatchBankLineInput, PostBankLineInput,
} from '../../schemas/bank.js';
import type { EntryView } from '../../schemas/journal-entry.js';
import { type Actor, requirePermission } from '../actor.js';
import { recordAudit } from '../audit-log.js';
import { confirmCredential } from '../auth/authenticate.js';
import type { ServiceContext } from '../context.js';
import type { LedgerTx } from '../ports/ledger-store.js';
import type { Work } from '../use-case.js';
import { entryViews, postStandard } from '../post-journal-entry.js';
import { bankLineViewOf } from './bank-lines.js';
import { type Suggester, suggestionsFor } from './suggestions.js';

export interface BankPostResult {
  lines: BankLineView[];
  entries: EntryView[];
}

/** What a dry run of a bank post answers: the lines as they would be, and the entries that would be posted. */
export interface BankDryRun extends BankPostResult {
  dry_run: true;
}

async function lineToActOn(tx: LedgerTx, id: string): Promise<BankLine> {
  const line = await tx.getBankLine(id);
  if (!line) throw notFound('Bank line', id);
  await tx.lockBankAccount(line.account_id);
  return line;
}

function assertUnresolved(line: BankLine): void {
  if (line.status !== 'unmatched') {
    throw new LedgerError('BANK_LINE_RESOLVED', `Bank line ${line.id} is ${line.status} already`, {
      suggestion: line.status === 'matched' ? 'Unmatch it first (POST /bank-lines/{id}/unmatch) to decide again' : 'Unmatch it first to take the exclusion back',
    });
  }
}

function assertNotReconciled(line: BankLine): void {
  if (line.reconciliation_id !== null) {
    throw new LedgerError('RECONCILED', `Bank line ${line.id} is part of finished reconciliation ${line.reconciliation_id}`, {
      suggestion: 'A finished reconciliation is permanent: correct the books with a new entry, or a reversal, instead',
    });
  }
}

/** Posts one unmatched line as a two-line entry and matches the line to it, inside `tx`. */
async function postLine(ctx: ServiceContext, tx: LedgerTx, actor: Actor, suggest: Suggester, line: BankLine, input: PostBankLineInput,
  field: string): Promise<JournalEntryView> {
  assertUnresolved(line);
  const suggestion = input.counter_account_id === undefined ? await suggest.suggestion(line) : null;
  const counterId = input.counter_account_id ?? suggestion?.counter_account_id;
  if (counterId === undefined) {
    throw validationError(`Bank line ${line.id} has no suggestion: say which account it posts against`, field === '' ? 'counter_account_id' : field,
      'Give counter_account_id, or add a bank rule that matches the line');
  }
  if (counterId === line.account_id) {
    throw validationError('The counter account is the bank account itself', 'counter_account_id', 'Name the account on the other side of the money');
  }
  if (line.amount === 0n) throw validationError(`Bank line ${line.id} is of zero: there is nothing to post`, field || 'id', 'Exclude it instead');
  const size = (line.amount < 0n ? -line.amount : line.amount).toString();
  const [bankSide, counterSide] = line.amount > 0n ? ['debit_amount', 'credit_amount'] : ['credit_amount', 'debit_amount'];
  const entry = await postStandard(ctx, tx, actor, {
    entry_date: input.entry_date ?? line.posted_date,
    description: input.description ?? suggestion?.description ?? line.description,
    metadata: { bank_line_id: line.id, bank_statement_id: line.statement_id },
    lines: [{ account_id: line.account_id, [bankSide]: size }, { account_id: counterId, [counterSide]: size }],
  });
  const bankAccountLines = entry.lines.filter((entryLine) => entryLine.account_id === line.account_id);
  await tx.matchBankLine(line.id, bankAccountLines.map((entryLine) => ({ journal_line_id: entryLine.id, journal_entry_id: entry.id })));
  await recordAudit(ctx, tx, actor, { action: 'bank_line.post', target_type: 'bank_line', target_id: line.id, changes: {
    status: { old: 'unmatched', new: 'matched' }, journal_entry_ids: { old: [], new: [entry.id] },
    ...(suggestion === null ? {} : { rule_id: { old: null, new: suggestion.rule_id } }),
  } }, { occurredAt: entry.posted_at });
  return entry;
}

/** The actor, confirmed, holding both permissions a post from the bank needs. */
async function poster(ctx: ServiceContext, tx: LedgerTx, actor: Actor): Promise<Actor> {
  const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
  requirePermission(confirmed, 'journals:create');
  return confirmed;
}

/**
 * Posts one unmatched line as an entry and matches it; answers the line and the entry. Declared
 * with bank:write (use-cases.ts); a post needs journals:create as well.
 */
export function postBankLine(ctx: ServiceContext, actor: Actor, id: string, input: PostBankLineInput): Work<BankPostResult> {
  requirePermission(actor, 'journals:create');
  return async (tx) => {
    const confirmed = await poster(ctx, tx, actor);
    const line = await lineToActOn(tx, id);
    const entry = await postLine(ctx, tx, confirmed, await suggestionsFor(ctx, tx), line, input, '');
    return { lines: [await bankLineViewOf(ctx, tx, id)], entries: await entryViews(ctx, [entry], tx) };
  };
}

/** Posts every listed line by its suggestion, all or none; answers the lines and the entries. Needs journals:create too. */
export function acceptBankLines(ctx: ServiceContext, actor: Actor, input: AcceptBankLinesInput): Work<BankPostResult> {
  requirePermission(actor, 'journals:create');
  return async (tx) => {
    const confirmed = await poster(ctx, tx, actor);
    const suggest = await suggestionsFor(ctx, tx);
    const entries: JournalEntryView[] = [];
    for (const [index, id] of input.line_ids.entries()) {
      const line = await tx.getBankLine(id);
      if (!line) throw validationError(`Bank line ${id} does not exist`, `line_ids[${index}]`, 'List bank lines to find their ids');
      await tx.lockBankAccount(line.account_id);
      try {
        entries.push(await postLine(ctx, tx, confirmed, suggest, line, {}, `line_ids[${index}]`));
      } catch (error) {
        throw atLine(error, index);
      }
    }
    const lines: BankLineView[] = [];
    for (const id of input.line_ids) lines.push(await bankLineViewOf(ctx, tx, id));
    return { lines, entries: await entryViews(ctx, entries, tx) };
  };
}

/** Names the line of the batch an error is about. */
function atLine(error: unknown, index: number): unknown {
  if (!(error instanceof LedgerError)) return error;
  return new LedgerError(error.code, `Line ${index + 1} of line_ids: ${error.message}`, {
    field: error.field?.startsWith('line_ids') ? error.field : `line_ids[${index}]${error.field === undefined ? '' : `.${error.field}`}`,
    suggestion: error.suggestion,
  });
}

export function matchBankLine(ctx: ServiceContext, actor: Actor, id: string, input: MatchBankLineInput): Work<BankLineView> {
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
    const line = await lineToActOn(tx, id);
    assertUnresolved(line);
    const accountLines = await tx.accountLinesOfEntries(line.account_id, input.journal_entry_ids);
    const known = new Set((await tx.getEntries(input.journal_entry_ids)).map((entry) => entry.id));
    for (const [index, entryId] of input.journal_entry_ids.entries()) {
      const field = `journal_entry_ids[${index}]`;
      if (!known.has(entryId)) throw validationError(`Journal entry ${entryId} does not exist`, field, 'List journal entries to find their ids');
      const ofEntry = accountLines.filter((accountLine) => accountLine.journal_entry_id === entryId);
      if (ofEntry.length === 0) {
        throw validationError(`Journal entry ${entryId} has no line on the bank account`, field, 'Match the line to entries that move this account');
      }
      const taken = ofEntry.find((accountLine) => accountLine.bank_line_id !== null);
      if (taken !== undefined) {
        throw new LedgerError('DUPLICATE', `Journal entry ${entryId} is matched to bank line ${taken.bank_line_id} already`, {
          field, suggestion: 'Unmatch that bank line first if this one is the right one',
        });
      }
    }
    // In the order the entries were given, as the line will answer them.
    accountLines.sort((a, b) => input.journal_entry_ids.indexOf(a.journal_entry_id) - input.journal_entry_ids.indexOf(b.journal_entry_id));
    const sum = accountLines.reduce((total, accountLine) => total + accountLine.debit_amount - accountLine.credit_amount, 0n);
    if (sum !== line.amount) {
      const currency = await ctx.currency((await tx.getAccount(line.account_id))!.currency_id, tx);
      throw new LedgerError('AMOUNT_MISMATCH', `The entries move the bank account by ${formatWithCode(sum, currency)}, the bank line by `
        + `${formatWithCode(line.amount, currency)}`, { field: 'journal_entry_ids',
        suggestion: 'Match entries whose lines on the bank account add up to exactly the bank line (money in is a debit of the bank account)' });
    }
    await tx.matchBankLine(line.id, accountLines.map((accountLine) => ({ journal_line_id: accountLine.journal_line_id,
      journal_entry_id: accountLine.journal_entry_id })));
    await recordAudit(ctx, tx, confirmed, { action: 'bank_line.match', target_type: 'bank_line', target_id: line.id, changes: {
      status: { old: 'unmatched', new: 'matched' }, journal_entry_ids: { old: [], new: [...input.journal_entry_ids] },
    } });
    return bankLineViewOf(ctx, tx, id);
  };
}

export function excludeBankLine(ctx: ServiceContext, actor: Actor, id: string, input: ExcludeBankLineInput): Work<BankLineView> {
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
    const line = await lineToActOn(tx, id);
    assertNotReconciled(line);
    assertUnresolved(line);
    await tx.excludeBankLine(id, input.reason);
    await recordAudit(ctx, tx, confirmed, { action: 'bank_line.exclude', target_type: 'bank_line', target_id: id, changes: {
      status: { old: 'unmatched', new: 'excluded' }, excluded_reason: { old: null, new: input.reason },
    } });
    return bankLineViewOf(ctx, tx, id);
  };
}

/** Back to unmatched: the entries stay posted; an excluded line loses its exclusion. An unmatched line stays as it is. */
export function unmatchBankLine(ctx: ServiceContext, actor: Actor, id: string): Work<BankLineView> {
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
    const line = await lineToActOn(tx, id);
    assertNotReconciled(line);
    if (line.status === 'unmatched') return bankLineViewOf(ctx, tx, id);
    await tx.unmatchBankLine(id);
    await recordAudit(ctx, tx, confirmed, { action: 'bank_line.unmatch', target_type: 'bank_line', target_id: id, changes: {
      status: { old: line.status, new: 'unmatched' }, journal_entry_ids: { old: line.journal_entry_ids, new: [] },
      excluded_reason: { old: line.excluded_reason, new: null },
    } });
    return bankLineViewOf(ctx, tx, id);
  };
}
