import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-depth.js';

describe('nestsDeeperThan', () => {
  it.each([
    ['{}', 1, false],
    ['{}', 0, true],
    ['[[[]]]', 3, false],
    ['[[[]]]', 2, true],
    ['{"a":[{"b":1}],"c":{}}', 3, false],
    ['{"a":[{"b":1}],"c":{}}', 2, true],
    ['"[[[[[[" ', 1, false],
    ['{"a":"\\"[[[["}', 1, false],
    ['{"a":"\\\\","b":[[1]]}', 2, true],
    [`${'['.repeat(200_000)}${']'.repeat(200_000)}`, 64, true],
  ])('%s within %i: deeper is %s', (text, limit, deeper) => {
    expect(nestsDeeperThan(text, limit)).toBe(deeper);
  });
});
