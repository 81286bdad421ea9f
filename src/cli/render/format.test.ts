import { describe, expect, it } from 'vitest';
import { groupThousands } from './format.js';

describe('groupThousands', () => {
  it.each([
    ['0.00', '0.00'], ['999.99', '999.99'], ['1000.00', '1,000.00'], ['-1234567.5', '-1,234,567.5'],
    ['100000', '100,000'], ['170141183460469231731687303715884105727', '170,141,183,460,469,231,731,687,303,715,884,105,727'],
    ['12345.000000000000000001', '12,345.000000000000000001'], ['n/a', 'n/a'],
  ])('groups %s as %s', (display, grouped) => {
    expect(groupThousands(display)).toBe(grouped);
  });
});
