/** Reading bank lines, with their suggestions, and the entries an unmatched line could be matched to. */
import { CANDIDATE_WINDOW_DAYS, rankCandidates } from '../../domain/bank/candidates.js';
import { addDays, parseDate } from '../../domain/dates.js';
import { notFound } from '../../domain/errors.js';
import type { BankLineListInput, BankLineView, CandidateView } from '../../schemas/bank.js';
import type { Page, ServiceContext } from '../context.js';
import type { LedgerReads } from '../ports/ledger-store.js';
import { bankLineView } from './bank-views.js';
import { suggestionsFor } from './suggestions.js';

/** Candidate entries read per line before ranking. */
const CANDIDATES_READ = 200;

/** Oldest first; each unmatched line with the suggestion of the rules as they are now. */
export async function listBankLines(ctx: ServiceContext, input: BankLineListInput): Promise<Page<BankLineView>> {
  if (input.start_date !== undefined) parseDate(input.start_date, 'start_date');
  if (input.end_date !== undefined) parseDate(input.end_date, 'end_date');
  const list = `bank-lines:${[input.account_id, input.statement_id, input.status, input.start_date, input.end_date].map((part) => part ?? '').join(':')}`;
  return ctx.store.read(async (reads) => {
    if (input.account_id !== undefined && !(await reads.getAccount(input.account_id))) throw notFound('Account', input.account_id, 'account_id');
    if (input.statement_id !== undefined && !(await reads.getBankStatement(input.statement_id))) {
      throw notFound('Bank statement', input.statement_id, 'statement_id');
    }
    const page = await reads.listBankLines({
      account_id: input.account_id, statement_id: input.statement_id, status: input.status, start_date: input.start_date, end_date: input.end_date,
    }, ctx.pageRequest(list, input));
    const suggest = await suggestionsFor(ctx, reads);
    const views: BankLineView[] = [];
    for (const line of page.items) views.push(bankLineView(line, await suggest.scaleOf(line.account_id), await suggest.suggestion(line)));
    return { ...ctx.toPage(list, { items: [], next: page.next }, (item) => item), data: views };
  });
}

export async function getBankLine(ctx: ServiceContext, id: string): Promise<BankLineView> {
  return ctx.store.read(async (reads) => bankLineViewOf(ctx, reads, id));
}

export async function bankLineViewOf(ctx: ServiceContext, reads: LedgerReads, id: string): Promise<BankLineView> {
  const line = await reads.getBankLine(id);
  if (!line) throw notFound('Bank line', id);
  const suggest = await suggestionsFor(ctx, reads);
  return bankLineView(line, await suggest.scaleOf(line.account_id), await suggest.suggestion(line));
}

/**
 * Posted entries that could be this line: a line of exactly its signed amount on the bank account,
 * dated within seven days, not matched to another bank line; best first (domain/bank/candidates.ts).
 */
export async function bankLineCandidates(ctx: ServiceContext, id: string): Promise<{ data: CandidateView[] }> {
  return ctx.store.read(async (reads) => {
    const line = await reads.getBankLine(id);
    if (!line) throw notFound('Bank line', id);
    if (line.status !== 'unmatched') return { data: [] };
    const found = await reads.listUnmatchedAccountLines(line.account_id, line.amount, addDays(line.posted_date, -CANDIDATE_WINDOW_DAYS),
      addDays(line.posted_date, CANDIDATE_WINDOW_DAYS), CANDIDATES_READ);
    const entries = new Map(found.map((candidate) => [candidate.journal_entry_id, candidate]));
    const ranked = rankCandidates(line, [...entries.values()].map((candidate) => ({
      journal_entry_id: candidate.journal_entry_id, entry_date: candidate.entry_date, description: candidate.description,
      reference: candidate.reference,
    })));
    return { data: ranked.map((candidate) => ({ journal_entry_id: candidate.journal_entry_id, entry_date: candidate.entry_date,
      description: candidate.description, reference: candidate.reference, score: candidate.score, reason: candidate.reason })) };
  });
}
