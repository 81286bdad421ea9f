import { describe, expect, it } from 'vitest';
import { TimeSlice } from './time-slice.js';

function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* the synchronous work of a read */ }
}

describe('time slices of long reads', () => {
  it('lets a timer run between reads once the budget is spent, and does not pause before', async () => {
    const slice = new TimeSlice(5);
    let timerRan = false;
    setImmediate(() => { timerRan = true; });
    await slice.pause();
    expect(timerRan).toBe(false);
    busyFor(10);
    await slice.pause();
    expect(timerRan).toBe(true);
  });

  it('starts a new slice after each pause', async () => {
    const slice = new TimeSlice(5);
    busyFor(10);
    await slice.pause();
    let timerRan = false;
    setImmediate(() => { timerRan = true; });
    await slice.pause();
    expect(timerRan).toBe(false);
  });
});
