import { describe, expect, it } from 'vitest';
import { serializeBody, withAmounts } from '../src/amounts.js';
import { retryAfterMs } from '../src/retries.js';

const MAX = 2n ** 127n - 1n;

describe('amounts on the wire', () => {
  it('writes every bigint of a body as its exact decimal string', () => {
    expect(serializeBody({ lines: [{ debit_amount: MAX }, { credit_amount: -MAX }], note: 'x' }))
      .toBe('{"lines":[{"debit_amount":"170141183460469231731687303715884105727"},{"credit_amount":"-170141183460469231731687303715884105727"}],"note":"x"}');
  });

  it('turns exactly the strings the shape names into bigint', () => {
    const shape = { properties: { data: { items: { properties: { amount: 'amount' as const, total: 'amount' as const } } } } };
    const body = { data: [{ amount: '170141183460469231731687303715884105727', total: null, label: '12' }], next_cursor: '5' };
    expect(withAmounts(body, shape)).toEqual({ data: [{ amount: MAX, total: null, label: '12' }], next_cursor: '5' });
    expect(body.data[0]!.amount).toBe('170141183460469231731687303715884105727');
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:05 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(5000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
