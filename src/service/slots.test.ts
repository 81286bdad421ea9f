import { describe, expect, it } from 'vitest';
import { Slots, SlotsByKey } from './slots.js';

/** A piece of work that runs until `finish` is called. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => { finish = resolve; });
  return { work: () => done, finish };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('slots', () => {
  it('runs at most `slots` pieces at once, queues `maxWaiting` more and refuses the rest with RATE_LIMITED', async () => {
    const slots = new Slots(2, 1, 'busy');
    let running = 0;
    let most = 0;
    const pieces = [held(), held(), held()];
    const runs = pieces.map((piece) => slots.run(async () => {
      running += 1;
      most = Math.max(most, running);
      await piece.work();
      running -= 1;
    }));
    await flush();
    expect(running).toBe(2);
    await expect(slots.run(async () => {})).rejects.toMatchObject({ code: 'RATE_LIMITED', message: 'busy', retryAfterSeconds: 1 });
    pieces[0]!.finish();
    await flush();
    expect(running).toBe(2);
    pieces[1]!.finish();
    pieces[2]!.finish();
    await Promise.all(runs);
    expect(most).toBe(2);
    expect(slots.idle).toBe(true);
  });

  it('gives a slot back once however often its release is called, and after a failure', async () => {
    const slots = new Slots(1, 0, 'busy');
    const release = await slots.acquire();
    release();
    release();
    await expect(slots.run(async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    const again = await slots.acquire();
    await expect(slots.acquire()).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    again();
    expect(slots.idle).toBe(true);
  });

  it('keeps each key\'s slots apart', async () => {
    const byKey = new SlotsByKey(1, 0, 'busy');
    const piece = held();
    const first = byKey.run('alice', piece.work);
    await flush();
    await expect(byKey.run('alice', async () => 'no')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(byKey.run('bob', async () => 'yes')).resolves.toBe('yes');
    piece.finish();
    await first;
    await expect(byKey.run('alice', async () => 'again')).resolves.toBe('again');
  });
});
