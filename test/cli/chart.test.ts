/**
 * `ledger currencies ...` and `ledger accounts ...` as transcripts: command line, expected output,
 * exit code. The tests of a describe block share one database and run in order, like a session.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerAsync, ledgerJson, ledgerJsonAsync, operator, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('chart');
afterAll(() => folder.remove());

const ID = '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})';

/** Runs a create command that must print one line matching `pattern` (with `ID` for the new id) and returns the id. */
function createdId(db: string, args: string[], pattern: string): string {
  const run = ledger(args, { db });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  const match = new RegExp(`^${pattern}\\n$`).exec(run.stdout);
  if (!match) throw new Error(`ledger ${args.join(' ')} printed ${JSON.stringify(run.stdout)}, expected /${pattern}/`);
  return match[1]!;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('ledger currencies', () => {
  const db = join(folder.dir, 'currencies.db');
  const ids: Record<string, string> = {};
  beforeAll(() => {
    expect(ledger(['init'], { db }).status).toBe(0);
  });

  it.each([
    ['USD', 'USD', 'US Dollar', '$', 2],
    ['JPY', 'JPY', 'Japanese Yen', '¥', 0],
    ['BHD', 'BHD', 'Bahraini Dinar', 'BHD', 3],
    ['eur', 'EUR', 'Euro', '€', 2],
  ])('create-fiat %s takes name, symbol and decimal places from ISO 4217', (given, code, name, symbol, scale) => {
    // The stored fields (type fiat, CAIP-19 swift:0/iso4217:<CODE>) are checked by the list below.
    ids[code] = createdId(db, ['currencies', 'create-fiat', given],
      escape(`Created currency ${code} ${name} (${symbol}, ${scale} decimals) (`) + ID + '\\)');
  });

  it('create-fiat refuses a code that is not ISO 4217 with exit 1 and says what to use instead', () => {
    expect(ledger(['currencies', 'create-fiat', 'XYZ'], { db })).toEqual({
      status: 1, stdout: '',
      stderr: 'error [VALIDATION_ERROR] (code): XYZ is not an ISO 4217 currency code\n'
        + 'hint: Use a three-letter code such as USD, EUR or JPY; for other assets use `currencies create`\n',
    });
  });

  it('create-fiat refuses a code that exists already with DUPLICATE on the code, exit 1', () => {
    expect(ledger(['currencies', 'create-fiat', 'usd'], { db })).toEqual({
      status: 1, stdout: '',
      stderr: 'error [DUPLICATE] (code): The currency USD (swift:0/iso4217:USD) exists already\nhint: List currencies to find its id\n',
    });
  });

  it('create makes a crypto currency with 18 decimal places', () => {
    const run = ledger(['--json', 'currencies', 'create', '--code', 'ETH', '--name', 'Ether', '--symbol', 'Ξ', '--asset-scale', '18',
      '--type', 'crypto', '--caip19', 'eip155:1/slip44:60'], { db });
    expect(run.status).toBe(0);
    const created = JSON.parse(run.stdout);
    expect(created).toEqual({
      data: {
        id: expect.any(String), code: 'ETH', name: 'Ether', symbol: 'Ξ', asset_scale: 18, asset_type: 'crypto',
        caip19_id: 'eip155:1/slip44:60', created_at: expect.any(String),
      },
    });
    ids.ETH = created.data.id;
    ids.WBTC = createdId(db, ['currencies', 'create', '--code', 'WBTC', '--name', 'Wrapped', '--symbol', 'W', '--asset-scale', '8',
      '--type', 'crypto', '--caip19', 'eip155:1/erc20:0x2260'], `Created currency WBTC \\(${ID}\\)`);
  });

  it.each([
    ['a taken caip19_id', ['--code', 'ETH2', '--caip19', 'eip155:1/slip44:60'], 1, 'DUPLICATE', 'caip19_id'],
    ['an asset scale above 38', ['--code', 'BIG', '--caip19', 'x:0/y:big', '--asset-scale', '39'], 1, 'VALIDATION_ERROR', 'asset_scale'],
  ])('create refuses %s with exit 1', (_label, options, status, code, field) => {
    const defaults = { '--name': 'N', '--symbol': 'S', '--asset-scale': '2', '--type': 'crypto' };
    const args = [...options];
    for (const [option, value] of Object.entries(defaults)) if (!args.includes(option)) args.push(option, value);
    const run = ledger(['--json', 'currencies', 'create', ...args], { db });
    expect(run.status).toBe(status);
    expect(JSON.parse(run.stderr)).toMatchObject({ code, field });
  });

  it('create with --type other than fiat or crypto is a usage error, exit 2', () => {
    const run = ledger(['currencies', 'create', '--code', 'X', '--name', 'X', '--symbol', 'X', '--asset-scale', '2', '--type', 'stock',
      '--caip19', 'x:0/y:x'], { db });
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe("error: option '--type <type>' argument 'stock' is invalid. Allowed choices are fiat, crypto.");
  });

  it('list prints an aligned table ordered by code', () => {
    expect(ledger(['currencies', 'list'], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        'ID                                    CODE  NAME            SYMBOL  SCALE  TYPE    CAIP-19',
        `${ids.BHD}  BHD   Bahraini Dinar  BHD     3      fiat    swift:0/iso4217:BHD`,
        `${ids.ETH}  ETH   Ether           Ξ       18     crypto  eip155:1/slip44:60`,
        `${ids.EUR}  EUR   Euro            €       2      fiat    swift:0/iso4217:EUR`,
        `${ids.JPY}  JPY   Japanese Yen    ¥       0      fiat    swift:0/iso4217:JPY`,
        `${ids.USD}  USD   US Dollar       $       2      fiat    swift:0/iso4217:USD`,
        `${ids.WBTC}  WBTC  Wrapped         W       8      crypto  eip155:1/erc20:0x2260`,
        '',
      ].join('\n'),
    });
  });
});

describe('ledger accounts', () => {
  const db = join(folder.dir, 'accounts.db');
  let usd: string;
  let jpy: string;
  let eth: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    await withLedger(db, async (service) => {
      usd = (await service.createFiatCurrency(operator, 'USD')).id;
      jpy = (await service.createFiatCurrency(operator, 'JPY')).id;
      eth = (await service.createCurrency(operator, { code: 'ETH', name: 'Ether', symbol: 'Ξ', asset_scale: 18, asset_type: 'crypto',
        caip19_id: 'eip155:1/slip44:60' })).id;
    });
  });

  it('create makes a top-level account', async () => {
    const created = await Promise.all([
      ['1000', 'Cash', usd, 'asset', 'debit'], ['4000', 'Sales', usd, 'revenue', 'credit', '--xbrl', 'us-gaap:Revenues'],
      ['1010', 'Petty cash JPY', jpy, 'asset', 'debit'], ['1020', 'ETH wallet', eth, 'asset', 'debit'],
      ['4100', 'Staking income', eth, 'revenue', 'credit'],
    ].map(([number, name, currency, type, side, ...extra]) => ledgerAsync(['accounts', 'create', '--number', number!, '--name', name!,
      '--currency', currency!, '--type', type!, '--normal-balance', side!, ...extra], { db }).then((run) => {
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      const id = new RegExp(`^Created account ${escape(`${number} ${name}`)} \\(${ID}\\)\\n$`).exec(run.stdout)?.[1];
      if (id === undefined) throw new Error(`unexpected output ${JSON.stringify(run.stdout)}`);
      return id;
    })));
    Object.assign(ids, { cash: created[0], sales: created[1], yen: created[2], wallet: created[3], ethIncome: created[4] });
  });

  it('create --subledger makes a control account', () => {
    const body = ledgerJson(['accounts', 'create', '--number', '1200', '--name', 'Receivables', '--currency', usd, '--type', 'asset',
      '--normal-balance', 'debit', '--subledger'], { db });
    expect(body.data).toMatchObject({ account_number: '1200', has_subledger: true, parent_id: null, entity_id: null });
    ids.receivables = body.data.id;
  });

  it('create with --parent and --entity makes a sub-account that inherits currency, type and normal balance', () => {
    const body = ledgerJson(['accounts', 'create', '--number', '1200-001', '--name', 'Acme Ltd', '--parent', ids.receivables!,
      '--entity', 'acme'], { db });
    expect(body).toEqual({
      data: {
        id: expect.any(String), account_number: '1200-001', name: 'Acme Ltd', currency_id: usd, account_type: 'asset',
        normal_balance: 'debit', has_subledger: false, parent_id: ids.receivables, entity_id: 'acme', xbrl_tag: null, is_active: true,
        created_at: expect.any(String),
      },
    });
    ids.acme = body.data.id;
    ids.globex = createdId(db, ['accounts', 'create', '--number', '1200-002', '--name', 'Globex', '--parent', ids.receivables!,
      '--entity', 'globex'], `Created account 1200-002 Globex \\(${ID}\\)`);
  });

  it.concurrent.each([
    ['a sub-account without --entity', () => ['--number', '1200-003', '--name', 'X', '--parent', ids.receivables!], 'VALIDATION_ERROR', 'entity_id'],
    ['a sub-account whose --type differs from its parent', () => ['--number', '1200-004', '--name', 'X', '--parent', ids.receivables!,
      '--entity', 'x', '--type', 'liability'], 'VALIDATION_ERROR', 'account_type'],
    ['a sub-account of an account that is not a control account', () => ['--number', '1000-001', '--name', 'X', '--parent', ids.cash!,
      '--entity', 'x'], 'VALIDATION_ERROR', 'parent_id'],
    ['an unknown currency', () => ['--number', '1300', '--name', 'X', '--currency', 'no-such-currency', '--type', 'asset',
      '--normal-balance', 'debit'], 'VALIDATION_ERROR', 'currency_id'],
    ['a taken account number', () => ['--number', '1000', '--name', 'Again', '--currency', usd, '--type', 'asset',
      '--normal-balance', 'debit'], 'DUPLICATE', 'account_number'],
  ])('create refuses %s with exit 1', async (_label, options, code, field) => {
    const run = await ledgerAsync(['--json', 'accounts', 'create', ...options()], { db });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toMatchObject({ code, field });
  });

  it('list prints every account as an aligned table ordered by number, control accounts marked', () => {
    expect(ledger(['accounts', 'list'], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        'ID                                    NUMBER    NAME                   TYPE     NORMAL  CURRENCY  PARENT  ACTIVE',
        `${ids.cash}  1000      Cash                   asset    debit   USD               yes`,
        `${ids.yen}  1010      Petty cash JPY         asset    debit   JPY               yes`,
        `${ids.wallet}  1020      ETH wallet             asset    debit   ETH               yes`,
        `${ids.receivables}  1200      Receivables (control)  asset    debit   USD               yes`,
        `${ids.acme}  1200-001  Acme Ltd               asset    debit   USD       1200    yes`,
        `${ids.globex}  1200-002  Globex                 asset    debit   USD       1200    yes`,
        `${ids.sales}  4000      Sales                  revenue  credit  USD               yes`,
        `${ids.ethIncome}  4100      Staking income         revenue  credit  ETH               yes`,
        '',
      ].join('\n'),
    });
  });

  it('list --type, --currency and --parent filter the rows', async () => {
    const numbers = async (args: string[]) => (await ledgerJsonAsync(['accounts', 'list', ...args], { db })).data
      .map((a: { account_number: string }) => a.account_number);
    expect(await Promise.all([numbers(['--type', 'revenue']), numbers(['--type', 'liability']), numbers(['--currency', eth]),
      numbers(['--parent', ids.receivables!])])).toEqual([['4000', '4100'], [], ['1020', '4100'], ['1200-001', '1200-002']]);
    expect(ledger(['accounts', 'list', '--type', 'revenue'], { db }).stdout).toBe([
      'ID                                    NUMBER  NAME            TYPE     NORMAL  CURRENCY  PARENT  ACTIVE',
      `${ids.sales}  4000    Sales           revenue  credit  USD               yes`,
      `${ids.ethIncome}  4100    Staking income  revenue  credit  ETH               yes`,
      '',
    ].join('\n'));
    // A sub-account listed without its control account still names it by number.
    expect(ledger(['accounts', 'list', '--parent', '1200'], { db }).stdout).toBe([
      'ID                                    NUMBER    NAME      TYPE   NORMAL  CURRENCY  PARENT  ACTIVE',
      `${ids.acme}  1200-001  Acme Ltd  asset  debit   USD       1200    yes`,
      `${ids.globex}  1200-002  Globex    asset  debit   USD       1200    yes`,
      '',
    ].join('\n'));
  });

  it('get shows the account with its balance, amounts formatted by the currency\'s scale', async () => {
    await withLedger(db, async (service) => {
      const admin = await service.authenticate((await service.createServiceAccount(null, { name: 'poster' })).api_key);
      await service.createPeriod(admin, { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' });
      await service.postJournalEntry(admin, entry(ids.acme!, ids.sales!, '123456'));
      await service.postJournalEntry(admin, entry(ids.globex!, ids.sales!, '44'));
      await service.postJournalEntry(admin, entry(ids.cash!, ids.acme!, '100000'));
      await service.postJournalEntry(admin, entry(ids.wallet!, ids.ethIncome!, '1500000000000000001'));
      await service.createAccount(admin, { account_number: '4010', name: 'Yen sales', currency_id: jpy, account_type: 'revenue', normal_balance: 'credit' })
        .then((yenSales) => service.postJournalEntry(admin, entry(ids.yen!, yenSales.id, '1500')));
    });
    const lines = (fields: [string, string][]) => fields.map(([label, value]) => `${`${label}:`.padEnd(17)}${value}\n`).join('');
    expect(ledger(['accounts', 'get', ids.receivables!], { db })).toEqual({
      status: 0, stderr: '',
      stdout: lines([['ID', ids.receivables!], ['Number', '1200'], ['Name', 'Receivables'], ['Type', 'asset'], ['Normal balance', 'debit'],
        ['Currency', 'USD'], ['Control account', 'yes'], ['Parent', '-'], ['Entity', '-'], ['XBRL tag', '-'], ['Active', 'yes'],
        ['Debits', '1235.00 USD'], ['Credits', '1000.00 USD'], ['Balance', '235.00 USD']]),
    });
    expect(ledger(['accounts', 'get', ids.sales!], { db }).stdout).toBe(lines([['ID', ids.sales!], ['Number', '4000'], ['Name', 'Sales'],
      ['Type', 'revenue'], ['Normal balance', 'credit'], ['Currency', 'USD'], ['Control account', 'no'], ['Parent', '-'], ['Entity', '-'],
      ['XBRL tag', 'us-gaap:Revenues'], ['Active', 'yes'], ['Debits', '0.00 USD'], ['Credits', '1235.00 USD'], ['Balance', '1235.00 USD']]));
    const balances = (id: string) => ledger(['accounts', 'get', id], { db }).stdout.split('\n').slice(-4, -1);
    expect(balances(ids.acme!)).toEqual(['Debits:          1234.56 USD', 'Credits:         1000.00 USD', 'Balance:         234.56 USD']);
    expect(balances(ids.yen!)).toEqual(['Debits:          1500 JPY', 'Credits:         0 JPY', 'Balance:         1500 JPY']);
    expect(balances(ids.wallet!)).toEqual(['Debits:          1.500000000000000001 ETH', 'Credits:         0.000000000000000000 ETH',
      'Balance:         1.500000000000000001 ETH']);
    // A sub-account names its control account by number and name.
    expect(ledger(['accounts', 'get', ids.acme!], { db }).stdout).toContain(lines([['Parent', '1200 Receivables']]));
  });

  it('get --json adds a balance object to the account', () => {
    expect(ledgerJson(['accounts', 'get', ids.ethIncome!], { db }).data.balance).toEqual({
      account_id: ids.ethIncome, period_id: null, total_debits: '0', total_credits: '1500000000000000001',
      net_balance: '1500000000000000001', display_debits: '0.000000000000000000', display_credits: '1.500000000000000001',
      display_balance: '1.500000000000000001',
    });
  });

  it('get of an unknown id exits 4', () => {
    expect(ledger(['accounts', 'get', 'nope'], { db })).toEqual({
      status: 4, stdout: '', stderr: 'error [NOT_FOUND]: Account nope does not exist\nhint: List accounts to find a valid id\n',
    });
  });
});
