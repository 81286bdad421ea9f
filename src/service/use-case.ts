/**
 * What a use case is. Each one is declared once, in use-cases.ts: its name, the permission it
 * needs, its input's schema, whether it writes, whether it has a dry run and whether a retry under
 * an idempotency key replays it, and the function that does it. Every face calls a use case the
 * same way: one command envelope (`Command`) given to the executor (execute-command.ts), which is
 * the only place that knows what a dry run or a replay is.
 */
import type { Static, TSchema } from 'typebox';
import type { Actor, PermissionKey } from './actor.js';
import type { ServiceContext } from './context.js';
import type { LedgerTx } from './ports/ledger-store.js';

/** The work of a write use case: everything it does inside its one write transaction. */
export type Work<R> = (tx: LedgerTx) => Promise<R>;

/** One call of a use case, whichever face it came from. */
export interface Command<Input> {
  readonly actor: Actor;
  readonly input: Input;
  /** Run the very same work in a write transaction that is then rolled back, and answer what it would do. */
  readonly dryRun?: boolean | undefined;
  /**
   * A retry by the same actor with the same key and the same use case and input answers the first
   * answer instead of acting again; the same key with another request is IDEMPOTENCY_CONFLICT.
   * Ignored by a dry run and by use cases that are not idempotent.
   */
  readonly idempotencyKey?: string | undefined;
}

/** What a committed write answers: the data every face shows, and whether it created something. */
export interface Answer<A> {
  data: A;
  /** A creation (HTTP answers 201, else 200). */
  created: boolean;
}

/**
 * What the executor answers a write command with. A replay carries the kept answer's JSON text
 * (`{"data": ...}`) besides its data, so a face can send the first answer's very bytes again.
 */
export type Outcome<A, D = never> =
  | { kind: 'done'; data: A; created: boolean }
  | { kind: 'replayed'; data: A; created: boolean; json: string }
  // A use case without a dry run never answers one.
  | ([D] extends [never] ? never : { kind: 'dry-run'; data: D });

interface Declared<S extends TSchema> {
  /** snake_case, unique: also the MCP tool's name where there is one. */
  readonly name: string;
  /** Checked before anything else; null when any signed-in actor may call it (or the use case decides by itself). */
  readonly permission: PermissionKey | null;
  /** The schema of the use case's input (the path's ids and the body, merged, for HTTP routes that take both). */
  readonly input: S;
}

/** What a write use case's committed answer is as events (events.ts). */
export interface EventDeclaration {
  /** `<resource>.<past participle>`, snake case (CONTRACT.md, "Events and webhooks"). */
  readonly type: string;
  /** The answer is a list: one event per item (several rates set, several bank lines accepted). */
  readonly each?: boolean;
}

export interface WriteUseCase<S extends TSchema = TSchema, R = unknown, A = unknown, D = unknown> extends Declared<S> {
  readonly writes: true;
  /**
   * The checks and slow preparation that need no transaction (a password's hash, a file's parse),
   * then the work of the one write transaction. `dryRun` is given for the few whose work differs
   * in what it answers (a close's `preview`); the work itself must be the same.
   */
  prepare(ctx: ServiceContext, actor: Actor, input: Static<S>, dryRun: boolean): Work<R> | Promise<Work<R>>;
  /** The answer of the committed work's result. */
  answer(result: R): Answer<A>;
  /**
   * How a dry run answers, from the work's result, inside the transaction before it is rolled
   * back; absent when the use case has no dry run.
   */
  readonly dryRun?: ((ctx: ServiceContext, tx: LedgerTx, result: R) => Promise<D> | D) | undefined;
  /**
   * Whether an idempotency key is kept with the write and replayed: `answer` keeps the answer,
   * `entry-ids` the ids of the entries answered (a batch: up to 34 MB of JSON), which a replay reads
   * back; false for the writes that do not keep keys (updates, deletions, key rotation).
   */
  readonly idempotent: 'answer' | 'entry-ids' | false;
  /** A large write (many entries): committed in a transaction of its own (WriteOptions.alone). */
  readonly alone?: boolean;
  /**
   * The change's event (events.ts), appended from the answer in the same transaction; absent for
   * the writes whose events the store writes (posts: an entry is its own event) and for those that
   * are no change of the books (keys, sessions).
   */
  readonly event?: EventDeclaration;
  /** It posts journal entries (one, or a list it answers): counted in the metrics, posted or refused by code. */
  readonly postsEntries?: true;
}

export interface ReadUseCase<S extends TSchema = TSchema, A = unknown> extends Declared<S> {
  readonly writes: false;
  /** A report or a long list: it runs in one of the actor's bounded slots (context.ts). */
  readonly expensive: boolean;
  run(ctx: ServiceContext, actor: Actor, input: Static<S>): Promise<A>;
}

export type UseCase = WriteUseCase<TSchema, any, any, any> | ReadUseCase<TSchema, any>;

export type InputOf<U extends UseCase> = Static<U['input']>;
export type AnswerOf<U> = U extends WriteUseCase<any, any, infer A, any> ? A : U extends ReadUseCase<any, infer A> ? A : never;
export type DryRunOf<U> = U extends WriteUseCase<any, any, any, infer D> ? D : never;

/** Declares a write use case (typed by its input schema). */
export function writeUseCase<S extends TSchema, R, A = R, D = never>(
  declaration: Omit<WriteUseCase<S, R, A, D>, 'writes' | 'answer'> & { answer?: (result: R) => Answer<A>; creates?: boolean },
): WriteUseCase<S, R, A, D> {
  const { creates = false, answer, ...rest } = declaration;
  return { ...rest, writes: true, answer: answer ?? ((result: R) => ({ data: result as unknown as A, created: creates })) };
}

/** Declares a read use case. */
export function readUseCase<S extends TSchema, A>(declaration: Omit<ReadUseCase<S, A>, 'writes' | 'expensive'> & { expensive?: boolean }): ReadUseCase<S, A> {
  return { expensive: false, ...declaration, writes: false };
}
