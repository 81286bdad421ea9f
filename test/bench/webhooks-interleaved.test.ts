/**
 * The interleaved webhook comparison's arithmetic (bench/webhooks-interleaved.ts): issue 26's
 * verdict is read from it, so a pairing that compared the wrong windows, or a median of the wrong
 * side, would pass or fail the goal on a figure that is not what the bench says it is.
 */
import { describe, expect, it } from 'vitest';
import { abbaOrder, parseOptions } from '../../bench/lib.js';
import { compareWindows, type InterleavedWindow } from '../../bench/webhooks-interleaved.js';

function window(index: number, endpoints: number, entriesPerSecond: number): InterleavedWindow {
  return { index, endpoints, entries: 1000, seconds: 1000 / entriesPerSecond, entriesPerSecond,
    latenciesMs: Float64Array.of(index, index * 10), delivered: endpoints > 0 ? 10 : 0 };
}

describe('the interleaved webhook comparison', () => {
  it('alternates without, with, with, without, so that every pair of windows has one of each', () => {
    expect(abbaOrder(3, 8)).toEqual([0, 3, 3, 0, 0, 3, 3, 0]);
  });

  it('compares each window with endpoints to the one beside it, and gives the median of those ratios', () => {
    // The machine moves between a fast and a slow state between pairs; each pair's ratio is
    // taken under one state, where the medians of the two sides mix both.
    const rates = [3000, 2700, 2000, 2000, 3300, 3000, 2200, 2100];
    const windows = abbaOrder(3, 8).map((n, i) => window(i + 1, n, rates[i]!));
    const result = compareWindows(3, windows);
    expect(result.pairRatios.map((r) => r.toFixed(3))).toEqual(['0.900', '1.000', '0.909', '1.048']);
    expect(result.ratio).toBeCloseTo((3000 / 3300 + 1) / 2, 9);
    expect(result.withoutRate).toBe((2100 + 3000) / 2);
    expect(result.withRate).toBe((2200 + 2700) / 2);
    expect(result.mediansRatio).toBeCloseTo(2450 / 2550, 9);
    // Latencies of each side over all of its windows: the with side's windows are 2, 3, 6, 7.
    expect(result.withLatency.max).toBe(70);
    expect(result.withoutLatency.max).toBe(80);
  });

  it('refuses windows that are not paired one with endpoints and one without', () => {
    const windows = [window(1, 3, 1000), window(2, 3, 1000)];
    expect(() => compareWindows(3, windows))
      .toThrow(/windows 1 and 2 are not one with endpoints and one without/);
  });

  it('takes an even number of windows only', () => {
    expect(parseOptions(['--webhook-windows', '12']).webhookWindows).toBe(12);
    expect(() => parseOptions(['--webhook-windows', '5'])).toThrow(/must be even/);
  });
});
