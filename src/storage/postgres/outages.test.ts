import { describe, expect, it } from 'vitest';
import { LedgerError } from '../../domain/errors.js';
import { compareSchema } from '../../service/ports/ledger-store.js';
import { CommitOutcomeUnknown, isDatabaseUnreachable, outageError } from './outages.js';

describe('which driver errors mean the database is away', () => {
  it.each([
    ['a refused connection', { code: 'ECONNREFUSED' }],
    ['a reset connection', { code: 'ECONNRESET' }],
    ['a name that does not resolve now', { code: 'EAI_AGAIN' }],
    ['a connection exception (class 08)', { code: '08006' }],
    ['an administrator shutdown', { code: '57P01' }],
    ['a server starting up', { code: '57P03' }],
    ['too many connections', { code: '53300' }],
    ['a standby refusing a write', { code: '25006' }],
    ['pg ending a connection', new Error('Connection terminated unexpectedly')],
    ['pg timing out a connect', new Error('timeout exceeded when trying to connect')],
  ])('%s is unreachable', (_what, error) => {
    expect(isDatabaseUnreachable(error)).toBe(true);
    const told = outageError(error);
    expect(told).toBeInstanceOf(LedgerError);
    expect(told).toMatchObject({ code: 'UNAVAILABLE', retryAfterSeconds: 2, message: 'The database is not answering' });
  });

  it.each([
    ['a unique violation', { code: '23505', message: 'Connection terminated' }],
    ['a syntax error', { code: '42601' }],
    ['a serialization failure', { code: '40001' }],
    ['a bug', new TypeError('x is undefined')],
    ['nothing', undefined],
  ])('%s is not', (_what, error) => {
    expect(isDatabaseUnreachable(error)).toBe(false);
    expect(outageError(error)).toBe(error);
  });

  it('tells a COMMIT cut off as an unknown outcome, with what to do', () => {
    const told = outageError(new CommitOutcomeUnknown({ code: '57P01' }));
    expect(told).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('may or may not have been saved') });
    expect((told as LedgerError).suggestion).toContain('Idempotency-Key');
  });
});

describe('compareSchema', () => {
  it('names the migrations missing and those this code does not know', () => {
    expect(compareSchema([1, 2, 3], [1, 2, 3])).toEqual({ expected: 3, missing: [], newer: [] });
    expect(compareSchema([1, 3], [1, 2, 3])).toEqual({ expected: 3, missing: [2], newer: [] });
    expect(compareSchema([5, 1, 2, 3, 4], [1, 2, 3])).toEqual({ expected: 3, missing: [], newer: [4, 5] });
  });
});
