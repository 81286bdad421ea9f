/**
 * The one executor of use cases: every face hands it a use case from the table (use-cases.ts) and
 * a command envelope (`actor`, `input`, `dryRun`, `idempotencyKey`). It is the only place that
 * knows what a dry run and a replay are, and both are the same thing seen twice: the use case's
 * one write transaction, run for real, run and rolled back, or answered from what the first run
 * kept.
 *
 * 1. The declared permission is checked first, for every face.
 * 2. A dry run runs the very work of the real write in a write transaction that is then rolled
 *    back (rolled-back-write.ts): it can neither miss a rule nor differ from the real write. It
 *    neither keeps nor replays a key, which stays free for the real request that usually follows.
 * 3. Under an idempotency key (idempotency.ts) a kept answer is replayed, a key used with another
 *    request is IDEMPOTENCY_CONFLICT; otherwise the key is claimed inside the write's own
 *    transaction, before the work, and the answer is kept with it.
 */
import type { Static, TSchema } from 'typebox';
import { isLedgerError, validationError } from '../domain/errors.js';
import { type Actor, requirePermission } from './actor.js';
import type { ServiceContext } from './context.js';
import {
  answerDigest, claim, type IdempotencyIntent, IdempotentReplay, intentOf, keep, keepEntryIds, type KeptAnswer, keptAnswer, keptEntryIds,
  keptJson, statusOf,
} from './idempotency.js';
import { getJournalEntries } from './journal-entries.js';
import type { LedgerTx, WriteOptions } from './ports/ledger-store.js';
import { appendEvents } from './events.js';
import { writeRolledBack } from './rolled-back-write.js';
import type { Answer, Command, Outcome, ReadUseCase, WriteUseCase } from './use-case.js';

export async function executeWrite<S extends TSchema, R, A, D>(ctx: ServiceContext, useCase: WriteUseCase<S, R, A, D>,
  command: Command<Static<S>>): Promise<Outcome<A, D>> {
  if (useCase.postsEntries !== true || command.dryRun === true) return executeCommand(ctx, useCase, command);
  let outcome: Outcome<A, D>;
  try {
    outcome = await executeCommand(ctx, useCase, command);
  } catch (error) {
    ctx.observer.entriesRefused(isLedgerError(error) ? error.code : 'INTERNAL_ERROR');
    throw error;
  }
  if (outcome.kind === 'done') ctx.observer.entriesPosted(Array.isArray(outcome.data) ? outcome.data.length : 1);
  return outcome;
}

async function executeCommand<S extends TSchema, R, A, D>(ctx: ServiceContext, useCase: WriteUseCase<S, R, A, D>,
  command: Command<Static<S>>): Promise<Outcome<A, D>> {
  const { actor, input } = command;
  if (useCase.permission !== null) requirePermission(actor, useCase.permission);
  const queued = queuedAs(useCase);
  if (command.dryRun === true) {
    const answer = useCase.dryRun;
    if (answer === undefined) throw validationError(`${useCase.name} has no dry run`, 'dry_run', 'Leave dry_run out');
    const work = await useCase.prepare(ctx, actor, input, true);
    const data = await writeRolledBack(ctx.store, async (tx) => answer(ctx, tx, await work(tx)), queued);
    return { kind: 'dry-run', data } as Outcome<A, D>;
  }
  if (useCase.idempotent === false || command.idempotencyKey === undefined) {
    const work = await useCase.prepare(ctx, actor, input, false);
    return { kind: 'done', ...await ctx.store.write(async (tx) => answered(ctx, tx, useCase, actor, await work(tx)), queued) };
  }
  return executeOnce(ctx, useCase, actor, input, intentOf(actor.user_id, command.idempotencyKey, useCase.name, input));
}

/** The committed work's answer, with its events appended in the same transaction (events.ts). */
async function answered<A>(ctx: ServiceContext, tx: LedgerTx, useCase: Pick<WriteUseCase<TSchema, unknown, A>, 'answer' | 'event'>, actor: Actor,
  result: unknown): Promise<Answer<A>> {
  const answer = useCase.answer(result);
  if (useCase.event !== undefined) await appendEvents(ctx, tx, actor, useCase.event, answer.data);
  return answer;
}

/** How the use case's write is queued: a large one in a transaction of its own. */
function queuedAs(useCase: Pick<WriteUseCase, 'alone'>): WriteOptions {
  return { alone: useCase.alone === true };
}

/** A write under an idempotency key: replayed when an answer is kept, else done once with its answer kept. */
async function executeOnce<S extends TSchema, R, A, D>(ctx: ServiceContext, useCase: WriteUseCase<S, R, A, D>, actor: Actor,
  input: Static<S>, intent: IdempotencyIntent): Promise<Outcome<A, D>> {
  const kept = await keptAnswer(ctx.store, intent);
  if (kept !== undefined) return replay(ctx, kept);
  const work = await useCase.prepare(ctx, actor, input, false);
  let done: { data: A; created: boolean };
  try {
    done = await ctx.store.write(async (tx) => {
      await claim(tx, intent, ctx.runtime.clock.now().getTime());
      const answer = await answered(ctx, tx, useCase, actor, await work(tx));
      const body = useCase.idempotent === 'entry-ids' ? keepEntryIds(answer.data as { id: string }[]) : keptJson(answer.data);
      await keep(tx, intent, { statusCode: statusOf(answer.created), body });
      return answer;
    }, queuedAs(useCase));
  } catch (error) {
    // Another request with the key committed first: its answer is this one's.
    if (error instanceof IdempotentReplay) return replay(ctx, error.kept);
    throw error;
  }
  if (useCase.idempotent === 'entry-ids') {
    // The digest of a batch's answer is computed after the write, outside its transaction, and kept
    // over the bare ids (a crash in between leaves the ids alone, which replay just as well).
    const entries = done.data as { id: string }[];
    const body = keepEntryIds(entries, answerDigest(entries));
    await ctx.store.write((tx) => keep(tx, intent, { statusCode: statusOf(done.created), body }));
  }
  return { kind: 'done', ...done };
}

/** The kept answer: a batch's ids are read back into its entries. */
async function replay<A, D>(ctx: ServiceContext, kept: KeptAnswer): Promise<Outcome<A, D>> {
  const created = kept.statusCode === statusOf(true);
  const ids = keptEntryIds(kept.body);
  if (ids === undefined) return { kind: 'replayed', data: (JSON.parse(kept.body) as { data: A }).data, created, json: kept.body };
  const entries = await getJournalEntries(ctx, ids.entry_ids);
  return { kind: 'replayed', data: entries as A, created, json: JSON.stringify({ data: entries }) };
}

/** A read: the declared permission, then the use case, in one of the actor's bounded slots when it is expensive. */
export async function executeRead<S extends TSchema, A>(ctx: ServiceContext, useCase: ReadUseCase<S, A>,
  command: Command<Static<S>>): Promise<A> {
  const { actor, input } = command;
  if (useCase.permission !== null) requirePermission(actor, useCase.permission);
  if (!useCase.expensive) return useCase.run(ctx, actor, input);
  return ctx.expensiveReads.run(actor.user_id, () => useCase.run(ctx, actor, input));
}
