/**
 * Importing bank and card statements through the API, on both stores: every format, exact amounts
 * and balances, the duplicate rules (the same file is a 409; an overlapping download imports each
 * transaction once; two identical transactions on one day stay two lines), the all-or-nothing bad
 * file, which accounts may hold statements, who may import, and the dry run that previews an import.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createAccount, dataOf, expectError, newApiKey, startApi, walkPages } from '../helpers/api-fixture.js';
import { bankBooks, bankLinesOf, importCsv, SEMICOLON_MAPPING, semicolonCsv } from '../helpers/bank-books.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/bank/${name}`, import.meta.url));

describe('bank statements', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi();
    dataOf(await api.request('POST', '/api/v1/periods', { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' }), 201);
  });
  afterAll(async () => { await api.close(); });

  /** The fixtures are in the currency they name: their accounts get a currency of that code. */
  async function currencyOfCode(code: string): Promise<string> {
    const known = (await walkPages(api, '/api/v1/currencies')).rows.find((currency: { code: string }) => currency.code === code);
    if (known !== undefined) return known.id;
    return dataOf(await api.request('POST', '/api/v1/currencies', { code, name: code, symbol: code, asset_scale: 2, asset_type: 'fiat',
      caip19_id: `swift:0/iso4217:${code}` }), 201).id;
  }

  const march = semicolonCsv([
    ['02.03.2026', 'Miete März', '-1.200,00', '3.800,00'],
    ['03.03.2026', 'Kaffee Bohne', '-3,40', '3.796,60'],
    ['03.03.2026', 'Kaffee Bohne', '-3,40', '3.793,20'],
    ['05.03.2026', 'Kunde ACME Rechnung 17', '2.499,99', '6.293,19'],
  ]);

  it('imports a CSV with preamble, semicolons and decimal commas: exact amounts, the file\'s balances, every line', async () => {
    const books = await bankBooks(api);
    const statement = dataOf(await importCsv(api, books.bank.id, march), 201);
    expect(statement).toMatchObject({
      account_id: books.bank.id, format: 'csv', start_date: '2026-03-02', end_date: '2026-03-05',
      opening_balance: '500000', closing_balance: '629319', display_opening_balance: '5000.00', display_closing_balance: '6293.19',
      line_count: 4, new_count: 4, duplicate_count: 0, file_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const lines = await bankLinesOf(api, `statement_id=${statement.id}`);
    expect(lines.map((line) => [line.posted_date, line.amount, line.display_amount, line.description, line.status])).toEqual([
      ['2026-03-02', '-120000', '-1200.00', 'Miete März', 'unmatched'],
      ['2026-03-03', '-340', '-3.40', 'Kaffee Bohne', 'unmatched'],
      ['2026-03-03', '-340', '-3.40', 'Kaffee Bohne', 'unmatched'],
      ['2026-03-05', '249999', '2499.99', 'Kunde ACME Rechnung 17', 'unmatched'],
    ]);
    expect(lines.every((line) => line.journal_entry_ids.length === 0 && line.suggestion === null)).toBe(true);
    expect(dataOf(await api.request('GET', `/api/v1/bank-statements/${statement.id}`))).toEqual(statement);
  });

  it('answers the same file again with 409 DUPLICATE on content and imports nothing', async () => {
    const books = await bankBooks(api);
    dataOf(await importCsv(api, books.bank.id, march), 201);
    expectError(await importCsv(api, books.bank.id, march), 409, 'DUPLICATE', 'content');
    expect(await bankLinesOf(api, `account_id=${books.bank.id}`)).toHaveLength(4);
    // The same file for another account is that account's statement.
    dataOf(await importCsv(api, (await bankBooks(api)).bank.id, march), 201);
  });

  it('imports each transaction of overlapping downloads once, and keeps two equal coffees as two lines', async () => {
    const books = await bankBooks(api);
    dataOf(await importCsv(api, books.bank.id, march), 201);
    const later = semicolonCsv([
      ['03.03.2026', 'Kaffee Bohne', '-3,40', '3.796,60'],
      ['03.03.2026', 'Kaffee Bohne', '-3,40', '3.793,20'],
      ['03.03.2026', 'Kaffee Bohne', '-3,40', '3.789,80'],
      ['05.03.2026', 'Kunde ACME Rechnung 17', '2.499,99', '6.289,79'],
      ['09.03.2026', 'Kontoführung', '-9,90', '6.279,89'],
    ]);
    const second = dataOf(await importCsv(api, books.bank.id, later), 201);
    expect(second).toMatchObject({ line_count: 5, new_count: 2, duplicate_count: 3 });
    const lines = await bankLinesOf(api, `account_id=${books.bank.id}`);
    expect(lines.map((line) => `${line.posted_date} ${line.amount} ${line.description}`)).toEqual([
      '2026-03-02 -120000 Miete März', '2026-03-03 -340 Kaffee Bohne', '2026-03-03 -340 Kaffee Bohne', '2026-03-03 -340 Kaffee Bohne',
      '2026-03-05 249999 Kunde ACME Rechnung 17', '2026-03-09 -990 Kontoführung',
    ]);
  });

  it('previews an import with dry_run=true: the counts and balances the import then stores, 200, and nothing stored or announced', async () => {
    const books = await bankBooks(api);
    const imports = async () => (await walkPages(api, '/api/v1/events?types=bank_statement.imported')).rows.length;
    const eventsBefore = await imports();
    const dryRun = (content: string, token?: string) => api.request('POST', '/api/v1/bank-statements?dry_run=true',
      { account_id: books.bank.id, format: 'csv', content, csv: SEMICOLON_MAPPING },
      token === undefined ? {} : { token });
    const preview = dataOf(await dryRun(march), 200);
    expect(preview.dry_run).toBe(true);
    expect(preview.statement).toMatchObject({ account_id: books.bank.id, start_date: '2026-03-02', end_date: '2026-03-05', closing_balance: '629319',
      line_count: 4, new_count: 4, duplicate_count: 0 });
    expect(await bankLinesOf(api, `account_id=${books.bank.id}`)).toEqual([]);
    expect((await walkPages(api, `/api/v1/bank-statements?account_id=${books.bank.id}`)).rows).toEqual([]);
    expect(dataOf(await api.request('GET', `/api/v1/audit-log?action=bank_statement.import&target_id=${preview.statement.id}`))).toEqual([]);
    expect(await imports()).toBe(eventsBefore);
    // The import itself: what the preview said, under a new id.
    const { id, imported_at: _at, ...previewed } = preview.statement;
    const statement = dataOf(await importCsv(api, books.bank.id, march), 201);
    expect(statement.id).not.toBe(id);
    expect(statement).toMatchObject(previewed);
    expect(await imports()).toBe(eventsBefore + 1);
    // After it: the same file is a duplicate in a dry run too, and an overlapping one counts its duplicates.
    expectError(await dryRun(march), 409, 'DUPLICATE', 'content');
    const later = semicolonCsv([['05.03.2026', 'Kunde ACME Rechnung 17', '2.499,99', '6.293,19'], ['09.03.2026', 'Kontoführung', '-9,90', '6.283,29']]);
    expect(dataOf(await dryRun(later), 200).statement).toMatchObject({ line_count: 2, new_count: 1, duplicate_count: 1 });
    expect(await bankLinesOf(api, `account_id=${books.bank.id}`)).toHaveLength(4);
    // A bad file and a key without bank:write are refused as the import refuses them.
    expectError(await dryRun(semicolonCsv([['31.02.2026', 'Unmöglich', '-1,00', '3.799,00']])), 400, 'VALIDATION_ERROR', 'content');
    expectError(await dryRun(march, await newApiKey(api, { 'journals:create': true })), 403, 'FORBIDDEN');
  });

  it('imports nothing from a file with one bad line, and the error names the line', async () => {
    const books = await bankBooks(api);
    const bad = semicolonCsv([['02.03.2026', 'Miete', '-1.200,00', '3.800,00'], ['31.02.2026', 'Unmöglich', '-1,00', '3.799,00']]);
    const refused = await importCsv(api, books.bank.id, bad);
    expectError(refused, 400, 'VALIDATION_ERROR', 'content');
    expect(refused.body.message).toMatch(/line 5/);
    const tooPrecise = semicolonCsv([['02.03.2026', 'Miete', '-1.200,005', '3.800,00']]);
    expect((await importCsv(api, books.bank.id, tooPrecise)).body.message).toMatch(/line 4.*decimal places/);
    expect(await bankLinesOf(api, `account_id=${books.bank.id}`)).toEqual([]);
    expect((await walkPages(api, `/api/v1/bank-statements?account_id=${books.bank.id}`)).rows).toEqual([]);
  });

  it('reads bytes in Windows-1252 given as content_base64', async () => {
    const books = await bankBooks(api);
    const statement = dataOf(await api.request('POST', '/api/v1/bank-statements', {
      account_id: books.bank.id, format: 'csv', content_base64: fixture('de-bank-giro-1252.csv').toString('base64'),
      csv: { delimiter: ';', skip_rows: 7, date_column: 'Buchungstag', date_format: 'DD.MM.YYYY', description_column: 'Verwendungszweck',
        amount_column: 'Betrag (EUR)', decimal_separator: ',' },
    }), 201);
    const lines = await bankLinesOf(api, `statement_id=${statement.id}`);
    expect(lines.length).toBe(statement.line_count);
    expect(lines.some((line) => /[äöüß€]/.test(line.description))).toBe(true);
  });

  it.each([
    ['ofx102-checking-1252.ofx', 'ofx', 'bank'],
    ['qfx-savings.qfx', 'ofx', 'bank'],
    ['camt053-001-02.xml', 'camt053', 'bank'],
    ['camt053-001-08.xml', 'camt053', 'bank'],
    ['ofx211-creditcard.ofx', 'ofx', 'card'],
  ] as const)('imports %s (%s) with its balances signed by the account\'s normal side', async (name, format, side) => {
    const text = fixture(name).toString('latin1');
    const found = /<CURDEF>\s*([A-Z]{3})|Ccy="([A-Z]{3})"/.exec(text);
    const own = await currencyOfCode(found?.[1] ?? found?.[2] ?? 'USD');
    const account = await createAccount(api, { account_number: `FX-${name}`, name, currency_id: own, account_type: side === 'card' ? 'liability' : 'asset',
      normal_balance: side === 'card' ? 'credit' : 'debit' });
    const statement = dataOf(await api.request('POST', '/api/v1/bank-statements', { account_id: account.id, format,
      content_base64: fixture(name).toString('base64') }), 201);
    const lines = await bankLinesOf(api, `statement_id=${statement.id}`);
    expect(lines.length).toBe(statement.new_count);
    expect(statement.new_count).toBeGreaterThan(0);
    if (statement.opening_balance !== null && statement.closing_balance !== null) {
      // Normal-side balances: the lines (money in positive) move an asset's balance up and a card's down.
      const moved = lines.reduce((sum, line) => sum + BigInt(line.amount), 0n);
      const expected = BigInt(statement.opening_balance) + (side === 'card' ? -moved : moved);
      expect(BigInt(statement.closing_balance)).toBe(expected);
    }
  });

  it('refuses an account that cannot hold statements, and an unknown one', async () => {
    const books = await bankBooks(api);
    expectError(await importCsv(api, books.sales.id, march), 400, 'VALIDATION_ERROR', 'account_id');
    const control = await createAccount(api, { account_number: `CTRL-${books.bank.id}`, name: 'Banks', currency_id: books.currency.id,
      account_type: 'asset', normal_balance: 'debit', has_subledger: true });
    expectError(await importCsv(api, control.id, march), 400, 'VALIDATION_ERROR', 'account_id');
    expectError(await importCsv(api, 'no-such-account', march), 404, 'NOT_FOUND');
  });

  it('refuses both or neither of content and content_base64, and a CSV without its mapping', async () => {
    const books = await bankBooks(api);
    expectError(await api.request('POST', '/api/v1/bank-statements', { account_id: books.bank.id, format: 'ofx' }), 400, 'VALIDATION_ERROR', 'content');
    expectError(await api.request('POST', '/api/v1/bank-statements', { account_id: books.bank.id, format: 'ofx', content: 'x', content_base64: 'eA==' }),
      400, 'VALIDATION_ERROR', 'content');
    expectError(await api.request('POST', '/api/v1/bank-statements', { account_id: books.bank.id, format: 'csv', content: 'a;b' }),
      400, 'VALIDATION_ERROR', 'csv');
  });

  it('needs bank:write to import; any user reads', async () => {
    const books = await bankBooks(api);
    const reader = await newApiKey(api, { 'journals:create': true });
    expectError(await importCsv(api, books.bank.id, march, reader), 403, 'FORBIDDEN');
    const importer = await newApiKey(api, { 'bank:write': true });
    const statement = dataOf(await importCsv(api, books.bank.id, march, importer), 201);
    expect(statement.imported_by).not.toBeNull();
    expect(dataOf(await api.request('GET', `/api/v1/bank-statements/${statement.id}`, undefined, { token: reader })).id).toBe(statement.id);
    const audit = dataOf(await api.request('GET', `/api/v1/audit-log?action=bank_statement.import&target_id=${statement.id}`));
    expect(audit).toHaveLength(1);
    expect(audit[0].changes).toMatchObject({ line_count: { old: null, new: 4 }, new_count: { old: null, new: 4 } });
  });
});
