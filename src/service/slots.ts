/**
 * Bounded concurrency: at most `slots` pieces of work run at once, a few more wait in line, and
 * past that the work is refused at once (RATE_LIMITED, retry after a second) instead of queueing
 * without bound. Password hashes share one set of slots per process; expensive reads have one set
 * per user (`SlotsByKey`), so one key looping a heavy report holds a bounded share of the server.
 */
import { LedgerError } from '../domain/errors.js';

export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly slots: number, private readonly maxWaiting: number, private readonly busyMessage: string) {}

  /** Whether nothing runs or waits: the slots can be forgotten. */
  get idle(): boolean {
    return this.running === 0 && this.waiting.length === 0;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Waits for a slot (or refuses at once when the line is full); the answer gives it back, once. */
  async acquire(): Promise<() => void> {
    if (this.running >= this.slots) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new LedgerError('RATE_LIMITED', this.busyMessage, { suggestion: 'Wait 1 second before trying again', retryAfterSeconds: 1 });
      }
      // A finishing piece of work hands its slot over directly, so `running` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    };
  }
}

/** One set of slots per key (a user id), kept only while something runs or waits under it. */
export class SlotsByKey {
  private readonly byKey = new Map<string, Slots>();

  constructor(private readonly slots: number, private readonly maxWaiting: number, private readonly busyMessage: string) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    let slots = this.byKey.get(key);
    if (slots === undefined) {
      slots = new Slots(this.slots, this.maxWaiting, this.busyMessage);
      this.byKey.set(key, slots);
    }
    try {
      return await slots.run(work);
    } finally {
      if (slots.idle) this.byKey.delete(key);
    }
  }
}
