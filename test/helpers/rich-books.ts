/**
 * Rich books for the tests that move a whole ledger (`ledger copy`, test/cli/copy.test.ts; the
 * benchmark's row-for-row copy into PostgreSQL, test/bench/pg-copy.test.ts), and every view of them
 * the CLI prints, to compare a copy with its source.
 */
import { expect } from 'vitest';
import type { CreateEntryInput } from '../../src/schemas/journal-entry.js';
import { entry, inParallel, ledgerAsync, ledgerJsonAsync, operator, seedBooks, withLedger } from './cli.js';

/**
 * The books to copy: USD (the retained earnings currency), EUR and ETH; a control account whose
 * sub-account is numbered before it (so account-number order is not parents-first); Q1 closed
 * with a reversal in it, Q2 with another reversal and activity in two currencies, Q3 open; an
 * inactive account; a human admin, an inactive restricted human, and two service accounts.
 */
export async function seedRichBooks(db: string) {
  const books = await seedBooks(db, { withPeriod: false });
  return withLedger(db, async (service) => {
    const admin = await service.authenticate(books.adminKey);
    const eur = await service.createFiatCurrency(operator, 'EUR');
    const eth = await service.createCurrency(operator, {
      code: 'ETH', name: 'Ether', symbol: 'ETH', asset_scale: 18, asset_type: 'crypto', caip19_id: 'eip155:1/slip44:60',
    });
    const account = (account_number: string, name: string, currency_id: string, account_type: 'asset' | 'liability' | 'equity' | 'revenue' | 'expense',
      extra: Record<string, unknown> = {}) => service.createAccount(operator, {
      account_number, name, currency_id, account_type,
      normal_balance: account_type === 'asset' || account_type === 'expense' ? 'debit' : 'credit', ...extra,
    });
    const bankEur = await account('1100', 'Bank EUR', eur.id, 'asset', { xbrl_tag: 'ifrs-full:CashAndCashEquivalents' });
    const capitalEur = await account('3100', 'Capital EUR', eur.id, 'equity');
    const salesEur = await account('4100', 'Sales EUR', eur.id, 'revenue');
    const wallet = await account('1020', 'ETH wallet', eth.id, 'asset');
    const capitalEth = await account('3200', 'Capital ETH', eth.id, 'equity');
    const payables = await account('2500', 'Payables', books.usd.id, 'liability', { has_subledger: true });
    const supplier = await service.createAccount(operator, { account_number: '0500', name: 'Supplier Z', parent_id: payables.id, entity_id: 'supplier-z' });
    const unused = await account('6100', 'Old expense', books.usd.id, 'expense');
    await service.updateAccount(operator, unused.id, { is_active: false });

    const q1 = await service.createPeriod(operator, { name: 'Q1 2026', start_date: '2026-01-01', end_date: '2026-03-31' });
    const q2 = await service.createPeriod(operator, { name: 'Q2 2026', start_date: '2026-04-01', end_date: '2026-06-30' });
    const q3 = await service.createPeriod(operator, { name: 'Q3 2026', start_date: '2026-07-01', end_date: '2026-09-30' });

    const post = (input: CreateEntryInput) => service.postJournalEntry(admin, input);
    await post({ ...entry(books.acme.id, books.sales.id, '100000', '2026-01-15', 'Invoice 1'), reference: 'INV-1', metadata: { customer: 'acme', lines: 1 } });
    await post(entry(books.rent.id, supplier.id, '40000', '2026-02-01', 'Rent invoice'));
    await post(entry(supplier.id, books.cash.id, '40000', '2026-02-05', 'Rent paid'));
    await post(entry(books.cash.id, books.acme.id, '60000', '2026-03-10', 'Acme pays'));
    await post(entry(bankEur.id, capitalEur.id, '500000', '2026-01-02', 'EUR capital'));
    await post(entry(wallet.id, capitalEth.id, '1500000000000000000', '2026-01-03', 'ETH contributed'));
    const mistake = await post(entry(books.rent.id, books.cash.id, '9900', '2026-03-20', 'Rent twice by mistake'));
    await service.reverseJournalEntry(admin, mistake.id, {});
    await service.closePeriod(admin, q1.id, false);

    await post(entry(books.cash.id, books.sales.id, '25000', '2026-04-05', 'Cash sale'));
    await post(entry(bankEur.id, salesEur.id, '12345', '2026-04-06', 'EUR sale'));
    const wrongSale = await post(entry(books.acme.id, books.sales.id, '7000', '2026-05-01', 'Invoice 2 (wrong amount)'));
    await service.reverseJournalEntry(admin, wrongSale.id, { entry_date: '2026-05-03' });
    await post(entry(books.acme.id, books.sales.id, '7500', '2026-05-03', 'Invoice 2'));
    await post(entry(books.rent.id, books.cash.id, '40000', '2026-07-01', 'Rent Q3'));

    const ada = await service.createUser(null, { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' });
    const bob = await service.createUser(null, {
      name: 'Bob', email: 'bob@example.com', password: 'bob password 123', permissions: { 'journals:create': true },
    });
    await service.updateUser(null, bob.id, { is_active: false });
    const poster = await service.createServiceAccount(null, { name: 'poster', permissions: { 'journals:create': true } });
    const banking = await seedBanking(service, admin, books);
    // Exchange rates into the base currency (USD, the retained earnings account's), one of them replaced.
    await service.setExchangeRates(admin, [
      { currency_id: eur.id, rate_date: '2026-01-02', rate: '1.0842' }, { currency_id: eur.id, rate_date: '2026-04-06', rate: '1.1' },
      { currency_id: eth.id, rate_date: '2026-01-03', rate: '3312.123456789012' },
    ]);
    await service.setExchangeRate(admin, { currency_id: eur.id, rate_date: '2026-04-06', rate: '1.0991' });
    return {
      banking,
      ...books, eur, eth, bankEur, capitalEur, salesEur, wallet, capitalEth, payables, supplier, unused, q1, q2, q3,
      ada, adaPassword: 'correct horse battery', bob, posterKey: poster.api_key,
    };
  });
}

/**
 * The bank's side: a statement of Cash in July with four lines (one posted by a rule, one matched
 * to an entry, one excluded, one left unmatched), a rule, a finished reconciliation of July and an
 * open one of August with a marked line.
 */
async function seedBanking(service: Parameters<Parameters<typeof withLedger>[1]>[0], admin: Awaited<ReturnType<typeof service.authenticate>>,
  books: Awaited<ReturnType<typeof seedBooks>>) {
  const sale = await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '12000', '2026-07-05', 'Cash sale'));
  const statement = await service.importBankStatement(admin, { account_id: books.cash.id, format: 'csv', content: [
    'Date,Description,Amount', '2026-07-05,Deposit,120.00', '2026-07-07,Bank fee,-4.50', '2026-07-08,Private,-10.00', '2026-07-09,Unknown,-1.00',
  ].join('\n'), csv: { date_column: 'Date', date_format: 'YYYY-MM-DD', description_column: 'Description', amount_column: 'Amount' } });
  await service.createBankRule(admin, { name: 'Fees', priority: 5, match: { description_contains: 'fee' }, counter_account_id: books.rent.id });
  const lines = (await service.listBankLines({ statement_id: statement.id })).data;
  await service.matchBankLine(admin, lines[0]!.id, { journal_entry_ids: [sale.id] });
  await service.postBankLine(admin, lines[1]!.id, {});
  await service.excludeBankLine(admin, lines[2]!.id, { reason: 'Paid from the wrong account' });
  const march = await service.startReconciliation(admin, { account_id: books.cash.id, statement_date: '2026-07-08', statement_balance: '11550' });
  await service.finishReconciliation(admin, march.id);
  const april = await service.startReconciliation(admin, { account_id: books.cash.id, statement_date: '2026-08-31', statement_balance: '0' });
  const outstanding = april.outstanding[0];
  if (outstanding !== undefined) await service.clearReconciliationLines(admin, april.id, { journal_line_ids: [outstanding.journal_line_id] });
  return { statement: statement.id, march: march.id, april: april.id };
}

export type Books = Awaited<ReturnType<typeof seedRichBooks>>;

/**
 * What the CLI prints under --json for every list, every account's balance, every period, every
 * report (all time and per period, in each currency), general ledgers (posting, control and
 * sub-accounts), users and settings; and the hledger export as text.
 */
export async function everyView(db: string, books: Books): Promise<Record<string, unknown>> {
  const currencies = [books.usd.id, books.eur.id, books.eth.id];
  const periods = [books.q1.id, books.q2.id, books.q3.id];
  const accounts = [books.cash, books.receivables, books.acme, books.equity, books.sales, books.rent, books.bankEur,
    books.capitalEur, books.salesEur, books.wallet, books.capitalEth, books.payables, books.supplier, books.unused];
  const commands: string[][] = [
    ['currencies', 'list'], ['accounts', 'list'], ['periods', 'list'], ['journal-entries', 'list'],
    ['users', 'list'], ['settings', 'get'], ['audit-log'], ['rates', 'list'],
    ...accounts.map((account) => ['accounts', 'get', account.id]),
    ...periods.map((period) => ['periods', 'get', period]),
    ...periods.map((period) => ['journal-entries', 'list', '--period', period]),
    ...[books.ada.id, books.bob.id, books.adminId].map((id) => ['users', 'get', id]),
    ...currencies.flatMap((currency) => [
      ['reports', 'trial-balance', '--currency', currency],
      ['reports', 'balance-sheet', '--currency', currency],
      ['reports', 'income-statement', '--currency', currency],
      ...periods.map((period) => ['reports', 'trial-balance', '--period', period, '--currency', currency]),
    ]),
    ...periods.flatMap((period) => [
      ['reports', 'income-statement', '--period', period],
      ['reports', 'balance-sheet', '--period', period],
    ]),
    ['reports', 'balance-sheet', '--as-of', '2026-02-15'],
    ...[books.cash, books.receivables, books.acme, books.sales, books.payables, books.supplier, books.bankEur, books.wallet]
      .map((account) => ['reports', 'general-ledger', '--account', account.id]),
    ['reports', 'general-ledger', '--account', books.receivables.id, '--period', books.q2.id, '--sort', 'desc'],
  ];
  const outputs = await inParallel(commands.map((args) => () => ledgerJsonAsync(args, { db })));
  const views: Record<string, unknown> = Object.fromEntries(commands.map((args, index) => [args.join(' '), outputs[index]]));
  const exported = await ledgerAsync(['export', '--format', 'hledger'], { db });
  views.export = exported;
  views.banking = await withLedger(db, async (service) => ({
    statements: await service.listBankStatements({ limit: 200 }),
    lines: await service.listBankLines({ limit: 200 }),
    rules: await service.listBankRules({ limit: 200 }),
    reconciliations: await service.listReconciliations({ limit: 200 }),
    march: await service.getReconciliation(books.banking.march),
    april: await service.getReconciliation(books.banking.april),
  }));
  return views;
}

/** Every view printed on one database equals the source's, command by command (a failure names the command). */
export function expectSameViews(actual: Record<string, unknown>, expected: Record<string, unknown>): void {
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  for (const [command, view] of Object.entries(expected)) {
    expect({ command, view: actual[command] }).toEqual({ command, view });
  }
}
