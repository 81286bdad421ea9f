/**
 * The one posting path. Every entry (standard, reversal, closing) is validated here and written
 * with its lines and maintained totals in the caller's write transaction. A posted entry is its
 * own audit record (docs/audit.md): it carries who posted it, how they proved it and in which
 * request, its hash covers them, and the audit log reads posts from the entries; a post appends
 * no record of its own.
 */
import { parseDate } from '../domain/dates.js';
import { LedgerError } from '../domain/errors.js';
import { buildReversal } from '../domain/journal/reversal.js';
import { type EntryInput, parseLines, validateEntry } from '../domain/journal/validate-entry.js';
import type { EntryType, JournalEntry, JournalEntryView } from '../domain/types.js';
import { notFound } from '../domain/errors.js';
import type { CreateEntryInput, EntryView, ReverseInput } from '../schemas/journal-entry.js';
import { type Actor, hasPermission, requirePermission } from './actor.js';
import { lockDateOf } from './settings.js';
import { auditActor } from './audit-log.js';
import { confirmCredential } from './auth/authenticate.js';
import type { ServiceContext } from './context.js';
import { ENTRY_HASH_VERSION } from './entry-hash.js';
import type { LedgerReads, LedgerTx } from './ports/ledger-store.js';
import type { Work } from './use-case.js';
import { entryView } from './views.js';

export interface PostingMeta {
  entry_type: EntryType;
  reverses_id: string | null;
  /**
   * Who posts: the entry's created_by and its audit fields, and for the lock date (posting on or
   * before it needs periods:override; closing entries are exempt).
   */
  actor: Actor;
  /** Why an entry on or before the lock date is posted anyway. */
  override_reason?: string | null | undefined;
  /** The lock date, when the caller read it already in this transaction (a batch reads it once, not per entry). */
  lock_date?: string | null | undefined;
}

/**
 * The lock date (settings): an entry dated on or before it is refused unless the actor holds
 * periods:override and gives a reason, which the entry keeps (null when the date is not locked).
 */
async function lockDateOverride(tx: LedgerTx, entryDate: string, meta: PostingMeta): Promise<string | null> {
  if (meta.entry_type === 'closing') return null;
  const lockDate = meta.lock_date !== undefined ? meta.lock_date : await lockDateOf(tx);
  if (lockDate === null || entryDate > lockDate) return null;
  const reason = meta.override_reason?.trim() ?? '';
  const allowed = hasPermission(meta.actor, 'periods:override');
  if (allowed && reason !== '') return reason;
  throw new LedgerError('PERIOD_LOCKED', `The books are locked up to ${lockDate}; this entry is dated ${entryDate}`, {
    field: 'entry_date',
    suggestion: allowed
      ? 'Give override_reason (why this entry belongs on or before the lock date), or date the entry after it'
      : `Date the entry after ${lockDate}, or ask someone with periods:override to post it with an override_reason`,
  });
}

/** Validates and writes an entry inside `tx`; returns it as stored, with account names. */
export async function postWithin(ctx: ServiceContext, tx: LedgerTx, input: EntryInput, meta: PostingMeta): Promise<JournalEntryView> {
  const entryDate = parseDate(input.entry_date, 'entry_date');
  const lines = parseLines(input.lines);
  const accounts = await tx.getAccounts(lines.map((line) => line.account_id));
  const period = await tx.findPeriodContaining(entryDate);
  const currencies = await ctx.currenciesOf(accounts.values(), tx);
  const valid = validateEntry(entryDate, lines, { accounts, period, currencies, allowInactiveAccounts: meta.entry_type === 'closing' });
  const overrideReason = await lockDateOverride(tx, entryDate, meta);
  const { credential_type, credential_id, request_id } = auditActor(meta.actor);
  const entry: JournalEntry = {
    id: ctx.runtime.newId(),
    entry_date: entryDate,
    description: input.description,
    reference: input.reference ?? null,
    metadata: input.metadata ?? null,
    period_id: valid.period.id,
    entry_type: meta.entry_type,
    reverses_id: meta.reverses_id,
    reversed_by_id: null,
    created_by: meta.actor.user_id,
    posted_at: ctx.now(),
    currency_id: valid.currency_id,
    override_reason: overrideReason,
    hash_version: ENTRY_HASH_VERSION,
    credential_type,
    credential_id,
    request_id,
    lines: valid.lines.map((line) => ({ id: ctx.runtime.newId(), ...line })),
  };
  // The store refuses an entry that would take its currency's debit total past the 128-bit bound.
  const place = await tx.insertEntry(entry);
  return {
    ...entry,
    ...place,
    lines: entry.lines.map((line) => {
      const account = accounts.get(line.account_id)!;
      return { ...line, account_number: account.account_number, account_name: account.name };
    }),
  };
}

/** A posting use case's work inside a write transaction; it answers the entries it posted, in order. */
export type PostingWork = (tx: LedgerTx) => Promise<JournalEntryView[]>;

/*
 * Each posting use case as work for a write transaction, with its permission checked first. A real
 * post commits the work; a dry run (execute-command.ts) runs the very same work and rolls it back,
 * so both apply the same rules in the same order.
 */

/** A standard entry by the actor, posted: the audit log shows it as `journal_entry.create`. */
export async function postStandard(ctx: ServiceContext, tx: LedgerTx, actor: Actor, input: CreateEntryInput,
  lockDate?: string | null): Promise<JournalEntryView> {
  return postWithin(ctx, tx, input, { entry_type: 'standard', reverses_id: null, actor, override_reason: input.override_reason, lock_date: lockDate });
}

export function createEntryWork(ctx: ServiceContext, actor: Actor, input: CreateEntryInput): PostingWork {
  requirePermission(actor, 'journals:create');
  return async (tx) => [await postStandard(ctx, tx, await confirmCredential(ctx, tx, actor, 'journals:create'), input)];
}

export function reverseEntryWork(ctx: ServiceContext, actor: Actor, id: string, input: ReverseInput): PostingWork {
  requirePermission(actor, 'journals:reverse');
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'journals:reverse');
    const original = await tx.getEntry(id);
    if (!original) throw notFound('Journal entry', id);
    const draft = buildReversal(original, input.entry_date);
    // The audit log shows the reversal as `journal_entry.reverse` of the original: its
    // reversed_by_id goes from null to the new entry.
    return [await postWithin(ctx, tx, draft, { entry_type: 'reversal', reverses_id: original.id, actor: confirmed, override_reason: input.override_reason })];
  };
}

/**
 * Posts entries one after another in the caller's transaction, stopping at the first rejected one;
 * its error names the entry by index (`entries[3].lines[1].credit_amount`). An error of the input
 * itself (a file that cannot be read) passes through as it is.
 */
async function postEach(ctx: ServiceContext, tx: LedgerTx, actor: Actor, inputs: Iterable<CreateEntryInput> | AsyncIterable<CreateEntryInput>,
  posted: (entry: JournalEntryView) => void = () => {}): Promise<number> {
  let count = 0;
  // Nothing a batch posts changes the settings: the lock date is read once for all its entries.
  const lockDate = await lockDateOf(tx);
  for await (const input of inputs) {
    let entry: JournalEntryView;
    try {
      entry = await postStandard(ctx, tx, actor, input, lockDate);
    } catch (error) {
      throw atEntry(error, count);
    }
    count += 1;
    posted(entry);
  }
  return count;
}

/** Many entries in one transaction: all of them or none (the batch route). */
export function createEntriesWork(ctx: ServiceContext, actor: Actor, inputs: readonly CreateEntryInput[]): PostingWork {
  requirePermission(actor, 'journals:create');
  return async (tx) => {
    const posted: JournalEntryView[] = [];
    await postEach(ctx, tx, await confirmCredential(ctx, tx, actor, 'journals:create'), inputs, (entry) => posted.push(entry));
    return posted;
  };
}

/** The entries as the API shows them. */
export async function entryViews(ctx: ServiceContext, entries: readonly JournalEntryView[], reads?: LedgerReads): Promise<EntryView[]> {
  const views: EntryView[] = [];
  for (const entry of entries) views.push(entryView(entry, await ctx.scaleOf(entry.currency_id, reads)));
  return views;
}

/** The work of a post, answering its entries as the API shows them (a dry run answers from the same). */
function viewsOf(ctx: ServiceContext, work: PostingWork): Work<EntryView[]> {
  return async (tx) => entryViews(ctx, await work(tx), tx);
}

export function postJournalEntry(ctx: ServiceContext, actor: Actor, input: CreateEntryInput): Work<EntryView[]> {
  return viewsOf(ctx, createEntryWork(ctx, actor, input));
}

export function reverseJournalEntry(ctx: ServiceContext, actor: Actor, id: string, input: ReverseInput): Work<EntryView[]> {
  return viewsOf(ctx, reverseEntryWork(ctx, actor, id, input));
}

/** Posts many entries in one transaction (the batch route). */
export function postJournalEntries(ctx: ServiceContext, actor: Actor, inputs: readonly CreateEntryInput[]): Work<EntryView[]> {
  return viewsOf(ctx, createEntriesWork(ctx, actor, inputs));
}

/**
 * Posts a stream of entries in one transaction, all of them or none, keeping none of them in
 * memory (`ledger journal-entries import` of a file of any size); answers how many were posted.
 * A store may run a write again from the start (PostgreSQL, after losing a race to another
 * transaction), so the stream is given as a function that opens it from its beginning.
 */
export async function importJournalEntries(ctx: ServiceContext, actor: Actor, open: () => AsyncIterable<CreateEntryInput>): Promise<number> {
  requirePermission(actor, 'journals:create');
  return ctx.store.write((tx) => postEach(ctx, tx, actor, open()), { alone: true });
}

/** Re-labels an entry's error with the entry's position in a batch. */
export function atEntry(error: unknown, index: number): unknown {
  if (!(error instanceof LedgerError)) return error;
  return new LedgerError(error.code, `Entry ${index + 1}: ${error.message}`, {
    field: error.field === undefined ? `entries[${index}]` : `entries[${index}].${error.field}`,
    suggestion: error.suggestion,
  });
}
