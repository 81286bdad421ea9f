/**
 * Reconciling a bank or card account with its statement: the statement's balance against the
 * cleared balance of the books, to the last minor unit.
 *
 * A journal line of the account is cleared when a finished reconciliation reconciled it before,
 * when it is matched to a bank line dated on or before the statement date, or when it was marked
 * cleared in this reconciliation (an opening balance, say). `cleared_balance` sums the cleared
 * lines signed by the account's normal side: the lines reconciled before count through
 * `previously_reconciled_balance`, and `cleared` lists the ones this reconciliation clears.
 * `outstanding` are the other lines dated on or before the statement date (in the books, not yet
 * on the bank), `unmatched_bank_lines` the bank's lines dated on or before it that the books do
 * not have yet. Finishing needs a difference of exactly zero: the cleared lines are then reconciled
 * for good, the bank lines they came from (and lines excluded by then) locked, and what was
 * outstanding kept with the reconciliation as it was, for the printed report.
 */
import { initialValues } from '../../domain/audit.js';
import type { BankLine, Reconciliation } from '../../domain/bank/banking.js';
import { parseDate } from '../../domain/dates.js';
import { LedgerError, notFound, validationError } from '../../domain/errors.js';
import { formatAmount, formatWithCode, isWithinRange } from '../../domain/money/amount.js';
import type { Account } from '../../domain/types.js';
import type {
  BankLineView, ClearLinesInput, ReconciliationDetailView, ReconciliationView, StartReconciliationInput,
} from '../../schemas/bank.js';
import type { Actor } from '../actor.js';
import { recordAudit } from '../audit-log.js';
import { confirmCredential } from '../auth/authenticate.js';
import type { Page, PageInput, ServiceContext } from '../context.js';
import type { Work } from '../use-case.js';
import type { LedgerReads, LedgerTx } from '../ports/ledger-store.js';
import { actingUserId, bankAccount } from './bank-accounts.js';
import { bankLineView, normalSigned, reconciliationLineView, reconciliationView } from './bank-views.js';

type ReconciliationLineView = ReconciliationDetailView['outstanding'][number];

/** What a finished reconciliation keeps of the moment it was finished. */
interface FinishedReport {
  outstanding: ReconciliationLineView[];
  unmatched_bank_lines: BankLineView[];
}

interface Worked {
  account: Account;
  scale: number;
  detail: ReconciliationDetailView;
  /** For finishing: the lines to reconcile and the bank lines to lock. */
  clearedLineIds: string[];
  bankLineIds: string[];
}

async function unmatchedBankLinesThrough(reads: LedgerReads, accountId: string, date: string, status: BankLine['status']): Promise<BankLine[]> {
  const lines: BankLine[] = [];
  let after: readonly (string | number)[] | undefined;
  do {
    const page = await reads.listBankLines({ account_id: accountId, status, end_date: date }, { limit: 500, after });
    lines.push(...page.items);
    after = page.next;
  } while (after !== undefined);
  return lines;
}

async function work(ctx: ServiceContext, reads: LedgerReads, reconciliation: Reconciliation): Promise<Worked> {
  const account = (await reads.getAccount(reconciliation.account_id))!;
  const scale = await ctx.scaleOf(account.currency_id, reads);
  const normal = account.normal_balance;
  const reconciledNet = await reads.reconciledTotal(account.id);
  if (reconciliation.status === 'finished') {
    const cleared = await reads.reconciledLinesOf(reconciliation.id);
    const ownNet = cleared.reduce((sum, line) => sum + normalSigned(line, normal), 0n);
    const report = JSON.parse(reconciliation.finished_report ?? '{"outstanding":[],"unmatched_bank_lines":[]}') as FinishedReport;
    const view = reconciliationView(reconciliation, reconciliation.statement_balance, scale);
    const previously = reconciliation.statement_balance - ownNet;
    return { account, scale, clearedLineIds: [], bankLineIds: [], detail: {
      ...view, previously_reconciled_balance: previously.toString(), display_previously_reconciled_balance: formatAmount(previously, scale),
      cleared_lines: cleared.map((line) => line.journal_line_id), cleared: cleared.map((line) => reconciliationLineView(line, normal, scale)),
      outstanding: report.outstanding, unmatched_bank_lines: report.unmatched_bank_lines,
    } };
  }
  const previously = normal === 'debit' ? reconciledNet : -reconciledNet;
  const lines = await reads.unreconciledLines(account.id, reconciliation.statement_date, reconciliation.id);
  const cleared = lines.filter((line) => line.matched_on_or_before || line.marked);
  const outstanding = lines.filter((line) => !line.matched_on_or_before && !line.marked);
  const clearedBalance = cleared.reduce((sum, line) => sum + normalSigned(line, normal), previously);
  if (!isWithinRange(clearedBalance)) throw new RangeError('a cleared balance outside the signed 128-bit range');
  const unmatched = await unmatchedBankLinesThrough(reads, account.id, reconciliation.statement_date, 'unmatched');
  const excluded = await unmatchedBankLinesThrough(reads, account.id, reconciliation.statement_date, 'excluded');
  return {
    account, scale,
    clearedLineIds: cleared.map((line) => line.journal_line_id),
    bankLineIds: [...new Set([...cleared.flatMap((line) => (line.bank_line_id === null ? [] : [line.bank_line_id])),
      ...excluded.filter((line) => line.reconciliation_id === null).map((line) => line.id)])],
    detail: {
      ...reconciliationView(reconciliation, clearedBalance, scale),
      previously_reconciled_balance: previously.toString(), display_previously_reconciled_balance: formatAmount(previously, scale),
      cleared_lines: cleared.map((line) => line.journal_line_id),
      cleared: cleared.map((line) => reconciliationLineView(line, normal, scale, line.matched_on_or_before ? 'bank_match' : 'mark')),
      outstanding: outstanding.map((line) => reconciliationLineView(line, normal, scale)),
      unmatched_bank_lines: unmatched.map((line) => bankLineView(line, scale, null)),
    },
  };
}

async function openReconciliation(tx: LedgerTx, id: string): Promise<Reconciliation> {
  const reconciliation = await tx.getReconciliation(id);
  if (!reconciliation) throw notFound('Reconciliation', id);
  await tx.lockBankAccount(reconciliation.account_id);
  if (reconciliation.status === 'finished') {
    throw new LedgerError('RECONCILED', `Reconciliation ${id} is finished`, { suggestion: 'Start a new reconciliation for a later statement' });
  }
  return reconciliation;
}

export function startReconciliation(ctx: ServiceContext, actor: Actor, input: StartReconciliationInput): Work<ReconciliationDetailView> {
  const statementDate = parseDate(input.statement_date, 'statement_date');
  const statementBalance = BigInt(input.statement_balance);
  if (!isWithinRange(statementBalance)) throw validationError('statement_balance is outside the signed 128-bit range', 'statement_balance');
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
    const account = await bankAccount(tx, input.account_id);
    await tx.lockBankAccount(account.id);
    const open = await tx.findOpenReconciliation(account.id);
    if (open !== undefined) {
      throw new LedgerError('DUPLICATE', `Reconciliation ${open.id} of this account (statement of ${open.statement_date}) is still open`, {
        field: 'account_id', suggestion: 'Finish it first, or continue it: one reconciliation per account at a time',
      });
    }
    const last = await tx.lastFinishedReconciliation(account.id);
    if (last !== undefined && statementDate <= last.statement_date) {
      throw validationError(`statement_date must be after ${last.statement_date}, the date of the last finished reconciliation`, 'statement_date',
        'Reconcile the next statement');
    }
    const reconciliation: Reconciliation = {
      id: ctx.runtime.newId(), account_id: account.id, statement_date: statementDate, statement_balance: statementBalance, status: 'open',
      created_at: ctx.now(), created_by: actingUserId(confirmed), finished_at: null, finished_by: null, finished_report: null,
    };
    await tx.insertReconciliation(reconciliation);
    await recordAudit(ctx, tx, confirmed, { action: 'reconciliation.create', target_type: 'reconciliation', target_id: reconciliation.id,
      changes: initialValues({ account_id: account.id, statement_date: statementDate, statement_balance: input.statement_balance },
        ['account_id', 'statement_date', 'statement_balance']) }, { occurredAt: reconciliation.created_at });
    return (await work(ctx, tx, reconciliation)).detail;
  };
}

export async function getReconciliation(ctx: ServiceContext, id: string): Promise<ReconciliationDetailView> {
  return ctx.store.read(async (reads) => {
    const reconciliation = await reads.getReconciliation(id);
    if (!reconciliation) throw notFound('Reconciliation', id);
    return (await work(ctx, reads, reconciliation)).detail;
  });
}

/** Newest statement first. An open one is shown with its cleared balance as the books stand now. */
export async function listReconciliations(ctx: ServiceContext, input: PageInput & { account_id?: string | undefined }): Promise<Page<ReconciliationView>> {
  const list = `reconciliations:${input.account_id ?? ''}`;
  return ctx.store.read(async (reads) => {
    if (input.account_id !== undefined && !(await reads.getAccount(input.account_id))) throw notFound('Account', input.account_id, 'account_id');
    const page = await reads.listReconciliations({ account_id: input.account_id }, ctx.pageRequest(list, input));
    const views: ReconciliationView[] = [];
    for (const reconciliation of page.items) {
      const { detail } = await work(ctx, reads, reconciliation);
      const { previously_reconciled_balance: _p, display_previously_reconciled_balance: _d, cleared_lines: _c, cleared: _l, outstanding: _o,
        unmatched_bank_lines: _u, ...view } = detail;
      views.push(view);
    }
    return { ...ctx.toPage(list, { items: [], next: page.next }, (item) => item), data: views };
  });
}

/** Marks lines cleared (or takes the marks back) in an open reconciliation. */
function setCleared(ctx: ServiceContext, actor: Actor, id: string, input: ClearLinesInput, clear: boolean): Work<ReconciliationDetailView> {
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
    const reconciliation = await openReconciliation(tx, id);
    const candidates = new Set((await tx.unreconciledLines(reconciliation.account_id, reconciliation.statement_date, reconciliation.id))
      .filter((line) => line.entry_date <= reconciliation.statement_date).map((line) => line.journal_line_id));
    const reconciled = await tx.reconciledLineIds(input.journal_line_ids);
    for (const [index, lineId] of input.journal_line_ids.entries()) {
      if (reconciled.has(lineId)) {
        throw new LedgerError('RECONCILED', `Journal line ${lineId} was reconciled before`, { field: `journal_line_ids[${index}]`,
          suggestion: 'It counts already, through the previously reconciled balance' });
      }
      if (!candidates.has(lineId)) {
        throw validationError(`Journal line ${lineId} is not a line of this account dated on or before ${reconciliation.statement_date}`,
          `journal_line_ids[${index}]`, 'Pick lines from the reconciliation\'s outstanding or cleared lists');
      }
    }
    if (clear) await tx.markReconciliationLines(id, input.journal_line_ids);
    else await tx.unmarkReconciliationLines(id, input.journal_line_ids);
    await recordAudit(ctx, tx, confirmed, { action: clear ? 'reconciliation.clear' : 'reconciliation.unclear', target_type: 'reconciliation',
      target_id: id, changes: { journal_line_ids: { old: null, new: [...input.journal_line_ids] } } });
    return (await work(ctx, tx, reconciliation)).detail;
  };
}

export function clearReconciliationLines(ctx: ServiceContext, actor: Actor, id: string, input: ClearLinesInput): Work<ReconciliationDetailView> {
  return setCleared(ctx, actor, id, input, true);
}

export function unclearReconciliationLines(ctx: ServiceContext, actor: Actor, id: string, input: ClearLinesInput): Work<ReconciliationDetailView> {
  return setCleared(ctx, actor, id, input, false);
}

export function finishReconciliation(ctx: ServiceContext, actor: Actor, id: string): Work<ReconciliationDetailView> {
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
    const reconciliation = await openReconciliation(tx, id);
    const worked = await work(ctx, tx, reconciliation);
    if (worked.detail.difference !== '0') {
      const currency = await ctx.currency((await tx.getAccount(reconciliation.account_id))!.currency_id, tx);
      const written = (minor: string) => formatWithCode(BigInt(minor), currency);
      throw new LedgerError('RECONCILIATION_DIFFERENCE', `The statement balance ${written(worked.detail.statement_balance)} differs `
        + `from the cleared balance ${written(worked.detail.cleared_balance)} by ${written(worked.detail.difference)}`, {
        suggestion: 'Match or post the bank\'s lines, or clear the lines the bank has, until the difference is zero',
      });
    }
    const report: FinishedReport = { outstanding: worked.detail.outstanding, unmatched_bank_lines: worked.detail.unmatched_bank_lines };
    const finishedAt = ctx.now();
    await tx.finishReconciliation(id, finishedAt, actingUserId(confirmed), worked.clearedLineIds, worked.bankLineIds, JSON.stringify(report));
    await recordAudit(ctx, tx, confirmed, { action: 'reconciliation.finish', target_type: 'reconciliation', target_id: id, changes: {
      status: { old: 'open', new: 'finished' }, cleared_balance: { old: null, new: worked.detail.cleared_balance },
      reconciled_lines: { old: null, new: worked.clearedLineIds.length },
    } }, { occurredAt: finishedAt });
    return (await work(ctx, tx, (await tx.getReconciliation(id))!)).detail;
  };
}
