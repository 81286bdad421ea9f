/**
 * How long `ledger accounts list` takes on a small database, start to exit, as a person at a shell
 * waits for it. The median is printed for the record (the target is well under 300 ms); it is not
 * asserted, because a loaded test machine must not fail the suite.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, expect, it } from 'vitest';
import { ledger, seedBooks, tempFolder } from '../helpers/cli.js';

const folder = tempFolder('startup');
afterAll(() => folder.remove());

it('measures the wall time of `ledger accounts list` on a small database', async () => {
  const db = join(folder.dir, 'small.db');
  await seedBooks(db);
  const timesMs: number[] = [];
  for (let run = 0; run < 10; run += 1) {
    const started = performance.now();
    const result = ledger(['accounts', 'list'], { db });
    timesMs.push(performance.now() - started);
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n')).toHaveLength(8);
  }
  const sorted = [...timesMs].sort((a, b) => a - b);
  const median = (sorted[4]! + sorted[5]!) / 2;
  console.log(`ledger accounts list: median ${median.toFixed(0)} ms over ${timesMs.length} runs `
    + `(min ${sorted[0]!.toFixed(0)} ms, max ${sorted[sorted.length - 1]!.toFixed(0)} ms; target well under 300 ms)`);
});
