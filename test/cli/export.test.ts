/**
 * `ledger export`: the exported books, read by hledger and Beancount themselves, carry exactly the
 * ledger's balances, per account and commodity. The books have sub-accounts, USD and an
 * 18-decimal crypto currency, a reversal, a closed period and awkward names. hledger and
 * bean-check must be installed: without them these tests fail, they do not skip.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerAsync, ledgerJson, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('export');
afterAll(() => folder.remove());

const db = join(folder.dir, 'books.db');
const names: Record<string, { hledger: string; beancount: string }> = {};
let normalSide: Map<string, 'debit' | 'credit'>;
let codes: Map<string, string>;
let trialBalance: any;

/** Runs an external tool; a missing tool fails the test with what to install. */
function tool(command: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(`${command} is not installed; the export tests need it (Debian: apt-get install hledger beancount)`);
  }
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(async () => {
  const books = await seedBooks(db, { withPeriod: false });
  await withLedger(db, async (service) => {
    const admin = await service.authenticate(books.adminKey);
    const q1 = await service.createPeriod(admin, { name: 'Q1 2026', start_date: '2026-01-01', end_date: '2026-03-31' });
    await service.createPeriod(admin, { name: 'Q2 2026', start_date: '2026-04-01', end_date: '2026-06-30' });
    const eth = await service.createCurrency(admin, { code: 'ETH', name: 'Ether', symbol: 'Ξ', asset_scale: 18, asset_type: 'crypto',
      caip19_id: 'eip155:1/slip44:60' });
    const account = (account_number: string, name: string, currency_id: string, account_type: 'asset' | 'liability' | 'revenue' | 'expense') =>
      service.createAccount(admin, { account_number, name, currency_id, account_type,
        normal_balance: account_type === 'asset' || account_type === 'expense' ? 'debit' : 'credit' });
    const globex = await service.createAccount(admin, { account_number: '1200-002', name: 'Globex; "Intl"', parent_id: books.receivables.id, entity_id: 'globex' });
    const loan = await account('2000', 'Loans  payable: bank', books.usd.id, 'liability');
    const wallet = await account('1020', 'ETH wallet', eth.id, 'asset');
    const staking = await account('4100', 'Staking income', eth.id, 'revenue');
    const gas = await account('6100', 'Gas fees', eth.id, 'expense');

    await service.postJournalEntry(admin, { ...entry(books.acme.id, books.sales.id, '123456', '2026-01-15', 'Invoice "big"; net 30 | urgent'), reference: 'INV-(1)' });
    await service.postJournalEntry(admin, entry(globex.id, books.sales.id, '9999', '2026-01-20', 'Invoice Globex'));
    await service.postJournalEntry(admin, entry(books.cash.id, books.acme.id, '100000', '2026-02-01', 'Acme pays\npart'));
    await service.postJournalEntry(admin, entry(books.rent.id, books.cash.id, '40000', '2026-02-03', 'Rent'));
    await service.postJournalEntry(admin, entry(books.cash.id, loan.id, '500000', '2026-02-05', 'Bank loan'));
    const wrong = await service.postJournalEntry(admin, entry(books.rent.id, books.cash.id, '7777', '2026-02-10', 'Wrong rent'));
    await service.reverseJournalEntry(admin, wrong.id, { entry_date: '2026-02-11' });
    await service.closePeriod(admin, q1.id, false);
    await service.postJournalEntry(admin, entry(wallet.id, staking.id, '1250000000000000001', '2026-04-01', 'Staking reward'));
    await service.postJournalEntry(admin, entry(gas.id, wallet.id, '21000000000', '2026-04-02', 'Gas'));
    await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '5000', '2026-04-03', 'Cash sale'));
    const reversible = await service.postJournalEntry(admin, entry(wallet.id, staking.id, '3', '2026-04-04', 'Dust'));
    await service.reverseJournalEntry(admin, reversible.id, {});

    const set = (id: string, hledger: string, beancount: string) => { names[id] = { hledger, beancount }; };
    set(books.cash.id, 'assets:1000 Cash', 'Assets:1000-Cash');
    set(books.acme.id, 'assets:1200 Receivables:1200-001 Acme Ltd', 'Assets:1200-Receivables:1200-001-Acme-Ltd');
    set(globex.id, 'assets:1200 Receivables:1200-002 Globex- "Intl"', 'Assets:1200-Receivables:1200-002-Globex-Intl');
    set(wallet.id, 'assets:1020 ETH wallet', 'Assets:1020-ETH-wallet');
    set(loan.id, 'liabilities:2000 Loans payable- bank', 'Liabilities:2000-Loans-payable-bank');
    set(books.equity.id, 'equity:3000 Retained Earnings', 'Equity:3000-Retained-Earnings');
    set(books.sales.id, 'revenues:4000 Sales', 'Income:4000-Sales');
    set(staking.id, 'revenues:4100 Staking income', 'Income:4100-Staking-income');
    set(books.rent.id, 'expenses:6000 Rent', 'Expenses:6000-Rent');
    set(gas.id, 'expenses:6100 Gas fees', 'Expenses:6100-Gas-fees');
  });
  const accounts = ledgerJson(['accounts', 'list'], { db }).data as { id: string; normal_balance: 'debit' | 'credit' }[];
  normalSide = new Map(accounts.map((a) => [a.id, a.normal_balance]));
  codes = new Map((ledgerJson(['currencies', 'list'], { db }).data as { id: string; code: string }[]).map((c) => [c.id, c.code]));
  trialBalance = ledgerJson(['reports', 'trial-balance'], { db }).data;
});

/** The ledger's own balance of every account with a non-zero balance, debit positive, as "<amount> <code>". */
function ledgerBalances(nameOf: (id: string) => string): Record<string, string> {
  const balances: Record<string, string> = {};
  for (const row of trialBalance.rows) {
    if (row.net_balance === '0') continue;
    const display: string = row.display_net_balance;
    const debitPositive = normalSide.get(row.account_id) === 'debit' ? display : (display.startsWith('-') ? display.slice(1) : `-${display}`);
    balances[nameOf(row.account_id)] = `${debitPositive} ${codes.get(row.currency_id)}`;
  }
  return balances;
}

/** A decimal in plain or scientific notation, written exactly without exponent or trailing zeros ("2.10E-8" → "0.000000021"). */
function canonicalDecimal(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d*))?(?:E([+-]?\d+))?$/i.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = BigInt(`${whole}${fraction}`);
  let scale = fraction.length - Number(exponent);
  while (scale > 0 && digits % 10n === 0n) { digits /= 10n; scale -= 1; }
  while (scale < 0) { digits *= 10n; scale += 1; }
  const padded = digits.toString().padStart(scale + 1, '0');
  const plain = scale === 0 ? padded : `${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
  return digits === 0n ? '0' : `${sign}${plain}`;
}

describe('ledger export --format hledger', () => {
  const file = join(folder.dir, 'books.journal');

  it('writes the journal and says how many entries it holds', () => {
    const entries = ledgerJson(['journal-entries', 'list'], { db }).data.length;
    expect(entries).toBe(13);
    expect(ledger(['export', '--format', 'hledger', '--out', file], { db })).toEqual({
      status: 0, stdout: '', stderr: `Exported ${entries} entries to ${file}\n`,
    });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('commodity 1000.00 USD\n');
    expect(text).toContain('commodity 1000.000000000000000000 ETH\n');
  });

  it('hledger reads it and reports exactly the ledger\'s balance for every account, per commodity', () => {
    const run = tool('hledger', ['-f', file, 'bal', '-O', 'csv', '--no-total', '--flat']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const rows = parse(run.stdout, { columns: true }) as { account: string; balance: string }[];
    const reported = Object.fromEntries(rows.map((row) => [row.account, row.balance]));
    expect(reported).toEqual(ledgerBalances((id) => names[id]!.hledger));
    expect(reported['assets:1020 ETH wallet']).toBe('1.249999979000000001 ETH');
  });

  it('hledger\'s total of a control account is the ledger\'s balance of that account', () => {
    const run = tool('hledger', ['-f', file, 'bal', '-O', 'csv', '--no-total', '--depth', '2', 'assets:1200']);
    const receivables = ledgerJson(['accounts', 'list', '--type', 'asset'], { db }).data.find((a: { account_number: string }) => a.account_number === '1200');
    const balance = ledgerJson(['accounts', 'get', receivables.id], { db }).data.balance;
    expect(parse(run.stdout, { columns: true })).toEqual([{ account: 'assets:1200 Receivables', balance: `${balance.display_balance} USD` }]);
  });

  it('hledger sees every entry, and the codes and descriptions survive', () => {
    const register = tool('hledger', ['-f', file, 'print', '-O', 'csv']);
    const printed = parse(register.stdout, { columns: true }) as { txnidx: string; code: string; description: string }[];
    expect(new Set(printed.map((row) => row.txnidx)).size).toBe(13);
    expect(printed.find((row) => row.code !== '')).toMatchObject({ code: 'INV-1', description: 'Invoice "big", net 30 , urgent' });
  });
});

describe('ledger export --format beancount', () => {
  const file = join(folder.dir, 'books.beancount');

  it('writes a file that bean-check accepts without a message', () => {
    expect(ledger(['export', '--format', 'beancount', '--out', file], { db })).toEqual({
      status: 0, stdout: '', stderr: `Exported 13 entries to ${file}\n`,
    });
    expect(tool('bean-check', [file])).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('bean-query reports exactly the ledger\'s balance for every account', () => {
    const run = tool('bean-query', ['-f', 'csv', file, 'select account, sum(position) as balance group by account']);
    expect(run.status).toBe(0);
    const rows = parse(run.stdout, { columns: true, trim: true }) as { account: string; balance: string }[];
    // bean-query pads its columns and may print small numbers as 2.1E-8: compare the exact values.
    const exactly = (position: string) => {
      const [number, code] = position.split(/\s+/);
      return `${canonicalDecimal(number!)} ${code}`;
    };
    const reported = Object.fromEntries(rows.filter((row) => row.balance !== '').map((row) => [row.account, exactly(row.balance)]));
    const expected = Object.fromEntries(Object.entries(ledgerBalances((id) => names[id]!.beancount))
      .map(([account, balance]) => [account, exactly(balance)]));
    expect(reported).toEqual(expected);
    expect(reported['Expenses:6100-Gas-fees']).toBe('0.000000021 ETH');
  });
});

describe('ledger export --format csv', () => {
  it('prints one row per journal line to stdout, and every entry\'s amounts sum to zero', async () => {
    const [run, listed] = await Promise.all([
      ledgerAsync(['export', '--format', 'csv'], { db }),
      ledgerAsync(['--json', 'journal-entries', 'list'], { db }),
    ]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n')[0]).toBe('entry_id,entry_number,entry_date,entry_type,description,reference,line_id,account_id,account_number,'
      + 'account_name,currency,debit_amount,credit_amount,display_debit,display_credit,line_description');
    const rows = parse(run.stdout, { columns: true }) as Record<string, string>[];
    const entries = JSON.parse(listed.stdout).data as any[];
    const lines = entries.flatMap((e) => e.lines.map((line: any) => ({ e, line })));
    expect(rows).toHaveLength(lines.length);
    expect(rows.map((row) => [row.entry_id, row.line_id, row.account_number, row.currency, row.debit_amount, row.credit_amount,
      row.display_debit, row.display_credit]))
      .toEqual(lines.map(({ e, line }) => [e.id, line.id, line.account_number, codes.get(e.currency_id), line.debit_amount,
        line.credit_amount, line.display_debit, line.display_credit]));
    const net = new Map<string, bigint>();
    for (const row of rows) net.set(row.entry_id!, (net.get(row.entry_id!) ?? 0n) + BigInt(row.debit_amount!) - BigInt(row.credit_amount!));
    expect(net.size).toBe(13);
    expect([...net.values()].every((value) => value === 0n)).toBe(true);
    expect(rows.find((row) => row.reference === 'INV-(1)')?.description).toBe('Invoice "big"; net 30 | urgent');
  });

  it('--json with --out reports the file and the number of entries', () => {
    const file = join(folder.dir, 'books.csv');
    expect(ledger(['--json', 'export', '--format', 'csv', '--out', file], { db })).toEqual({
      status: 0, stderr: '', stdout: `${JSON.stringify({ data: { format: 'csv', file, entries: 13 } }, null, 2)}\n`,
    });
  });

  it('refuses an unknown format as a usage error, exit 2', () => {
    const run = ledger(['export', '--format', 'xlsx'], { db });
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe("error: option '--format <format>' argument 'xlsx' is invalid. Allowed choices are hledger, beancount, csv.");
  });
});

describe('ledger export --out', () => {
  const out = (name: string) => join(folder.dir, name);

  it('creates the file readable by its owner only', () => {
    const file = out('private.journal');
    expect(ledger(['export', '--format', 'hledger', '--out', file], { db }).status).toBe(0);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
  });

  it('refuses an existing file without --force (exit 1, the file untouched) and replaces it with --force', () => {
    const file = out('existing.csv');
    writeFileSync(file, 'keep me\n');
    const refused = ledger(['--json', 'export', '--format', 'csv', '--out', file], { db });
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: '--out', suggestion: expect.stringContaining('--force') });
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');
    expect(ledger(['export', '--format', 'csv', '--out', file, '--force'], { db }).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^entry_id,entry_number,entry_date,/);
  });

  it.each([[[]], [['--force']]])('never writes through a symbolic link (options %j)', (extra) => {
    const victim = out(`victim-${extra.length}.txt`);
    const link = out(`link-${extra.length}.csv`);
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, link);
    const run = ledger(['--json', 'export', '--format', 'csv', '--out', link, ...extra], { db });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: '--out' });
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });
});
