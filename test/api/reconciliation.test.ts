/**
 * Reconciling a bank and a card account through the API, on both stores: the arithmetic (cleared
 * balance, difference, what is outstanding), marking an opening balance cleared, finishing only at
 * a difference of zero, what a finished reconciliation locks, the order of reconciliations, and
 * `verify` checking matches and finished reconciliations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatabaseLocation } from '../../src/app/database-location.js';
import { type ApiFixture, dataOf, expectError, postEntry, startApi, walkPages } from '../helpers/api-fixture.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { type BankBooks, bankBooks, bankLinesOf, importCsv, semicolonCsv } from '../helpers/bank-books.js';

describe('reconciliation', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi();
    dataOf(await api.request('POST', '/api/v1/periods', { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' }), 201);
  });
  afterAll(async () => { await api.close(); });

  /**
   * A bank account opened with 1,000.00 on 1 March; in the books: a fee of 9.90 (4 March), a
   * customer's 1,500.00 (6 March), a cheque of 250.00 written 30 March that the bank has not seen.
   * On the bank's statement of March: the fee, the customer's payment and a card purchase of 54.20
   * the books do not have yet; closing balance 2,435.90.
   */
  async function march(): Promise<{ books: BankBooks; opening: any; fee: any; payment: any; cheque: any; lines: any[] }> {
    const books = await bankBooks(api);
    const opening = await postEntry(api, books.bank.id, books.equity.id, '100000', '2026-03-01', 'Opening balance');
    const fee = await postEntry(api, books.fees.id, books.bank.id, '990', '2026-03-04', 'Account fee');
    const payment = await postEntry(api, books.bank.id, books.receivables.id, '150000', '2026-03-06', 'ACME pays');
    const cheque = await postEntry(api, books.fees.id, books.bank.id, '25000', '2026-03-30', 'Cheque 1042');
    dataOf(await importCsv(api, books.bank.id, semicolonCsv([
      ['04.03.2026', 'Entgelt Kontoführung', '-9,90', '990,10'],
      ['06.03.2026', 'Gutschrift ACME', '1.500,00', '2.490,10'],
      ['20.03.2026', 'REWE', '-54,20', '2.435,90'],
    ])), 201);
    return { books, opening, fee, payment, cheque, lines: await bankLinesOf(api, `account_id=${books.bank.id}`) };
  }

  const lineOnAccount = (entry: any, accountId: string) => entry.lines.find((line: any) => line.account_id === accountId).id;

  it('works out the cleared balance and the difference, and finishes only at exactly zero', async () => {
    const { books, opening, fee, payment, cheque, lines } = await march();
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/match`, { journal_entry_ids: [fee.id] }));
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[1].id}/match`, { journal_entry_ids: [payment.id] }));
    const started = dataOf(await api.request('POST', '/api/v1/reconciliations', { account_id: books.bank.id, statement_date: '2026-03-31',
      statement_balance: '243590' }), 201);
    expect(started).toMatchObject({ status: 'open', statement_balance: '243590', previously_reconciled_balance: '0',
      cleared_balance: '149010', difference: '94580', display_difference: '945.80' });
    expect(started.cleared.map((line: any) => [line.journal_entry_id, line.amount, line.cleared_by, line.bank_line_id])).toEqual([
      [fee.id, '-990', 'bank_match', lines[0].id], [payment.id, '150000', 'bank_match', lines[1].id]]);
    expect(started.outstanding.map((line: any) => [line.journal_entry_id, line.amount])).toEqual([[opening.id, '100000'], [cheque.id, '-25000']]);
    expect(started.unmatched_bank_lines.map((line: any) => line.id)).toEqual([lines[2].id]);
    const refused = await api.request('POST', `/api/v1/reconciliations/${started.id}/finish`);
    expectError(refused, 409, 'RECONCILIATION_DIFFERENCE');
    const { code } = books.currency;
    expect(refused.body.message).toBe(`The statement balance 2435.90 ${code} differs from the cleared balance 1490.10 ${code} by 945.80 ${code}`);
    // The opening balance was on the bank before March: marked cleared.
    const marked = dataOf(await api.request('POST', `/api/v1/reconciliations/${started.id}/clear`,
      { journal_line_ids: [lineOnAccount(opening, books.bank.id)] }));
    expect([marked.cleared_balance, marked.difference]).toEqual(['249010', '-5420']);
    expect(marked.cleared.find((line: any) => line.journal_entry_id === opening.id)).toMatchObject({ cleared_by: 'mark', bank_line_id: null });
    expect(marked.outstanding.every((line: any) => line.cleared_by === null)).toBe(true);
    // The card purchase is in the books now, posted from its bank line.
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[2].id}/post`, { counter_account_id: books.groceries.id }));
    const balanced = dataOf(await api.request('GET', `/api/v1/reconciliations/${started.id}`));
    expect([balanced.cleared_balance, balanced.difference, balanced.unmatched_bank_lines]).toEqual(['243590', '0', []]);
    expect(balanced.outstanding.map((line: any) => line.journal_entry_id)).toEqual([cheque.id]);
    const finished = dataOf(await api.request('POST', `/api/v1/reconciliations/${started.id}/finish`));
    expect(finished).toMatchObject({ status: 'finished', difference: '0', cleared_balance: '243590' });
    expect(finished.finished_at).not.toBeNull();
    expect(finished.cleared_lines).toHaveLength(4);
    expect(finished.outstanding.map((line: any) => line.journal_entry_id)).toEqual([cheque.id]);
  });

  it('locks what a finished reconciliation holds, and keeps its report as it was', async () => {
    const { books, opening, fee, payment, cheque, lines } = await march();
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/match`, { journal_entry_ids: [fee.id] }));
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[1].id}/match`, { journal_entry_ids: [payment.id] }));
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[2].id}/exclude`, { reason: 'Disputed with the bank' }));
    const started = dataOf(await api.request('POST', '/api/v1/reconciliations', { account_id: books.bank.id, statement_date: '2026-03-31',
      statement_balance: '249010' }), 201);
    dataOf(await api.request('POST', `/api/v1/reconciliations/${started.id}/clear`, { journal_line_ids: [lineOnAccount(opening, books.bank.id)] }));
    const finished = dataOf(await api.request('POST', `/api/v1/reconciliations/${started.id}/finish`));
    for (const line of lines) {
      expect(dataOf(await api.request('GET', `/api/v1/bank-lines/${line.id}`)).reconciliation_id).toBe(started.id);
      expectError(await api.request('POST', `/api/v1/bank-lines/${line.id}/unmatch`), 409, 'RECONCILED');
    }
    expectError(await api.request('POST', `/api/v1/reconciliations/${started.id}/clear`, { journal_line_ids: [lineOnAccount(cheque, books.bank.id)] }),
      409, 'RECONCILED');
    // The cheque clears next month; March's report still shows it outstanding.
    dataOf(await importCsv(api, books.bank.id, semicolonCsv([['02.04.2026', 'Scheck 1042', '-250,00', '2.240,10']])), 201);
    const april = (await bankLinesOf(api, `account_id=${books.bank.id}&status=unmatched`))[0];
    dataOf(await api.request('POST', `/api/v1/bank-lines/${april.id}/match`, { journal_entry_ids: [cheque.id] }));
    const next = dataOf(await api.request('POST', '/api/v1/reconciliations', { account_id: books.bank.id, statement_date: '2026-04-30',
      statement_balance: '224010' }), 201);
    expect([next.previously_reconciled_balance, next.cleared_balance, next.difference]).toEqual(['249010', '224010', '0']);
    dataOf(await api.request('POST', `/api/v1/reconciliations/${next.id}/finish`));
    expect(dataOf(await api.request('GET', `/api/v1/reconciliations/${started.id}`))).toEqual(finished);
  });

  it('allows one open reconciliation per account, each after the last finished one, and none on a revenue account', async () => {
    const { books } = await march();
    const first = dataOf(await api.request('POST', '/api/v1/reconciliations', { account_id: books.bank.id, statement_date: '2026-02-28',
      statement_balance: '0' }), 201);
    expectError(await api.request('POST', '/api/v1/reconciliations', { account_id: books.bank.id, statement_date: '2026-03-31',
      statement_balance: '0' }), 409, 'DUPLICATE', 'account_id');
    dataOf(await api.request('POST', `/api/v1/reconciliations/${first.id}/finish`));
    expectError(await api.request('POST', '/api/v1/reconciliations', { account_id: books.bank.id, statement_date: '2026-02-28',
      statement_balance: '0' }), 400, 'VALIDATION_ERROR', 'statement_date');
    expectError(await api.request('POST', '/api/v1/reconciliations', { account_id: books.sales.id, statement_date: '2026-03-31',
      statement_balance: '0' }), 400, 'VALIDATION_ERROR', 'account_id');
    const listed = (await walkPages(api, `/api/v1/reconciliations?account_id=${books.bank.id}`)).rows;
    expect(listed.map((reconciliation: any) => [reconciliation.statement_date, reconciliation.status])).toEqual([['2026-02-28', 'finished']]);
  });

  it('reconciles a card account, whose balance owed is positive on its credit side', async () => {
    const books = await bankBooks(api);
    // 200.00 owed from February; a purchase of 54.20 and a payment of 200.00 in March.
    const owed = await postEntry(api, books.equity.id, books.card.id, '20000', '2026-03-01', 'Balance brought forward');
    const purchase = await postEntry(api, books.groceries.id, books.card.id, '5420', '2026-03-10', 'REWE');
    const payment = await postEntry(api, books.card.id, books.bank.id, '20000', '2026-03-25', 'Card payment');
    dataOf(await importCsv(api, books.card.id, semicolonCsv([
      ['10.03.2026', 'REWE', '-54,20', '-254,20'],
      ['25.03.2026', 'Zahlung danke', '200,00', '-54,20'],
    ])), 201);
    const [purchaseLine, paymentLine] = await bankLinesOf(api, `account_id=${books.card.id}`);
    dataOf(await api.request('POST', `/api/v1/bank-lines/${purchaseLine.id}/match`, { journal_entry_ids: [purchase.id] }));
    dataOf(await api.request('POST', `/api/v1/bank-lines/${paymentLine.id}/match`, { journal_entry_ids: [payment.id] }));
    const statements = (await walkPages(api, `/api/v1/bank-statements?account_id=${books.card.id}`)).rows;
    expect([statements[0].opening_balance, statements[0].closing_balance]).toEqual(['20000', '5420']);
    const started = dataOf(await api.request('POST', '/api/v1/reconciliations', { account_id: books.card.id, statement_date: '2026-03-31',
      statement_balance: '5420' }), 201);
    expect(started.cleared.map((line: any) => line.amount)).toEqual(['5420', '-20000']);
    dataOf(await api.request('POST', `/api/v1/reconciliations/${started.id}/clear`, { journal_line_ids: [lineOnAccount(owed, books.card.id)] }));
    expect(dataOf(await api.request('POST', `/api/v1/reconciliations/${started.id}/finish`))).toMatchObject({ cleared_balance: '5420', difference: '0' });
  });

  it('audits every step, and verify finds the books, matches and reconciliations sound', async () => {
    const { books, opening, fee, lines } = await march();
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/match`, { journal_entry_ids: [fee.id] }));
    const started = dataOf(await api.request('POST', '/api/v1/reconciliations', { account_id: books.bank.id, statement_date: '2026-03-05',
      statement_balance: '99010' }), 201);
    dataOf(await api.request('POST', `/api/v1/reconciliations/${started.id}/clear`, { journal_line_ids: [lineOnAccount(opening, books.bank.id)] }));
    dataOf(await api.request('POST', `/api/v1/reconciliations/${started.id}/finish`));
    const audit = dataOf(await api.request('GET', `/api/v1/audit-log?target_id=${started.id}&sort=asc`));
    expect(audit.map((record: any) => record.action)).toEqual(['reconciliation.create', 'reconciliation.clear', 'reconciliation.finish']);
    const verified = dataOf(await api.request('GET', '/api/v1/verify'));
    expect(verified.problems).toEqual([]);
    expect(verified.checks).toEqual(expect.arrayContaining(['bank_matches', 'reconciliations']));
  });

  it('verify names a match that no longer sums to its bank line, and a finished reconciliation that no longer adds up', async () => {
    const { books, opening, fee, payment, lines } = await march();
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/match`, { journal_entry_ids: [fee.id] }));
    const started = dataOf(await api.request('POST', '/api/v1/reconciliations', { account_id: books.bank.id, statement_date: '2026-03-05',
      statement_balance: '99010' }), 201);
    dataOf(await api.request('POST', `/api/v1/reconciliations/${started.id}/clear`, { journal_line_ids: [lineOnAccount(opening, books.bank.id)] }));
    dataOf(await api.request('POST', `/api/v1/reconciliations/${started.id}/finish`));
    expect(dataOf(await api.request('GET', '/api/v1/verify')).problems).toEqual([]);
    // Behind the service's back: the fee's bank line now points at the payment's line; a reconciled line is forgotten.
    await rawQuery(api.location, 'UPDATE bank_line_matches SET journal_line_id = $1, journal_entry_id = $2 WHERE bank_line_id = $3',
      [lineOnAccount(payment, books.bank.id), payment.id, lines[0].id]);
    if (parseDatabaseLocation(api.location).kind === 'postgres') {
      await rawQuery(api.location, 'ALTER TABLE reconciled_lines DISABLE TRIGGER reconciled_lines_immutable');
    } else {
      await rawQuery(api.location, 'DROP TRIGGER IF EXISTS reconciled_lines_no_delete');
    }
    await rawQuery(api.location, 'DELETE FROM reconciled_lines WHERE journal_line_id = $1', [lineOnAccount(opening, books.bank.id)]);
    const problems = dataOf(await api.request('GET', '/api/v1/verify')).problems;
    expect(problems).toContainEqual(expect.objectContaining({ check: 'bank_matches', account_id: books.bank.id, expected: '-990', found: '150000' }));
    expect(problems).toContainEqual(expect.objectContaining({ check: 'reconciliations', account_id: books.bank.id, expected: '99010', found: '-990' }));
  });
});
