/**
 * `ledger rates set|list|import` on real SQLite files: rates set by currency code with an API key
 * holding rates:write, replaced for the same day, listed with filters, imported from CSV all or
 * nothing (a bad line names itself and imports nothing), `--json` equal to what the HTTP API
 * answers; and the hledger export's `P` directives, read back by hledger itself.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  entry, ledger, ledgerJson, operator, seedBooks, serveFile, tableCells, tempFolder, withLedger,
} from '../helpers/cli.js';

const folder = tempFolder('rates');
afterAll(() => folder.remove());

const HLEDGER = '/usr/bin/hledger';

function writeFile(name: string, content: string): string {
  const file = join(folder.dir, name);
  writeFileSync(file, content);
  return file;
}

describe('ledger rates', () => {
  const db = join(folder.dir, 'rates.db');
  let books: Awaited<ReturnType<typeof seedBooks>>;
  let eur: { id: string };
  let ratesKey: string;
  let journalsKey: string;

  beforeAll(async () => {
    books = await seedBooks(db);
    await withLedger(db, async (service) => {
      eur = await service.createFiatCurrency(operator, 'EUR');
      await service.createFiatCurrency(operator, 'GBP');
      await service.createFiatCurrency(operator, 'JPY');
      ratesKey = (await service.createServiceAccount(null, { name: 'rates clerk', permissions: { 'rates:write': true } })).api_key;
      journalsKey = (await service.createServiceAccount(null, { name: 'bookkeeper', permissions: { 'journals:create': true } })).api_key;
    });
  });

  it('sets a rate by currency code, then replaces it for the same day, and says which', () => {
    const first = ledger(['rates', 'set', 'eur', '2026-01-15', '1.084200'], { db, apiKey: ratesKey });
    expect(first).toMatchObject({ status: 0, stderr: '' });
    expect(first.stdout).toMatch(/^Set the rate of EUR from 2026-01-15: 1 EUR = 1\.0842 USD \([0-9a-f-]+\)\n$/);
    const again = ledgerJson(['rates', 'set', 'EUR', '2026-01-15', '1.09'], { db, apiKey: ratesKey });
    expect(again.data).toMatchObject({ currency_code: 'EUR', rate_date: '2026-01-15', rate: '1.09' });
    expect(ledger(['rates', 'set', 'EUR', '2026-01-15', '1.1'], { db, apiKey: ratesKey }).stdout).toMatch(/^Replaced the rate of EUR from 2026-01-15: 1 EUR = 1\.1 USD/);
    const actions = ledgerJson(['audit-log', '--action', 'exchange_rate.set', '--sort', 'asc'], { db }).data;
    expect(actions.map((record: { changes: { rate: unknown } }) => record.changes.rate)).toEqual([
      { old: null, new: '1.0842' }, { old: '1.0842', new: '1.09' }, { old: '1.09', new: '1.1' },
    ]);
  });

  it('refuses a write without an API key (exit 3), without rates:write (exit 3), and a bad rate (exit 1), changing nothing', () => {
    const before = ledgerJson(['rates', 'list'], { db });
    const noKey = ledger(['rates', 'set', 'GBP', '2026-01-15', '1.27'], { db });
    expect(noKey.status).toBe(3);
    expect(noKey.stderr).toMatch(/UNAUTHORIZED.*needs an API key/s);
    const forbidden = ledger(['rates', 'set', 'GBP', '2026-01-15', '1.27'], { db, apiKey: journalsKey });
    expect(forbidden.status).toBe(3);
    expect(forbidden.stderr).toMatch(/FORBIDDEN.*rates:write/s);
    for (const [rate, message] of [['0', /greater than zero/], ['-1', /positive decimal/], ['1.1234567890123', /at most 12/]] as const) {
      const run = ledger(['rates', 'set', 'GBP', '2026-01-15', rate], { db, apiKey: ratesKey });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(message);
    }
    const base = ledger(['rates', 'set', 'USD', '2026-01-15', '1'], { db, apiKey: ratesKey });
    expect(base.status).toBe(1);
    expect(base.stderr).toMatch(/USD is the base currency/);
    expect(ledgerJson(['rates', 'list'], { db })).toEqual(before);
  });

  it('imports a CSV file of rates by code or id, replacing a day\'s rate, and lists them with filters', () => {
    const file = writeFile('rates.csv', ['currency,date,rate', 'EUR,2026-01-15,1.0842', `${eur.id},2026-02-01,1.0875`,
      'GBP,2026-01-15,1.2710', 'jpy,2026-01-15,0.0064', '', 'GBP,2026-02-01,1.2655'].join('\n'));
    const run = ledger(['rates', 'import', file], { db, apiKey: ratesKey });
    expect(run).toEqual({ status: 0, stderr: '', stdout: 'Imported 5 rates: 4 new, 1 replaced\n' });
    // Within a day, by currency id: the currencies were created EUR, GBP, JPY, and ids (UUIDv7) grow with time.
    expect(tableCells(ledger(['rates', 'list'], { db }).stdout)).toEqual([
      ['DATE', 'CURRENCY', 'RATE', 'ID'],
      ...[['2026-01-15', 'EUR', '1.0842'], ['2026-01-15', 'GBP', '1.271'], ['2026-01-15', 'JPY', '0.0064'],
        ['2026-02-01', 'EUR', '1.0875'], ['2026-02-01', 'GBP', '1.2655']].map((row) => [...row, expect.stringMatching(/^[0-9a-f-]{36}$/)]),
    ]);
    const euro = ledgerJson(['rates', 'list', '--currency', 'EUR', '--start', '2026-02-01'], { db }).data;
    expect(euro.map((rate: { rate: string }) => rate.rate)).toEqual(['1.0875']);
    const january = ledgerJson(['rates', 'list', '--end', '2026-01-31'], { db }).data;
    expect(january.map((rate: { currency_code: string }) => rate.currency_code).sort()).toEqual(['EUR', 'GBP', 'JPY']);
  });

  it.each([
    ['a rate with too many decimal places', 'currency,date,rate\nEUR,2026-03-01,1.08\nGBP,2026-03-01,1.1234567890123\n', /^error \[VALIDATION_ERROR\] \(rate\): line 3: rate has 13 decimal places/],
    ['an unknown currency', 'currency,date,rate\nEUR,2026-03-01,1.08\nXYZ,2026-03-01,1.2\n', /line 3: unknown currency "XYZ"/],
    ['a date that does not exist', 'currency,date,rate\nEUR,2026-02-30,1.08\n', /line 2: rate_date must be a calendar date/],
    ['a decimal comma', 'currency,date,rate\nEUR,2026-03-01,"1,08"\n', /line 2: rate must be a positive decimal/],
    ['the same currency and day twice', 'currency,date,rate\nEUR,2026-03-01,1.08\nGBP,2026-03-01,1.2\neur,2026-03-01,1.09\n', /line 4: line 4 repeats the currency and date of line 2/],
    ['the base currency', 'currency,date,rate\nEUR,2026-03-01,1.08\nUSD,2026-03-01,1\n', /line 3: USD is the base currency/],
    ['a wrong header', 'code,day,value\nEUR,2026-03-01,1.08\n', /line 1: the header must be currency,date,rate/],
    ['a missing field', 'currency,date,rate\nEUR,2026-03-01\n', /line 2: expected 3 fields/],
  ])('imports nothing from a file with %s, and names the line', (_name, content, message) => {
    const before = ledgerJson(['rates', 'list'], { db });
    const run = ledger(['rates', 'import', writeFile('bad.csv', content)], { db, apiKey: ratesKey });
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 1, stdout: '' });
    expect(run.stderr).toMatch(message);
    expect(ledgerJson(['rates', 'list'], { db })).toEqual(before);
  });

  it('prints under --json what the HTTP API answers', async () => {
    const api = await serveFile(db);
    try {
      expect(ledgerJson(['rates', 'list'], { db })).toEqual(await api.get('/exchange-rates?limit=200'));
      expect(ledgerJson(['rates', 'list', '--currency', 'GBP'], { db })).toEqual(await api.get(`/exchange-rates?limit=200&currency_id=${
        (await api.get('/currencies')).data.find((currency: { code: string }) => currency.code === 'GBP').id}`));
    } finally {
      await api.close();
    }
  });

  it.runIf(existsSync(HLEDGER))('exports the rates as P directives before the entries, which hledger reads and values with', async () => {
    await withLedger(db, async (service) => {
      const admin = await service.authenticate(books.adminKey);
      const euroCash = await service.createAccount(operator, { account_number: '1100', name: 'Euro cash', currency_id: eur.id, account_type: 'asset', normal_balance: 'debit' });
      const euroSales = await service.createAccount(operator, { account_number: '4100', name: 'Euro sales', currency_id: eur.id, account_type: 'revenue', normal_balance: 'credit' });
      await service.postJournalEntry(admin, entry(euroCash.id, euroSales.id, '100000', '2026-02-10', 'Invoice paid in euros'));
      await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '50000', '2026-02-11', 'Dollar sale'));
    });
    const out = join(folder.dir, 'books.journal');
    expect(ledger(['export', '--format', 'hledger', '--out', out], { db }).status).toBe(0);
    const exported = ledger(['export', '--format', 'hledger'], { db }).stdout;
    const pLines = exported.split('\n').filter((line) => line.startsWith('P '));
    expect(pLines).toEqual(['P 2026-01-15 EUR 1.0842 USD', 'P 2026-01-15 GBP 1.271 USD', 'P 2026-01-15 JPY 0.0064 USD',
      'P 2026-02-01 EUR 1.0875 USD', 'P 2026-02-01 GBP 1.2655 USD']);
    expect(exported.indexOf('P 2026-02-01 GBP')).toBeLessThan(exported.indexOf('2026-02-10 *'));

    const hledger = (...args: string[]) => spawnSync(HLEDGER, ['-f', out, ...args], { encoding: 'utf8' });
    const check = hledger('check');
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });
    const prices = hledger('prices');
    expect(prices.stdout.trim().split('\n')).toEqual(pLines);
    // hledger values the euro cash at the latest rate on or before the report's end: 1000.00 EUR × 1.0875.
    const valued = hledger('bal', 'assets:1100', '-X', 'USD', '-e', '2026-03-01', '--no-total', '-N');
    expect(valued.stdout.trim()).toMatch(/^1087\.50 USD\s+assets:1100 Euro cash$/);

    const beancount = ledger(['export', '--format', 'beancount'], { db }).stdout;
    expect(beancount.split('\n').filter((line) => / price /.test(line))).toEqual(pLines.map((line) => {
      const [, date, code, rate, base] = line.split(' ');
      return `${date} price ${code} ${rate} ${base}`;
    }));
    // The CSV export has no place for prices.
    expect(ledger(['export', '--format', 'csv'], { db }).stdout).not.toMatch(/1\.0842/);
  });
});
