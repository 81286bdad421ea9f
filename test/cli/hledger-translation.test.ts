/**
 * Translated reports checked against an outside computation: the review quarter
 * (test/helpers/review-quarter.ts) exported with its rates as hledger price directives (`P`), and
 * hledger's own valuation compared with ours where the methods match (docs/currencies.md):
 * - balance-sheet accounts: hledger's value at the end date (`--value=end`) is our translation at
 *   the report date's rate;
 * - revenue and expense: hledger's value of each posting at its own date (`--value=then`), closing
 *   entries left out, is our income statement's day-by-day translation;
 * - hledger leaves a valued report unbalanced; what it leaves is our translation difference.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, startApi } from '../helpers/api-fixture.js';
import { ledger } from '../helpers/cli.js';
import { seedReviewQuarter } from '../helpers/review-quarter.js';

function hledger(args: string[]): string {
  const run = spawnSync('hledger', args, { encoding: 'utf8', timeout: 60_000 });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error('hledger is not installed; this test needs it (Debian: apt-get install hledger)');
  }
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

/** hledger's `bal -O csv` as account number → amount text ("5964.18 USD"). */
function balances(csv: string): Map<string, string> {
  const rows = parse(csv, { columns: true }) as { account: string; balance: string }[];
  return new Map(rows.map((row) => [/(\d{4})[^:]*$/.exec(row.account)![1]!, row.balance]));
}

/** Cents as hledger prints dollars ("-5964.18 USD", "0"). */
function cents(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))? USD$|^0$/.exec(text);
  if (!match) throw new Error(`not a dollar amount: ${text}`);
  if (text === '0') return 0n;
  const value = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -value : value;
}

/** Cents as hledger prints them. */
function usd(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
}

describe('translated reports against hledger\'s valuation', () => {
  let api: ApiFixture;
  let books: Awaited<ReturnType<typeof seedReviewQuarter>>;
  let folder: string;
  let file: string;

  beforeAll(async () => {
    api = await startApi();
    books = await seedReviewQuarter(api);
    folder = mkdtempSync(join(tmpdir(), 'ledger-hledger-'));
    file = join(folder, 'quarter.journal');
    const run = ledger(['export', '--format', 'hledger', '--out', file], { db: api.location });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^Exported 13 entries to /);
  }, 120_000);
  afterAll(async () => {
    await api.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('writes every rate as a price directive', () => {
    const prices = readFileSync(file, 'utf8').split('\n').filter((line) => line.startsWith('P '));
    expect(prices).toEqual([
      'P 2026-01-01 EUR 1.1 USD', 'P 2026-01-20 EUR 1.08 USD', 'P 2026-02-01 EUR 1.12 USD', 'P 2026-02-15 EUR 1.09 USD',
      'P 2026-03-01 EUR 1.085 USD', 'P 2026-03-31 EUR 1.0842 USD',
    ]);
  });

  it('balance-sheet accounts: hledger\'s value at the end date is our translation at the report date\'s rate', async () => {
    const ours = dataOf(await api.request('GET', `/api/v1/reports/balance-sheet?as_of_date=2026-03-31&presentation_currency_id=${books.usd.id}`));
    const theirs = balances(hledger(['-f', file, 'bal', '-O', 'csv', '--no-total', '--flat', '-e', '2026-04-01',
      '--value=end,USD', '-X', 'USD', 'assets', 'liabilities', 'equity']));
    let compared = 0;
    for (const [section, sign] of [[ours.assets, 1n], [ours.liabilities, -1n], [ours.equity, -1n]] as const) {
      for (const row of section.accounts) {
        if (row.account_number === null) continue;
        // hledger signs by debit (+) and credit (-); the balance sheet by section. A zero balance is "0".
        const expected = row.balance === '0' ? '0' : `${usd(BigInt(row.balance) * sign)} USD`;
        expect(`${row.account_number}: ${theirs.get(row.account_number) ?? '0'}`).toBe(`${row.account_number}: ${expected}`);
        compared += 1;
      }
    }
    expect(compared).toBe(8);
  });

  it('hledger values revenue and expense at the end date too; what separates that from our daily rates is our translation difference', async () => {
    const ours = dataOf(await api.request('GET', `/api/v1/reports/trial-balance?as_of_date=2026-03-31&presentation_currency_id=${books.usd.id}`));
    const theirs = balances(hledger(['-f', file, 'bal', '-O', 'csv', '--no-total', '--flat', '-e', '2026-04-01',
      '--value=end,USD', '-X', 'USD', 'revenues', 'expenses']));
    let separation = 0n;
    for (const row of ours.rows.filter((r: any) => r.account_type === 'revenue' || r.account_type === 'expense')) {
      const hledgerDebitNet = cents(theirs.get(row.account_number) ?? '0');
      separation += hledgerDebitNet - (BigInt(row.debit_total) - BigInt(row.credit_total));
    }
    const difference = ours.rows.find((r: any) => r.account_id === null);
    expect(separation).toBe(BigInt(difference.debit_total) - BigInt(difference.credit_total));
    expect(separation).toBe(2441n);
  });

  it('revenue and expense: hledger\'s value of each posting on its own date, without closing entries, is our day-by-day income statement', async () => {
    const ours = dataOf(await api.request('GET',
      `/api/v1/reports/income-statement?start_date=2026-01-01&end_date=2026-03-31&presentation_currency_id=${books.usd.id}`));
    const theirs = balances(hledger(['-f', file, 'bal', '-O', 'csv', '--no-total', '--flat', '-b', '2026-01-01', '-e', '2026-04-01',
      '--value=then,USD', 'revenues', 'expenses', 'not:desc:Closing entry']));
    // hledger signs revenue as a credit (negative); our income statement shows it positive.
    for (const row of ours.revenue) expect(theirs.get(row.account_number)).toBe(`-${row.display_amount} USD`);
    for (const row of ours.expenses) expect(theirs.get(row.account_number)).toBe(`${row.display_amount} USD`);
    expect(theirs.get('4100')).toBe('-9268.59 USD');
  });
});
