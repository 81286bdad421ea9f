/**
 * Books for the `verify` tests, written through the real HTTP API: two currencies, three monthly
 * periods (January and February closed, March open), a control account with two sub-accounts,
 * two-line and three-line entries, and reversals (one inside its period, one in the next period
 * after the original's period closed). And the ways of damaging them behind the service's back,
 * with SQL straight to the database (test/helpers/raw-sql.ts), on either backend.
 */
import { parseDatabaseLocation } from '../../src/app/database-location.js';
import { rawQuery } from './raw-sql.js';

/** One HTTP call under /api/v1 as an admin: `path` starts after the prefix (`/journal-entries`). */
export type AdminCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export interface PostedEntry {
  id: string;
  hash: string;
  lines: { id: string; account_id: string; debit_amount: string; credit_amount: string }[];
}

async function expectData(call: AdminCall, method: string, path: string, body: unknown, status: number): Promise<any> {
  const response = await call(method, path, body);
  if (response.status !== status) {
    throw new Error(`${method} ${path}: expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body.data;
}

export async function buildVerifyBooks(call: AdminCall) {
  const post = (path: string, body: unknown, status = 201) => expectData(call, 'POST', path, body, status);
  const currency = (code: string) => post('/currencies', {
    code, name: code, symbol: code, asset_scale: 2, asset_type: 'fiat', caip19_id: `swift:0/iso4217:${code}`,
  });
  const usd = await currency('USD');
  const eur = await currency('EUR');
  const period = (name: string, start_date: string, end_date: string) => post('/periods', { name, start_date, end_date });
  const january = await period('January 2026', '2026-01-01', '2026-01-31');
  const february = await period('February 2026', '2026-02-01', '2026-02-28');
  const march = await period('March 2026', '2026-03-01', '2026-03-31');
  const account = async (account_number: string, name: string, currency_id: string, account_type: string, extra: object = {}) =>
    (await post('/accounts', {
      account_number, name, currency_id, account_type,
      normal_balance: account_type === 'asset' || account_type === 'expense' ? 'debit' : 'credit', ...extra,
    })).id as string;
  const cash = await account('1000', 'Cash', usd.id, 'asset');
  const receivables = await account('1200', 'Receivables', usd.id, 'asset', { has_subledger: true });
  const sub = async (account_number: string, name: string, entity_id: string) =>
    (await post('/accounts', { account_number, name, parent_id: receivables, entity_id })).id as string;
  const acme = await sub('1200-01', 'Acme Ltd', 'acme');
  const globex = await sub('1200-02', 'Globex', 'globex');
  const retained = await account('3000', 'Retained Earnings', usd.id, 'equity');
  const sales = await account('4000', 'Sales', usd.id, 'revenue');
  const rent = await account('6000', 'Rent', usd.id, 'expense');
  const eurBank = await account('1100', 'Bank (EUR)', eur.id, 'asset');
  const eurLoan = await account('2100', 'Loan (EUR)', eur.id, 'liability');
  await expectData(call, 'PATCH', '/settings', { retained_earnings_account_id: retained }, 200);

  const entry = (entry_date: string, description: string, lines: [string, 'debit' | 'credit', string][]): Promise<PostedEntry> =>
    post('/journal-entries', {
      entry_date, description,
      lines: lines.map(([account_id, side, amount]) => ({ account_id, [`${side}_amount`]: amount })),
    });
  const reverse = (id: string, entry_date?: string): Promise<PostedEntry> =>
    post(`/journal-entries/${id}/reverse`, entry_date === undefined ? {} : { entry_date });
  const close = async (periodId: string) => (await post(`/periods/${periodId}/close`, undefined, 200)).closing_entry as PostedEntry;

  const sale = await entry('2026-01-05', 'Invoice 1 to Acme', [[acme, 'debit', '50000'], [sales, 'credit', '50000']]);
  const januaryRent = await entry('2026-01-10', 'January rent', [[rent, 'debit', '12000'], [cash, 'credit', '12000']]);
  const payment = await entry('2026-01-20', 'Acme pays', [[cash, 'debit', '30000'], [acme, 'credit', '30000']]);
  const eurLoanTaken = await entry('2026-01-15', 'Loan in euros', [[eurBank, 'debit', '100000'], [eurLoan, 'credit', '100000']]);
  const mistake = await entry('2026-01-25', 'Invoice 2 to Globex (wrong)', [[globex, 'debit', '7000'], [sales, 'credit', '7000']]);
  const mistakeReversal = await reverse(mistake.id, '2026-01-28');
  const januaryClose = await close(january.id);

  const cashSale = await entry('2026-02-03', 'Cash sale, part paid by Globex', [
    [cash, 'debit', '20000'], [sales, 'credit', '15000'], [globex, 'credit', '5000'],
  ]);
  const februaryRent = await entry('2026-02-14', 'February rent', [[rent, 'debit', '12000'], [cash, 'credit', '12000']]);
  const lateInvoice = await entry('2026-02-20', 'Invoice 3 to Acme', [[acme, 'debit', '9900'], [sales, 'credit', '9900']]);
  const eurRepayment = await entry('2026-02-10', 'Loan repayment', [[eurLoan, 'debit', '25000'], [eurBank, 'credit', '25000']]);
  const februaryClose = await close(february.id);
  // Reversed in March, after February closed: the reversal is March's entry.
  const lateInvoiceReversal = await reverse(lateInvoice.id, '2026-03-02');

  const marchSale = await entry('2026-03-05', 'March sale', [[cash, 'debit', '4000'], [sales, 'credit', '4000']]);
  const marchRent = await entry('2026-03-06', 'March rent, part', [[rent, 'debit', '1500'], [cash, 'credit', '1500']]);
  const eurInterest = await entry('2026-03-09', 'Interest received', [[eurBank, 'debit', '300'], [eurLoan, 'credit', '300']]);

  return {
    currencies: { usd: usd.id as string, eur: eur.id as string },
    periods: { january: january.id as string, february: february.id as string, march: march.id as string },
    accounts: { cash, receivables, acme, globex, retained, sales, rent, eurBank, eurLoan },
    entries: {
      sale, januaryRent, payment, eurLoanTaken, mistake, mistakeReversal, januaryClose, cashSale, februaryRent, lateInvoice,
      eurRepayment, februaryClose, lateInvoiceReversal, marchSale, marchRent, eurInterest,
    },
    entryCount: 16,
    lineCount: 16 * 2 + 1 + (januaryClose.lines.length - 2) + (februaryClose.lines.length - 2),
  };
}

export type VerifyBooks = Awaited<ReturnType<typeof buildVerifyBooks>>;

/**
 * Lets raw SQL change posted history: drops (SQLite) or disables (PostgreSQL) the triggers that
 * refuse UPDATE and DELETE on journal entries and their lines.
 */
export async function allowHistoryEdits(location: string): Promise<void> {
  if (parseDatabaseLocation(location).kind === 'postgres') {
    for (const table of ['journal_entries', 'journal_lines']) {
      await rawQuery(location, `ALTER TABLE ${table} DISABLE TRIGGER ${table}_immutable`);
    }
    return;
  }
  for (const trigger of ['journal_entries_no_update', 'journal_entries_no_delete', 'journal_lines_no_update', 'journal_lines_no_delete']) {
    await rawQuery(location, `DROP TRIGGER IF EXISTS ${trigger}`);
  }
}

/** Ways of damaging the books behind the service's back; each returns what `verify` must name. */
export const TAMPERING = {
  async changeLineAmount(location: string, lineId: string, amount: string): Promise<void> {
    await allowHistoryEdits(location);
    await rawQuery(location, `UPDATE journal_lines SET debit_amount = CASE WHEN debit_amount = '0' THEN debit_amount ELSE $1 END,
      credit_amount = CASE WHEN credit_amount = '0' THEN credit_amount ELSE $1 END WHERE id = $2`, [amount, lineId]);
  },
  async deleteLine(location: string, lineId: string): Promise<void> {
    await allowHistoryEdits(location);
    await rawQuery(location, 'DELETE FROM journal_lines WHERE id = $1', [lineId]);
  },
  async setEntryColumn(location: string, entryId: string,
    column: 'description' | 'entry_date' | 'posted_at' | 'entry_number' | 'created_by' | 'credential_id' | 'request_id' | 'hash_version'
      | 'event_seq',
    value: string): Promise<void> {
    await allowHistoryEdits(location);
    await rawQuery(location, `UPDATE journal_entries SET ${column} = $1 WHERE id = $2`, [value, entryId]);
  },
  /** Removes an entry with its lines and its search data, as if it had never been posted (its totals stay). */
  async deleteEntry(location: string, entryId: string): Promise<void> {
    await allowHistoryEdits(location);
    // PostgreSQL's words refer to the entry too (SQLite's word index is contentless and keeps no reference).
    const tables = parseDatabaseLocation(location).kind === 'postgres' ? ['journal_lines', 'entry_search'] : ['journal_lines'];
    for (const table of tables) {
      await rawQuery(location, `DELETE FROM ${table} WHERE entry_seq = (SELECT seq FROM journal_entries WHERE id = $1)`, [entryId]);
    }
    await rawQuery(location, 'DELETE FROM journal_entries WHERE id = $1', [entryId]);
  },
  /** Rewrites what an audit record says (after dropping the triggers that refuse it). */
  async editAuditRecord(location: string, recordId: string, action: string): Promise<void> {
    if (parseDatabaseLocation(location).kind === 'postgres') {
      await rawQuery(location, 'ALTER TABLE audit_log DISABLE TRIGGER audit_log_immutable');
    } else {
      await rawQuery(location, 'DROP TRIGGER IF EXISTS audit_log_no_update');
    }
    await rawQuery(location, 'UPDATE audit_log SET action = $1 WHERE id = $2', [action, recordId]);
  },
  async setChainHead(location: string, currencyId: string, hash: string): Promise<void> {
    await rawQuery(location, 'UPDATE currency_totals SET chain_hash = $1 WHERE currency_id = $2', [hash, currencyId]);
  },
  /** Adds `delta` to a maintained debit total: `table` with its key columns and values. */
  async bumpTotal(location: string, table: string, key: Record<string, string>, delta: bigint): Promise<void> {
    const where = Object.keys(key).map((column, index) => `${column} = $${index + 1}`).join(' AND ');
    const [row] = await rawQuery<{ debit_total: string }>(location,
      `SELECT CAST(debit_total AS TEXT) AS debit_total FROM ${table} WHERE ${where}`, Object.values(key));
    if (row === undefined) throw new Error(`no row in ${table} for ${JSON.stringify(key)}`);
    const values = Object.values(key);
    await rawQuery(location, `UPDATE ${table} SET debit_total = $${values.length + 1} WHERE ${where}`,
      [...values, (BigInt(row.debit_total) + delta).toString()]);
  },
};
