/**
 * Long reads give the event loop back now and then. The SQLite store answers each query
 * synchronously, so a use case that awaits many queries in a row (aging a sub-ledger of thousands of
 * open items, verifying every entry) yields only to microtasks and holds every other request of the
 * process until it is done: one read-only key looping such a report froze `/health` for seconds.
 * A loop calls `pause()` between its reads; past its budget of time the pause waits for the next
 * turn of the event loop, where other requests' I/O is served, then starts a new slice.
 */

/** Work a read may do between two turns of the event loop. */
export const READ_SLICE_MS = 5;

export class TimeSlice {
  private startedMs = performance.now();

  constructor(private readonly budgetMs: number = READ_SLICE_MS) {}

  /** Lets other requests run when this slice has used its budget; otherwise returns at once. */
  async pause(): Promise<void> {
    if (performance.now() - this.startedMs < this.budgetMs) return;
    await new Promise<void>((resolve) => { setImmediate(resolve); });
    this.startedMs = performance.now();
  }
}
