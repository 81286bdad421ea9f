/**
 * The write queue both adapters use: every job queued in one event-loop turn (and every job queued
 * while the previous group was committing) runs in one database transaction, one job after
 * another, each able to fail alone; the jobs settle only after COMMIT, so an answer is never sent
 * before its write is durable, and one commit (one fsync, one WAL flush) serves many requests.
 *
 * What differs between the stores is a small driver (`GroupDriver`): how a transaction begins and
 * commits, how a failed job is undone (a savepoint), what is written only at the end of the group
 * (totals, words, PostgreSQL's grouped rows), and which failures of the whole group are worth
 * running it again (PostgreSQL: a lost race, a grouped write that no savepoint can undo). The rule
 * for what a job's reads see is the port's (LedgerTx in service/ports/ledger-store.ts): every read
 * inside a write sees every write made before it in the same transaction.
 */
import type { LedgerTx } from '../../service/ports/ledger-store.js';
import { type LedgerObserver, SILENT_OBSERVER } from '../../service/ports/observer.js';
import { AuditSealing } from './audit-sealing.js';
import type { JobState } from './errors.js';

/** One run of a group: a database transaction, as the store's driver opened it. */
export interface GroupTransaction {
  /** The jobs' view of the transaction (see guardedTransaction: a refused call ends the job). */
  readonly tx: LedgerTx;
  /** The running job's first refused call. */
  readonly job: JobState;
  /**
   * A job starts (SQLite: its savepoint; PostgreSQL takes one only before the job's first write).
   * `alone`: it is the group's only job, so the transaction's own rollback can undo it (SQLite then
   * takes no savepoint: a large job under one, a batch or an import, makes every page it touches
   * cost more the more the savepoint holds).
   */
  startJob(alone: boolean): void | Promise<void>;
  /** The running job succeeded: what it wrote stays, what it left pending joins the group's. */
  keepJob(): void | Promise<void>;
  /**
   * The running job failed with `error`: undo it alone. Throws when that is impossible (the
   * database rolled the whole transaction back, a statement failed with no savepoint to return to,
   * a lost race): the group as a whole has then failed, and the driver's `failed` decides.
   */
  dropJob(error: unknown): void | Promise<void>;
  /** Writes what the group left pending and commits. */
  commit(): Promise<void>;
  /** After a failure: rolls back whatever is open (never throws). */
  rollback(): Promise<void>;
  /** Gives back what the transaction held (a connection); `failure` when it may be unusable. */
  release(failure?: unknown): void;
  /** True when a job of the group wrote audit records: they are sealed once it commits. */
  readonly auditWritten: boolean;
}

/** What to do after a group failed as a whole: run it again (how, and after how long), or give up. */
export type GroupFailure = { rerun: true; careful: boolean; delayMs: number } | { rerun: false; error: unknown };

export interface GroupDriver {
  /** Jobs in one transaction at most. */
  readonly maxJobs: number;
  /** Begins a transaction for a group; `careful`: a rerun that writes each job's rows as it ends. */
  begin(careful: boolean): Promise<GroupTransaction>;
  /** The group failed with `error` on its `attempt`-th run (first is 1). */
  failed(error: unknown, attempt: number, careful: boolean): GroupFailure;
  /** The answer a job's own failure, or a failed group's, is given: driver errors as ledger errors. */
  translate(error: unknown): unknown;
}

interface WriteJob {
  work: (tx: LedgerTx) => Promise<unknown>;
  /** Committed in a group of its own (WriteOptions.alone). */
  alone: boolean;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommit {
  private readonly queue: WriteJob[] = [];
  private scheduled = false;
  private flushing = false;
  /** Those waiting for the queue to have nothing queued or running (writesIdle). */
  private idleWaiters: (() => void)[] = [];
  private readonly sealing = new AuditSealing((work) => this.enqueue(work, { first: true }));

  constructor(private readonly driver: GroupDriver, private readonly observer: LedgerObserver = SILENT_OBSERVER) {}

  /**
   * Queues a job; `first` puts it ahead of the jobs already waiting (the audit seal); `alone` runs
   * it in a group of its own (WriteOptions.alone), in its place in the queue.
   */
  enqueue<T>(work: (tx: LedgerTx) => Promise<T>, { first = false, alone = false } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job = { work, alone, resolve: resolve as (value: unknown) => void, reject };
      if (first) this.queue.unshift(job);
      else this.queue.push(job);
      this.schedule();
    });
  }

  /** Resolves once nothing is queued or running. */
  async drain(): Promise<void> {
    while (!this.idle()) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Resolves once no job is queued or running (at once when none is), or after `maxWaitMs`,
   * whichever comes first: how work in the background yields to writes (LedgerStore.writesIdle).
   */
  writesIdle(maxWaitMs: number): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== done);
        resolve();
      }, maxWaitMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.idleWaiters.push(done);
    });
  }

  /**
   * Called a turn of the event loop after a group ended with nothing queued: by then the answers
   * of its jobs went out, their callers' next writes were queued and the requests that had arrived
   * were read. Still idle, the waiters go on; otherwise they wait for a later group's end (or their
   * time), so that a queue kept full by the same callers never looks idle between two groups.
   */
  private wakeIdleWaiters(): void {
    if (!this.idle() || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const waiter of waiters) waiter();
  }

  private idle(): boolean {
    return !this.flushing && !this.scheduled && this.queue.length === 0;
  }

  /** The next group starts after this event-loop turn, so that the jobs queued in it join. */
  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    const batch = this.queue.splice(0, this.groupSize());
    try {
      const outcomes = await this.commitWithReruns(batch);
      batch.forEach((job, index) => {
        const outcome = outcomes[index]!;
        if (outcome.ok) job.resolve(outcome.value);
        else job.reject(outcome.error);
      });
    } catch (error) {
      // The group failed as a whole (busy past the timeout, a lost connection, a COMMIT whose
      // outcome is unknown): every job of it is told so, and none is run again blindly.
      const failure = this.driver.translate(error);
      for (const job of batch) job.reject(failure);
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) this.schedule();
      else if (this.idleWaiters.length > 0) setImmediate(() => this.wakeIdleWaiters());
    }
  }

  /** How many jobs from the head of the queue form the next group: up to the driver's most, an `alone` job by itself. */
  private groupSize(): number {
    const most = Math.min(this.queue.length, this.driver.maxJobs);
    if (this.queue[0]?.alone === true) return 1;
    const alone = this.queue.findIndex((job, index) => index < most && job.alone);
    return alone === -1 ? most : alone;
  }

  /** Runs the group until it commits or its driver gives up. */
  private async commitWithReruns(batch: readonly WriteJob[]): Promise<Outcome[]> {
    let careful = false;
    for (let attempt = 1; ; attempt += 1) {
      let transaction: GroupTransaction | undefined;
      try {
        const started = performance.now();
        transaction = await this.driver.begin(careful);
        const outcomes = await this.runJobs(transaction, batch);
        await transaction.commit();
        this.observer.groupCommitted(batch.length, (performance.now() - started) / 1000);
        transaction.release();
        if (transaction.auditWritten) this.sealing.request();
        return outcomes;
      } catch (error) {
        await transaction?.rollback();
        const next = this.driver.failed(error, attempt, careful);
        transaction?.release(next.rerun ? undefined : next.error);
        if (!next.rerun) throw next.error;
        careful = next.careful;
        if (next.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, next.delayMs));
      }
    }
  }

  private async runJobs(transaction: GroupTransaction, batch: readonly WriteJob[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    for (const queued of batch) {
      await transaction.startJob(batch.length === 1);
      try {
        const value = await queued.work(transaction.tx);
        // A job that caught a refused call and went on still fails whole.
        if (transaction.job.failure !== undefined) throw transaction.job.failure;
        await transaction.keepJob();
        outcomes.push({ ok: true, value });
      } catch (error) {
        await transaction.dropJob(error);
        outcomes.push({ ok: false, error: this.driver.translate(error) });
      }
    }
    return outcomes;
  }
}
