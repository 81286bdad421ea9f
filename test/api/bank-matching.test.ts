/**
 * Deciding what bank lines are, through the API on both stores: rules and their suggestions,
 * posting a line (through the posting path: permissions, audit, idempotency, dry run), accepting
 * many at once (all or none), matching one line to several entries that sum exactly to it,
 * candidates, exclusion and unmatching, and the 409s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, expectError, newApiKey, postEntry, startApi, walkPages } from '../helpers/api-fixture.js';
import { type BankBooks, bankBooks, bankLinesOf, importCsv, semicolonCsv } from '../helpers/bank-books.js';

describe('bank rules and matching', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi();
    dataOf(await api.request('POST', '/api/v1/periods', { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' }), 201);
  });
  afterAll(async () => { await api.close(); });

  /** Books with one statement of four lines imported: rent out, two coffees, a customer's payment in. */
  async function booksWithLines(): Promise<{ books: BankBooks; lines: any[] }> {
    const books = await bankBooks(api);
    dataOf(await importCsv(api, books.bank.id, semicolonCsv([
      ['02.03.2026', 'Kartenzahlung REWE Markt 4711', '-54,20', '945,80'],
      ['03.03.2026', 'Kaffee Bohne', '-3,40', '942,40'],
      ['04.03.2026', 'Entgelt Kontoführung', '-9,90', '932,50'],
      ['06.03.2026', 'Gutschrift ACME GmbH RE-17 RE-18', '1.500,00', '2.432,50'],
    ])), 201);
    return { books, lines: await bankLinesOf(api, `account_id=${books.bank.id}`) };
  }

  const rule = (books: BankBooks, fields: Record<string, unknown>) =>
    api.request('POST', '/api/v1/bank-rules', { name: 'Rule', counter_account_id: books.fees.id, account_id: books.bank.id, ...fields });

  it('suggests by the first matching rule (priority, then creation) and says why', async () => {
    const { books } = await booksWithLines();
    dataOf(await rule(books, { name: 'Everything out', priority: 200, match: { direction: 'out' }, counter_account_id: books.fees.id }), 201);
    dataOf(await rule(books, { name: 'Groceries', priority: 10, match: { description_regex: '\\b(rewe|edeka|aldi)\\b', amount_max: '50000' },
      counter_account_id: books.groceries.id, description: 'Groceries' }), 201);
    dataOf(await rule(books, { name: 'Also groceries', priority: 10, match: { description_contains: 'rewe' }, counter_account_id: books.fees.id }), 201);
    const lines = await bankLinesOf(api, `account_id=${books.bank.id}`);
    expect(lines[0].suggestion).toMatchObject({ counter_account_id: books.groceries.id, rule_name: 'Groceries', description: 'Groceries',
      reason: 'Rule "Groceries" (priority 10): description matches /\\b(rewe|edeka|aldi)\\b/ ("REWE"), amount 54.20 is at most 500.00' });
    expect(lines[1].suggestion).toMatchObject({ rule_name: 'Everything out', description: 'Kaffee Bohne', reason: 'Rule "Everything out" (priority 200): money out' });
    expect(lines[3].suggestion).toBeNull();
  });

  it('keeps a rule to counter accounts in its bank account\'s currency, and suggests from a rule for all accounts only in its own', async () => {
    const { books, lines } = await booksWithLines();
    const other = await bankBooks(api);
    const refused = await rule(books, { match: { direction: 'out' }, counter_account_id: other.fees.id });
    expectError(refused, 400, 'VALIDATION_ERROR', 'counter_account_id');
    dataOf(await api.request('POST', '/api/v1/bank-rules', { name: 'Everything, other currency', priority: -5, account_id: null,
      match: { direction: 'out' }, counter_account_id: other.fees.id }), 201);
    expect((await bankLinesOf(api, `account_id=${books.bank.id}`))[0].suggestion).toBeNull();
    void lines;
  });

  it('refuses a rule whose expression does not compile or could backtrack catastrophically', async () => {
    const { books } = await booksWithLines();
    for (const pattern of ['(a+)+$', '(x|x)*y', '(', '\\d+\\s*\\d+$']) {
      const refused = await rule(books, { match: { description_regex: pattern } });
      expectError(refused, 400, 'VALIDATION_ERROR', 'match.description_regex');
    }
    expect((await walkPages(api, '/api/v1/bank-rules')).rows.every((saved: any) => saved.account_id !== books.bank.id)).toBe(true);
  });

  it('edits, orders and deletes rules, audited, and previews one before it is saved', async () => {
    const { books, lines } = await booksWithLines();
    const preview = dataOf(await api.request('POST', '/api/v1/bank-rules/preview', {
      rule: { name: 'Coffee', match: { description_contains: 'kaffee' }, counter_account_id: books.groceries.id }, account_id: books.bank.id,
    }));
    expect(preview.matches.map((match: any) => [match.line.id, match.reason])).toEqual([[lines[1].id, 'Rule "Coffee" (priority 100): description contains "kaffee"']]);
    expect((await walkPages(api, '/api/v1/bank-rules')).rows.some((saved: any) => saved.name === 'Coffee')).toBe(false);
    const created = dataOf(await rule(books, { name: 'Coffee', match: { description_contains: 'kaffee' } }), 201);
    const changed = dataOf(await api.request('PATCH', `/api/v1/bank-rules/${created.id}`, { priority: 5, counter_account_id: books.groceries.id }));
    expect(changed).toMatchObject({ priority: 5, counter_account_id: books.groceries.id, match: { description_contains: 'kaffee' } });
    expect((await bankLinesOf(api, `account_id=${books.bank.id}`))[1].suggestion.counter_account_id).toBe(books.groceries.id);
    expect(dataOf(await api.request('DELETE', `/api/v1/bank-rules/${created.id}`)).id).toBe(created.id);
    expectError(await api.request('GET', `/api/v1/bank-rules/${created.id}`), 404, 'NOT_FOUND');
    const audit = dataOf(await api.request('GET', `/api/v1/audit-log?target_id=${created.id}&sort=asc`));
    expect(audit.map((record: any) => record.action)).toEqual(['bank_rule.create', 'bank_rule.update', 'bank_rule.delete']);
    expect(audit[1].changes).toEqual({ priority: { old: 100, new: 5 }, counter_account_id: { old: books.fees.id, new: books.groceries.id } });
  });

  it('posts a line by its suggestion through the posting path, matched to the new entry and audited', async () => {
    const { books, lines } = await booksWithLines();
    dataOf(await rule(books, { name: 'Fees', match: { description_contains: 'entgelt' } }), 201);
    const posted = dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[2].id}/post`, {}));
    expect(posted).toMatchObject({ id: lines[2].id, status: 'matched', suggestion: null });
    expect(posted.journal_entry_ids).toHaveLength(1);
    const entry = dataOf(await api.request('GET', `/api/v1/journal-entries/${posted.journal_entry_ids[0]}`));
    expect(entry).toMatchObject({ entry_date: '2026-03-04', description: 'Entgelt Kontoführung', metadata: { bank_line_id: lines[2].id } });
    expect(entry.lines.map((line: any) => [line.account_id, line.debit_amount, line.credit_amount])).toEqual([
      [books.bank.id, '0', '990'], [books.fees.id, '990', '0'],
    ]);
    expectError(await api.request('POST', `/api/v1/bank-lines/${lines[2].id}/post`, {}), 409, 'BANK_LINE_RESOLVED');
    const audit = dataOf(await api.request('GET', `/api/v1/audit-log?target_id=${lines[2].id}`));
    expect(audit[0]).toMatchObject({ action: 'bank_line.post', changes: { status: { old: 'unmatched', new: 'matched' } } });
  });

  it('posts against a chosen account, on a chosen date, and refuses a line without a suggestion or account', async () => {
    const { books, lines } = await booksWithLines();
    expectError(await api.request('POST', `/api/v1/bank-lines/${lines[3].id}/post`, {}), 400, 'VALIDATION_ERROR', 'counter_account_id');
    const posted = dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[3].id}/post`, {
      counter_account_id: books.sales.id, description: 'ACME pays', entry_date: '2026-03-07' }));
    const entry = dataOf(await api.request('GET', `/api/v1/journal-entries/${posted.journal_entry_ids[0]}`));
    expect([entry.entry_date, entry.description]).toEqual(['2026-03-07', 'ACME pays']);
    expect(entry.lines.map((line: any) => [line.account_id, line.debit_amount, line.credit_amount])).toEqual([
      [books.bank.id, '150000', '0'], [books.sales.id, '0', '150000'],
    ]);
    // Every posting rule applies: a date outside any open period.
    expectError(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/post`, { counter_account_id: books.groceries.id,
      entry_date: '2027-01-01' }), 400, 'NO_OPEN_PERIOD');
    expect((await api.request('GET', `/api/v1/bank-lines/${lines[0].id}`)).body.data.status).toBe('unmatched');
  });

  it('dry-runs a post: the entry as it would be, and nothing stored', async () => {
    const { books, lines } = await booksWithLines();
    const dry = dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/post?dry_run=true`, { counter_account_id: books.groceries.id }));
    expect(dry.dry_run).toBe(true);
    expect(dry.lines[0]).toMatchObject({ id: lines[0].id, status: 'matched' });
    expect(dry.entries[0].lines.map((line: any) => line.credit_amount)).toEqual(['5420', '0']);
    expect(dataOf(await api.request('GET', `/api/v1/bank-lines/${lines[0].id}`))).toMatchObject({ status: 'unmatched', journal_entry_ids: [] });
    expect((await walkPages(api, `/api/v1/journal-entries?account_id=${books.bank.id}`)).rows).toEqual([]);
  });

  it('replays a post under the same Idempotency-Key without posting twice', async () => {
    const { books, lines } = await booksWithLines();
    const headers = { 'idempotency-key': `post-${lines[0].id}` };
    const first = await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/post`, { counter_account_id: books.groceries.id }, { headers });
    const again = await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/post`, { counter_account_id: books.groceries.id }, { headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await walkPages(api, `/api/v1/journal-entries?account_id=${books.bank.id}`)).rows).toHaveLength(1);
  });

  it('accepts many suggestions in one transaction, and posts none when one line has no suggestion', async () => {
    const { books, lines } = await booksWithLines();
    dataOf(await rule(books, { name: 'Out', match: { direction: 'out' }, counter_account_id: books.groceries.id }), 201);
    const refused = await api.request('POST', '/api/v1/bank-lines/accept', { line_ids: [lines[0].id, lines[1].id, lines[3].id] });
    expectError(refused, 400, 'VALIDATION_ERROR', 'line_ids[2]');
    expect((await bankLinesOf(api, `account_id=${books.bank.id}&status=matched`))).toEqual([]);
    expect((await walkPages(api, `/api/v1/journal-entries?account_id=${books.bank.id}`)).rows).toEqual([]);
    const accepted = dataOf(await api.request('POST', '/api/v1/bank-lines/accept', { line_ids: [lines[0].id, lines[1].id, lines[2].id] }));
    expect(accepted.map((line: any) => line.status)).toEqual(['matched', 'matched', 'matched']);
    expect((await walkPages(api, `/api/v1/journal-entries?account_id=${books.bank.id}`)).rows).toHaveLength(3);
  });

  it('needs journals:create as well as bank:write to post, and bank:write to match or exclude', async () => {
    const { books, lines } = await booksWithLines();
    const bankOnly = await newApiKey(api, { 'bank:write': true });
    const journalsOnly = await newApiKey(api, { 'journals:create': true });
    expectError(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/post`, { counter_account_id: books.groceries.id }, { token: bankOnly }),
      403, 'FORBIDDEN');
    expectError(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/post`, { counter_account_id: books.groceries.id }, { token: journalsOnly }),
      403, 'FORBIDDEN');
    expectError(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/exclude`, { reason: 'x' }, { token: journalsOnly }), 403, 'FORBIDDEN');
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/exclude`, { reason: 'Private purchase' }, { token: bankOnly }));
  });

  it('matches one deposit to two invoices that sum exactly to it, and refuses a sum that differs', async () => {
    const { books, lines } = await booksWithLines();
    const invoice17 = await postEntry(api, books.receivables.id, books.sales.id, '100000', '2026-02-20', 'Invoice RE-17 ACME');
    const invoice18 = await postEntry(api, books.receivables.id, books.sales.id, '50000', '2026-02-25', 'Invoice RE-18 ACME');
    const paid17 = await postEntry(api, books.bank.id, books.receivables.id, '100000', '2026-03-06', 'ACME pays RE-17');
    const paid18 = await postEntry(api, books.bank.id, books.receivables.id, '50000', '2026-03-06', 'ACME pays RE-18');
    const mismatch = await api.request('POST', `/api/v1/bank-lines/${lines[3].id}/match`, { journal_entry_ids: [paid17.id] });
    expectError(mismatch, 400, 'AMOUNT_MISMATCH', 'journal_entry_ids');
    expect(mismatch.body.message).toBe(`The entries move the bank account by 1000.00 ${books.currency.code}, the bank line by 1500.00 ${books.currency.code}`);
    expectError(await api.request('POST', `/api/v1/bank-lines/${lines[3].id}/match`, { journal_entry_ids: [invoice17.id] }), 400, 'VALIDATION_ERROR',
      'journal_entry_ids[0]');
    // The entries answer in the order given, not the order they were posted in.
    const matched = dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[3].id}/match`, { journal_entry_ids: [paid18.id, paid17.id] }));
    expect(matched).toMatchObject({ status: 'matched', journal_entry_ids: [paid18.id, paid17.id] });
    void invoice18;
    expectError(await api.request('POST', `/api/v1/bank-lines/${lines[3].id}/match`, { journal_entry_ids: [paid17.id, paid18.id] }), 409,
      'BANK_LINE_RESOLVED');
    expect(dataOf(await api.request('GET', `/api/v1/bank-lines/${lines[3].id}`)).journal_entry_ids).toEqual([paid18.id, paid17.id]);
  });

  it('lists candidates with a score and a reason, best first, and never an entry matched already', async () => {
    const { books, lines } = await booksWithLines();
    const sameDay = await postEntry(api, books.groceries.id, books.bank.id, '5420', '2026-03-02', 'REWE Markt groceries');
    const later = await postEntry(api, books.groceries.id, books.bank.id, '5420', '2026-03-06', 'Something else');
    await postEntry(api, books.groceries.id, books.bank.id, '5420', '2026-03-12', 'Too late');
    await postEntry(api, books.groceries.id, books.bank.id, '5421', '2026-03-02', 'Other amount');
    const candidates = dataOf(await api.request('GET', `/api/v1/bank-lines/${lines[0].id}/candidates`));
    expect(candidates.map((candidate: any) => [candidate.journal_entry_id, candidate.score, candidate.reason])).toEqual([
      [sameDay.id, 90, 'Same amount, same day, shares "rewe", "markt"'],
      [later.id, 64, 'Same amount, 4 days apart, no words in common'],
    ]);
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/match`, { journal_entry_ids: [sameDay.id] }));
    const other = await importCsv(api, books.bank.id, semicolonCsv([['02.03.2026', 'REWE again', '-54,20', '0,00']]));
    const second = (await bankLinesOf(api, `statement_id=${other.body.data.id}`))[0];
    expect(dataOf(await api.request('GET', `/api/v1/bank-lines/${second.id}/candidates`)).map((candidate: any) => candidate.journal_entry_id))
      .toEqual([later.id]);
  });

  it('excludes a line with its reason, unmatches it back, and refuses to exclude a matched one', async () => {
    const { books, lines } = await booksWithLines();
    const excluded = dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[1].id}/exclude`, { reason: 'Paid privately' }));
    expect(excluded).toMatchObject({ status: 'excluded', excluded_reason: 'Paid privately' });
    expectError(await api.request('POST', `/api/v1/bank-lines/${lines[1].id}/exclude`, { reason: 'again' }), 409, 'BANK_LINE_RESOLVED');
    expect(dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[1].id}/unmatch`))).toMatchObject({ status: 'unmatched', excluded_reason: null });
    const posted = dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[1].id}/post`, { counter_account_id: books.groceries.id }));
    expectError(await api.request('POST', `/api/v1/bank-lines/${lines[1].id}/exclude`, { reason: 'x' }), 409, 'BANK_LINE_RESOLVED');
    const unmatched = dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[1].id}/unmatch`));
    expect(unmatched).toMatchObject({ status: 'unmatched', journal_entry_ids: [] });
    // The entry stays posted; matching it again works.
    expect(dataOf(await api.request('GET', `/api/v1/journal-entries/${posted.journal_entry_ids[0]}`)).id).toBe(posted.journal_entry_ids[0]);
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[1].id}/match`, { journal_entry_ids: posted.journal_entry_ids }));
    expect((await bankLinesOf(api, `account_id=${books.bank.id}&status=excluded`))).toEqual([]);
  });

  it('filters lines by status and date, and 404s an unknown account or statement', async () => {
    const { books, lines } = await booksWithLines();
    dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/exclude`, { reason: 'test' }));
    expect((await bankLinesOf(api, `account_id=${books.bank.id}&status=unmatched`)).map((line) => line.id)).toEqual([lines[1].id, lines[2].id, lines[3].id]);
    expect((await bankLinesOf(api, `account_id=${books.bank.id}&start_date=2026-03-03&end_date=2026-03-04`)).map((line) => line.id))
      .toEqual([lines[1].id, lines[2].id]);
    expectError(await api.request('GET', '/api/v1/bank-lines?account_id=nope'), 404, 'NOT_FOUND');
    expectError(await api.request('GET', '/api/v1/bank-lines?statement_id=nope'), 404, 'NOT_FOUND');
    expectError(await api.request('GET', '/api/v1/bank-lines/nope'), 404, 'NOT_FOUND');
  });
});
