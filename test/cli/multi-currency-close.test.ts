/**
 * `ledger settings set|unset retained-earnings-account --currency` and `ledger periods close` on
 * a ledger with USD and EUR revenue, as transcripts. The tests share one database; each quarter
 * holds the same USD and EUR invoices and is closed (or refused) by one test only, and each test
 * sets the EUR account as it needs, so they pass alone and in any order.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerJson, operator, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('multi-currency-close');
afterAll(() => folder.remove());

const db = join(folder.dir, 'books.db');
let books: Awaited<ReturnType<typeof seedBooks>>;
let euro: { eur: { id: string }; bank: { id: string }; retained: { id: string }; consulting: { id: string } };
const quarters: Record<string, string> = {};

beforeAll(async () => {
  books = await seedBooks(db, { withPeriod: false });
  euro = await withLedger(db, async (service) => {
    const eur = await service.createFiatCurrency(operator, 'EUR');
    const open = (account_number: string, name: string, account_type: 'asset' | 'equity' | 'revenue', normal_balance: 'debit' | 'credit') =>
      service.createAccount(operator, { account_number, name, currency_id: eur.id, account_type, normal_balance });
    const bank = await open('1050', 'Bank EUR', 'asset', 'debit');
    const retained = await open('3050', 'Retained Earnings EUR', 'equity', 'credit');
    const consulting = await open('4030', 'Consulting EUR', 'revenue', 'credit');
    for (const [name, start, end] of [['Q1', '01-01', '03-31'], ['Q2', '04-01', '06-30'], ['Q3', '07-01', '09-30']]) {
      quarters[name!] = (await service.createPeriod(operator, { name: `${name} 2026`, start_date: `2026-${start}`, end_date: `2026-${end}` })).id;
      await service.postJournalEntry(operator, entry(books.cash.id, books.sales.id, '100000', `2026-${start}`, 'USD invoice'));
      await service.postJournalEntry(operator, entry(bank.id, consulting.id, '42000', `2026-${start}`, 'EUR invoice'));
    }
    return { eur, bank, retained, consulting };
  });
});

/** Sets (or with null removes) the EUR retained earnings account through the service. */
function setEuroRetained(accountId: string | null) {
  return withLedger(db, (service) => service.updateSettings(operator, { retained_earnings_account_ids: { [euro.eur.id]: accountId } }));
}

describe('ledger periods close with USD and EUR revenue', () => {
  it('refuses while EUR has no retained earnings account: exit 1, the currency named and how to fix it', async () => {
    await setEuroRetained(null);
    const run = ledger(['periods', 'close', quarters.Q1!], { db, apiKey: books.adminKey });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error \[CURRENCY_MISMATCH\] \(retained_earnings_account_ids\): Account 4030 has EUR revenue or expense activity, and no retained earnings account is set for EUR\n/);
    expect(run.stderr).toContain('ledger settings set retained-earnings-account <id> --currency EUR');
    expect(ledgerJson(['periods', 'get', quarters.Q1!], { db }).data.status).toBe('open');
  });

  it('settings set retained-earnings-account --currency EUR names the EUR account, and settings get shows it by code', async () => {
    await setEuroRetained(null);
    expect(ledger(['settings', 'set', 'retained-earnings-account', euro.retained.id, '--currency', 'eur'], { db })).toEqual({
      status: 0, stderr: '',
      stdout: `Company name:                    -\nBase currency:                   USD\nLock date:                       none\nRetained earnings account:       ${books.equity.id}\nRetained earnings account (EUR): ${euro.retained.id}\n`,
    });
    expect(ledgerJson(['settings', 'get'], { db })).toEqual({
      data: { company_name: null, retained_earnings_account_id: books.equity.id, retained_earnings_account_ids: { [euro.eur.id]: euro.retained.id }, base_currency_id: expect.any(String), lock_date: null },
    });
  });

  it('refuses a USD account for EUR with exit 1 naming the per-currency field', () => {
    const run = ledger(['--json', 'settings', 'set', 'retained-earnings-account', books.equity.id, '--currency', 'EUR'], { db });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: `retained_earnings_account_ids.${euro.eur.id}` });
  });

  it('close --preview prints both closing entries, USD first, and changes nothing', async () => {
    await setEuroRetained(euro.retained.id);
    const run = ledger(['periods', 'close', quarters.Q1!, '--preview'], { db, apiKey: books.adminKey });
    expect(run.status).toBe(0);
    const text = run.stdout.replace(/id [0-9a-f-]{36}/g, 'id <id>').replace(/hash [0-9a-f]{64}/g, 'hash <hash>');
    expect(text).toBe([
      'Preview of closing Q1 2026 (nothing was changed):',
      '#7  2026-03-31  Closing entry for Q1 2026',
      '  id <id>  closing',
      '  hash <hash>',
      'ACCOUNT  NAME                     DEBIT       CREDIT  MEMO',
      '4000     Sales              1000.00 USD               Close to retained earnings',
      '3000     Retained Earnings               1000.00 USD  Net income for the period',
      '',
      '#8  2026-03-31  Closing entry for Q1 2026',
      '  id <id>  closing',
      '  hash <hash>',
      'ACCOUNT  NAME                        DEBIT      CREDIT  MEMO',
      '4030     Consulting EUR         420.00 EUR              Close to retained earnings',
      '3050     Retained Earnings EUR              420.00 EUR  Net income for the period',
      '',
    ].join('\n'));
    expect(ledgerJson(['periods', 'get', quarters.Q1!], { db }).data.status).toBe('open');
  });

  it('close posts one closing entry per currency; --json answers closing_entry (USD) and closing_entries (both)', async () => {
    await setEuroRetained(euro.retained.id);
    // Periods close in order: Q1 first, while Q2 and Q3 stay open.
    const closed = ledgerJson(['periods', 'close', quarters.Q1!], { db, apiKey: books.adminKey }).data;
    expect(closed.period).toMatchObject({ status: 'closed', closing_entry_id: closed.closing_entry.id });
    expect(closed.closing_entries.map((item: any) => [item.currency_id, item.lines.map((line: any) => line.account_number)])).toEqual([
      [books.usd.id, ['4000', '3000']],
      [euro.eur.id, ['4030', '3050']],
    ]);
    expect(closed.closing_entries[0]).toEqual(closed.closing_entry);
    expect(ledgerJson(['verify'], { db }).data.ok).toBe(true);
  });

  it('settings unset retained-earnings-account --currency EUR removes it', async () => {
    await setEuroRetained(euro.retained.id);
    expect(ledger(['settings', 'unset', 'retained-earnings-account', '--currency', 'EUR'], { db }))
      .toEqual({ status: 0, stderr: '', stdout: `Company name:              -\nBase currency:             USD\nLock date:                 none\nRetained earnings account: ${books.equity.id}\n` });
  });
});
