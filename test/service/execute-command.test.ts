/**
 * The executor of use cases (src/service/execute-command.ts) on the backend under test: the
 * declared permission first, a dry run as the same work rolled back, and an idempotency key kept
 * with the write and replayed, for any use case of the table, whichever face would call it.
 */
import { createHash } from 'node:crypto';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLedgerError } from '../../src/domain/errors.js';
import { type Actor, LOCAL_OPERATOR } from '../../src/service/actor.js';
import { LedgerService } from '../../src/service/ledger-service.js';
import { USE_CASES } from '../../src/service/use-cases.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';

let opened: TestStore;
let service: LedgerService;
let admin: Actor;
let cash: string;
let sales: string;
let periodId: string;

beforeAll(async () => {
  opened = await openTestStore();
  service = await LedgerService.create(opened.store, { clock: { now: () => new Date('2026-03-15T12:00:00.000Z') }, newId: uuidv7 },
    { scryptCost: 2 ** 10 });
  const usd = await service.createFiatCurrency(LOCAL_OPERATOR, 'USD');
  periodId = (await service.createPeriod(LOCAL_OPERATOR, { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' })).id;
  const account = async (account_number: string, account_type: 'asset' | 'revenue' | 'equity') => (await service.createAccount(LOCAL_OPERATOR, {
    account_number, name: account_number, currency_id: usd.id, account_type, normal_balance: account_type === 'asset' ? 'debit' : 'credit',
  })).id;
  cash = await account('1000', 'asset');
  sales = await account('4000', 'revenue');
  await service.updateSettings(LOCAL_OPERATOR, { retained_earnings_account_id: await account('3000', 'equity') });
  admin = await service.authenticate((await service.createServiceAccount(null, { name: 'executor test' })).api_key);
});
afterAll(async () => { await opened?.close(); });

const sale = (amount: string, description = 'Sale') => ({
  entry_date: '2026-03-01', description,
  lines: [{ account_id: cash, debit_amount: amount }, { account_id: sales, credit_amount: amount }],
});

async function entryCount(): Promise<number> {
  return (await service.listJournalEntries({ limit: 200 })).data.length;
}

/** The data of a committed (or replayed) write. */
function committed<A>(outcome: { kind: string; data: unknown }): A {
  if (outcome.kind === 'dry-run') throw new Error('a dry run answered');
  return outcome.data as A;
}

async function refusal(work: Promise<unknown>): Promise<{ code: string; field: string | undefined }> {
  try {
    await work;
  } catch (error) {
    if (isLedgerError(error)) return { code: error.code, field: error.field };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the executor', () => {
  it('checks the declared permission before it looks at the input', async () => {
    const reader = await service.authenticate((await service.createServiceAccount(null, { name: 'reader', permissions: {} })).api_key);
    expect(await refusal(service.execute(USE_CASES.post_journal_entry, { actor: reader, input: { ...sale('1'), entry_date: 'never' } })))
      .toEqual({ code: 'FORBIDDEN', field: undefined });
  });

  it('runs a dry run as the real work, rolled back: the entry it would post, the balances it would change, nothing stored', async () => {
    const count = await entryCount();
    const before = await service.getAccountBalance(cash);
    const dry = await service.execute(USE_CASES.post_journal_entry, { actor: admin, input: sale('700'), dryRun: true });
    if (dry.kind !== 'dry-run') throw new Error('not a dry run');
    expect(await entryCount()).toBe(count);
    expect(dry.data.entry.lines.map((line) => [line.account_id, line.debit_amount, line.credit_amount])).toEqual([[cash, '700', '0'], [sales, '0', '700']]);
    const [cashChange] = dry.data.balances;
    expect(cashChange!.before).toEqual(before);
    const posted = await service.execute(USE_CASES.post_journal_entry, { actor: admin, input: sale('700') });
    expect(posted.kind).toBe('done');
    expect(cashChange!.after).toEqual(await service.getAccountBalance(cash));
  });

  it('refuses in a dry run exactly what the real write refuses', async () => {
    const unbalanced = { ...sale('5'), lines: [{ account_id: cash, debit_amount: '5' }, { account_id: sales, credit_amount: '4' }] };
    const real = await refusal(service.execute(USE_CASES.post_journal_entry, { actor: admin, input: unbalanced }));
    expect(await refusal(service.execute(USE_CASES.post_journal_entry, { actor: admin, input: unbalanced, dryRun: true }))).toEqual(real);
    expect(real.code).toBe('UNBALANCED_ENTRY');
  });

  it('previews a close as its dry run', async () => {
    const preview = await service.execute(USE_CASES.close_period, { actor: admin, input: { id: periodId }, dryRun: true });
    expect(preview.data.preview).toBe(true);
    expect((await service.getPeriod(periodId)).status).toBe('open');
  });

  it('refuses a dry run of a use case that has none', async () => {
    const input = { code: 'XDR', name: 'Special', symbol: 'X', asset_scale: 2, asset_type: 'fiat' as const, caip19_id: 'test:0/token:XDR' };
    const outcome = service.execute(USE_CASES.create_currency, { actor: admin, input, dryRun: true } as never);
    expect(await refusal(outcome)).toEqual({ code: 'VALIDATION_ERROR', field: 'dry_run' });
  });

  it('replays the first answer under the same key and input, once, and refuses another input under it', async () => {
    const count = await entryCount();
    const first = await service.execute(USE_CASES.post_journal_entry, { actor: admin, input: sale('12'), idempotencyKey: 'exec-1' });
    const again = await service.execute(USE_CASES.post_journal_entry, { actor: admin, input: sale('12'), idempotencyKey: 'exec-1' });
    expect(first.kind).toBe('done');
    expect(again).toMatchObject({ kind: 'replayed', data: first.data, created: true });
    expect(await entryCount()).toBe(count + 1);
    expect(await refusal(service.execute(USE_CASES.post_journal_entry, { actor: admin, input: sale('13'), idempotencyKey: 'exec-1' })))
      .toEqual({ code: 'IDEMPOTENCY_CONFLICT', field: 'Idempotency-Key' });
    const id = committed<{ id: string }>(first).id;
    expect(await refusal(service.execute(USE_CASES.reverse_journal_entry, { actor: admin, input: { id }, idempotencyKey: 'exec-1' })))
      .toEqual({ code: 'IDEMPOTENCY_CONFLICT', field: 'Idempotency-Key' });
  });

  it('takes the same input built in another key order for the same request', async () => {
    const first = await service.execute(USE_CASES.post_journal_entry, { actor: admin, input: sale('14'), idempotencyKey: 'exec-order' });
    const { lines, description, entry_date } = sale('14');
    const reordered = { lines: lines.map(({ account_id, ...amount }) => ({ ...amount, account_id })), description, entry_date };
    expect(await service.execute(USE_CASES.post_journal_entry, { actor: admin, input: reordered, idempotencyKey: 'exec-order' }))
      .toMatchObject({ kind: 'replayed', data: first.data });
  });

  it('leaves the key free when the write fails, so a corrected retry acts', async () => {
    const unbalanced = { ...sale('5'), lines: [{ account_id: cash, debit_amount: '5' }, { account_id: sales, credit_amount: '4' }] };
    expect((await refusal(service.execute(USE_CASES.post_journal_entry, { actor: admin, input: unbalanced, idempotencyKey: 'exec-2' }))).code)
      .toBe('UNBALANCED_ENTRY');
    expect((await service.execute(USE_CASES.post_journal_entry, { actor: admin, input: sale('5'), idempotencyKey: 'exec-2' })).kind).toBe('done');
  });

  it('neither keeps nor replays a key in a dry run, and checks its length otherwise', async () => {
    const dry = await service.execute(USE_CASES.post_journal_entry, { actor: admin, input: sale('3'), dryRun: true, idempotencyKey: 'exec-3' });
    expect(dry.kind).toBe('dry-run');
    expect((await service.execute(USE_CASES.post_journal_entry, { actor: admin, input: sale('3'), idempotencyKey: 'exec-3' })).kind).toBe('done');
    expect(await refusal(service.execute(USE_CASES.post_journal_entry, { actor: admin, input: sale('3'), idempotencyKey: 'k'.repeat(256) })))
      .toEqual({ code: 'VALIDATION_ERROR', field: 'Idempotency-Key' });
  });

  it('ignores a key for a use case that does not keep one', async () => {
    const outcome = () => service.execute(USE_CASES.update_account, { actor: admin, input: { id: cash, name: 'Cash' }, idempotencyKey: 'exec-4' });
    expect([(await outcome()).kind, (await outcome()).kind]).toEqual(['done', 'done']);
  });

  it('answers a replay of a set rate with the first status: created, or replaced', async () => {
    const eur = await service.createFiatCurrency(LOCAL_OPERATOR, 'EUR');
    await service.updateSettings(LOCAL_OPERATOR, { base_currency_id: (await service.getAccount(cash)).currency_id });
    const set = (rate: string, key: string) => service.execute(USE_CASES.set_exchange_rate, {
      actor: admin, input: { currency_id: eur.id, rate_date: '2026-03-01', rate }, idempotencyKey: key,
    });
    expect(await set('1.1', 'rate-a')).toMatchObject({ kind: 'done', created: true });
    expect(await set('1.2', 'rate-b')).toMatchObject({ kind: 'done', created: false });
    expect(await set('1.1', 'rate-a')).toMatchObject({ kind: 'replayed', created: true });
    expect(await set('1.2', 'rate-b')).toMatchObject({ kind: 'replayed', created: false, data: { rate: '1.2' } });
  });

  it('keeps a batch as its entries\' ids and the digest of its answer, and replays the entries read back', async () => {
    const input = { entries: [sale('21', 'One'), sale('22', 'Two')] };
    const first = committed<{ id: string }[]>(await service.execute(USE_CASES.post_journal_entries, { actor: admin, input, idempotencyKey: 'exec-batch' }));
    const rows = await rawQuery<{ response_body: string }>(opened.location, 'SELECT response_body FROM idempotency_keys WHERE key = $1', ['exec-batch']);
    expect(JSON.parse(rows[0]!.response_body)).toEqual({ kept: 'entry_ids', entry_ids: first.map((entry) => entry.id),
      sha256: createHash('sha256').update(JSON.stringify({ data: first })).digest('hex') });
    const again = await service.execute(USE_CASES.post_journal_entries, { actor: admin, input, idempotencyKey: 'exec-batch' });
    expect(again).toMatchObject({ kind: 'replayed', data: first, json: JSON.stringify({ data: first }) });
  });
});
