/**
 * The permission matrix: every write route under /api/v1 against its permission key from the
 * contract, for both kinds of credential, and every read route for a user without permissions.
 * The route tables are checked against the OpenAPI document, so a new route without a row fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, type ApiResponse, createAccount, dataOf, entryBody, expectError, postEntry, seedBooks, startApi, walkPages,
} from '../helpers/api-fixture.js';
import { bankBooks, bankLinesOf, importCsv, SEMICOLON_MAPPING, semicolonCsv } from '../helpers/bank-books.js';
import { API, guarded, loggedInHuman, newServiceAccount, uniqueEmail, uniqueName } from '../helpers/auth-helpers.js';

const PERMISSION_KEYS = [
  'admin', 'currencies:write', 'accounts:write', 'periods:write', 'periods:close', 'journals:create', 'journals:reverse',
  'settings:write', 'users:manage', 'bank:write', 'periods:override', 'rates:write', 'events:read', 'webhooks:manage',
] as const;
type PermissionKey = (typeof PERMISSION_KEYS)[number];

interface World {
  api: ApiFixture;
  books: Awaited<ReturnType<typeof seedBooks>>;
}

interface PreparedRequest {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body: unknown;
}

interface WriteRoute {
  /** As in the OpenAPI document: method and path template. */
  route: string;
  permission: Exclude<PermissionKey, 'admin'>;
  /** Keys the route needs besides its own (posting from a bank line posts an entry too). */
  alsoNeeds?: Exclude<PermissionKey, 'admin'>[];
  status: 200 | 201;
  /** A fresh request that the holder of the permission can make successfully. */
  prepare: (world: World) => Promise<PreparedRequest>;
}

let serial = 0;
const next = () => { serial += 1; return serial; };

async function freshCurrency(world: World) {
  const n = next();
  return dataOf(await world.api.request('POST', `${API}/currencies`, {
    code: `P${n}`, name: `Perm ${n}`, symbol: '¤', asset_scale: 2, asset_type: 'fiat', caip19_id: `test:0/perm:${n}`,
  }), 201);
}

/** A one-year period far from the seeded FY2026 so that no two overlap. */
async function freshPeriod(world: World) {
  const year = 2100 + next();
  return dataOf(await world.api.request('POST', `${API}/periods`, {
    name: `FY${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31`,
  }), 201);
}

/**
 * A one-year period earlier than every other, so closing it is never refused for an earlier open
 * period (periods close in order).
 */
async function freshEarliestPeriod(world: World) {
  const year = 1999 - next();
  return dataOf(await world.api.request('POST', `${API}/periods`, {
    name: `FY${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31`,
  }), 201);
}

/** Bank books of their own, with an imported statement of two lines (fees out, a payment in). */
async function freshBankLines(world: World) {
  const books = await bankBooks(world.api);
  dataOf(await importCsv(world.api, books.bank.id, semicolonCsv([
    ['02.03.2026', 'Entgelt Kontoführung', '-9,90', '990,10'],
    ['03.03.2026', 'Gutschrift ACME', '150,00', '1.140,10'],
  ])), 201);
  return { books, lines: await bankLinesOf(world.api, `account_id=${books.bank.id}`) };
}

/** A reconciliation of fresh bank books, with one journal line on the bank account to clear. */
async function freshReconciliation(world: World) {
  const books = await bankBooks(world.api);
  const entry = dataOf(await world.api.request('POST', `${API}/journal-entries`, {
    entry_date: '2026-03-01', description: 'Opening', lines: [
      { account_id: books.bank.id, debit_amount: '1000', credit_amount: '0' },
      { account_id: books.equity.id, debit_amount: '0', credit_amount: '1000' },
    ],
  }), 201);
  const reconciliation = dataOf(await world.api.request('POST', `${API}/reconciliations`, {
    account_id: books.bank.id, statement_date: '2026-03-31', statement_balance: '1000',
  }), 201);
  const lineId = entry.lines.find((line: { account_id: string }) => line.account_id === books.bank.id).id as string;
  return { books, reconciliation, lineId };
}

/** A webhook endpoint on a public address given as a literal (no name to look up). */
async function freshWebhook(world: World) {
  return dataOf(await world.api.request('POST', `${API}/webhook-endpoints`, {
    url: `https://93.184.215.14/hooks/${next()}`, event_types: ['entry.posted'],
  }), 201);
}

async function freshRule(world: World) {
  const books = await bankBooks(world.api);
  return dataOf(await world.api.request('POST', `${API}/bank-rules`, {
    name: 'Fees', account_id: books.bank.id, counter_account_id: books.fees.id, match: { description_contains: 'entgelt' },
  }), 201);
}

const WRITE_ROUTES: WriteRoute[] = [
  {
    route: 'POST /api/v1/webhook-endpoints', permission: 'webhooks:manage', status: 201,
    prepare: async () => ({ method: 'POST', path: `${API}/webhook-endpoints`, body: { url: `https://93.184.215.14/new/${next()}`, event_types: ['*'] } }),
  },
  {
    route: 'PATCH /api/v1/webhook-endpoints/{id}', permission: 'webhooks:manage', status: 200,
    prepare: async (world) => ({ method: 'PATCH', path: `${API}/webhook-endpoints/${(await freshWebhook(world)).id}`, body: { is_active: false } }),
  },
  {
    route: 'DELETE /api/v1/webhook-endpoints/{id}', permission: 'webhooks:manage', status: 200,
    prepare: async (world) => ({ method: 'DELETE', path: `${API}/webhook-endpoints/${(await freshWebhook(world)).id}`, body: undefined }),
  },
  {
    route: 'POST /api/v1/webhook-endpoints/{id}/rotate-secret', permission: 'webhooks:manage', status: 200,
    prepare: async (world) => ({ method: 'POST', path: `${API}/webhook-endpoints/${(await freshWebhook(world)).id}/rotate-secret`, body: undefined }),
  },
  {
    route: 'POST /api/v1/webhook-endpoints/{id}/replay', permission: 'webhooks:manage', status: 200,
    prepare: async (world) => ({ method: 'POST', path: `${API}/webhook-endpoints/${(await freshWebhook(world)).id}/replay`, body: { after_seq: '0' } }),
  },
  {
    route: 'POST /api/v1/currencies', permission: 'currencies:write', status: 201,
    prepare: async () => {
      const n = next();
      return { method: 'POST', path: `${API}/currencies`, body: {
        code: `N${n}`, name: `New ${n}`, symbol: '¤', asset_scale: 2, asset_type: 'crypto', caip19_id: `test:0/new:${n}`,
      } };
    },
  },
  {
    route: 'PATCH /api/v1/currencies/{id}', permission: 'currencies:write', status: 200,
    prepare: async (world) => ({ method: 'PATCH', path: `${API}/currencies/${(await freshCurrency(world)).id}`, body: { name: 'Renamed' } }),
  },
  {
    route: 'POST /api/v1/accounts', permission: 'accounts:write', status: 201,
    prepare: async (world) => ({ method: 'POST', path: `${API}/accounts`, body: {
      account_number: `7${next()}`, name: 'New account', currency_id: world.books.currency.id, account_type: 'expense',
      normal_balance: 'debit',
    } }),
  },
  {
    route: 'PATCH /api/v1/accounts/{id}', permission: 'accounts:write', status: 200,
    prepare: async (world) => {
      const account = await createAccount(world.api, {
        account_number: `8${next()}`, name: 'To rename', currency_id: world.books.currency.id, account_type: 'asset', normal_balance: 'debit',
      });
      return { method: 'PATCH', path: `${API}/accounts/${account.id}`, body: { name: 'Renamed', is_active: false } };
    },
  },
  {
    route: 'POST /api/v1/periods', permission: 'periods:write', status: 201,
    prepare: async () => {
      const year = 2100 + next();
      return { method: 'POST', path: `${API}/periods`, body: { name: `FY${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31` } };
    },
  },
  {
    route: 'POST /api/v1/periods/{id}/close', permission: 'periods:close', status: 200,
    prepare: async (world) => ({ method: 'POST', path: `${API}/periods/${(await freshEarliestPeriod(world)).id}/close`, body: undefined }),
  },
  {
    // The preview commits nothing, but it is a close and needs the same key.
    route: 'POST /api/v1/periods/{id}/close?preview=true', permission: 'periods:close', status: 200,
    prepare: async (world) => ({ method: 'POST', path: `${API}/periods/${(await freshEarliestPeriod(world)).id}/close?preview=true`, body: undefined }),
  },
  {
    route: 'DELETE /api/v1/periods/{id}', permission: 'periods:write', status: 200,
    prepare: async (world) => ({ method: 'DELETE', path: `${API}/periods/${(await freshPeriod(world)).id}`, body: undefined }),
  },
  {
    route: 'DELETE /api/v1/accounts/{id}', permission: 'accounts:write', status: 200,
    prepare: async (world) => {
      const account = await createAccount(world.api, {
        account_number: `9${next()}`, name: 'Made by mistake', currency_id: world.books.currency.id, account_type: 'asset', normal_balance: 'debit',
      });
      return { method: 'DELETE', path: `${API}/accounts/${account.id}`, body: undefined };
    },
  },
  {
    route: 'POST /api/v1/journal-entries', permission: 'journals:create', status: 201,
    prepare: async (world) => ({
      method: 'POST', path: `${API}/journal-entries`, body: entryBody(world.books.cash.id, world.books.sales.id, String(100 + next())),
    }),
  },
  {
    // A dry run commits nothing, but it runs the post and needs the same key.
    route: 'POST /api/v1/journal-entries?dry_run=true', permission: 'journals:create', status: 200,
    prepare: async (world) => ({
      method: 'POST', path: `${API}/journal-entries?dry_run=true`, body: entryBody(world.books.cash.id, world.books.sales.id, String(100 + next())),
    }),
  },
  {
    route: 'POST /api/v1/journal-entries/batch', permission: 'journals:create', status: 201,
    prepare: async (world) => ({
      method: 'POST', path: `${API}/journal-entries/batch`, body: { entries: [
        entryBody(world.books.cash.id, world.books.sales.id, String(100 + next())),
        entryBody(world.books.rent.id, world.books.cash.id, String(100 + next())),
      ] },
    }),
  },
  {
    route: 'POST /api/v1/journal-entries/batch?dry_run=true', permission: 'journals:create', status: 200,
    prepare: async (world) => ({
      method: 'POST', path: `${API}/journal-entries/batch?dry_run=true`, body: { entries: [
        entryBody(world.books.cash.id, world.books.sales.id, String(100 + next())),
      ] },
    }),
  },
  {
    route: 'POST /api/v1/journal-entries/{id}/reverse', permission: 'journals:reverse', status: 201,
    prepare: async (world) => {
      const entry = await postEntry(world.api, world.books.rent.id, world.books.cash.id, String(100 + next()));
      return { method: 'POST', path: `${API}/journal-entries/${entry.id}/reverse`, body: {} };
    },
  },
  {
    route: 'POST /api/v1/journal-entries/{id}/reverse?dry_run=true', permission: 'journals:reverse', status: 200,
    prepare: async (world) => {
      const entry = await postEntry(world.api, world.books.rent.id, world.books.cash.id, String(100 + next()));
      return { method: 'POST', path: `${API}/journal-entries/${entry.id}/reverse?dry_run=true`, body: {} };
    },
  },
  {
    route: 'PATCH /api/v1/settings', permission: 'settings:write', status: 200,
    prepare: async (world) => {
      const equity = await createAccount(world.api, {
        account_number: `3${next()}`, name: 'Other equity', currency_id: world.books.currency.id, account_type: 'equity', normal_balance: 'credit',
      });
      return { method: 'PATCH', path: `${API}/settings`, body: { retained_earnings_account_id: equity.id } };
    },
  },
  {
    route: 'POST /api/v1/users', permission: 'users:manage', status: 201,
    prepare: async () => ({ method: 'POST', path: `${API}/users`, body: {
      name: uniqueName('Made'), email: uniqueEmail('made'), password: 'long enough', permissions: { 'journals:create': false },
    } }),
  },
  {
    route: 'POST /api/v1/users/service-accounts', permission: 'users:manage', status: 201,
    prepare: async () => ({ method: 'POST', path: `${API}/users/service-accounts`, body: {
      name: uniqueName('Made agent'), permissions: { 'accounts:write': false },
    } }),
  },
  {
    route: 'PATCH /api/v1/users/{id}', permission: 'users:manage', status: 200,
    prepare: async (world) => {
      // A user manager changes only users whose permissions it holds itself: a read-only one here.
      const target = await newServiceAccount(world.api, { 'journals:create': false });
      return { method: 'PATCH', path: `${API}/users/${target.id}`, body: { name: 'Renamed', permissions: {}, is_active: false } };
    },
  },
  {
    route: 'POST /api/v1/users/{id}/api-key/rotate', permission: 'users:manage', status: 200,
    prepare: async (world) => {
      const target = await newServiceAccount(world.api, { 'journals:create': false });
      return { method: 'POST', path: `${API}/users/${target.id}/api-key/rotate`, body: undefined };
    },
  },
  {
    route: 'POST /api/v1/bank-statements', permission: 'bank:write', status: 201,
    prepare: async (world) => {
      const books = await bankBooks(world.api);
      return { method: 'POST', path: `${API}/bank-statements`, body: {
        account_id: books.bank.id, format: 'csv', csv: SEMICOLON_MAPPING,
        content: semicolonCsv([['02.03.2026', 'Entgelt', '-9,90', '990,10']]),
      } };
    },
  },
  {
    route: 'POST /api/v1/bank-lines/{id}/post', permission: 'bank:write', alsoNeeds: ['journals:create'], status: 200,
    prepare: async (world) => {
      const { books, lines } = await freshBankLines(world);
      return { method: 'POST', path: `${API}/bank-lines/${lines[0].id}/post`, body: { counter_account_id: books.fees.id } };
    },
  },
  {
    route: 'POST /api/v1/bank-lines/accept', permission: 'bank:write', alsoNeeds: ['journals:create'], status: 200,
    prepare: async (world) => {
      const { books, lines } = await freshBankLines(world);
      dataOf(await world.api.request('POST', `${API}/bank-rules`, {
        name: 'Fees', account_id: books.bank.id, counter_account_id: books.fees.id, match: { description_contains: 'entgelt' },
      }), 201);
      return { method: 'POST', path: `${API}/bank-lines/accept`, body: { line_ids: [lines[0].id] } };
    },
  },
  {
    route: 'POST /api/v1/bank-lines/{id}/match', permission: 'bank:write', status: 200,
    prepare: async (world) => {
      const { books, lines } = await freshBankLines(world);
      const fee = await postEntry(world.api, books.fees.id, books.bank.id, '990', '2026-03-02');
      return { method: 'POST', path: `${API}/bank-lines/${lines[0].id}/match`, body: { journal_entry_ids: [fee.id] } };
    },
  },
  {
    route: 'POST /api/v1/bank-lines/{id}/exclude', permission: 'bank:write', status: 200,
    prepare: async (world) => {
      const { lines } = await freshBankLines(world);
      return { method: 'POST', path: `${API}/bank-lines/${lines[0].id}/exclude`, body: { reason: 'Paid privately' } };
    },
  },
  {
    route: 'POST /api/v1/bank-lines/{id}/unmatch', permission: 'bank:write', status: 200,
    prepare: async (world) => {
      const { lines } = await freshBankLines(world);
      dataOf(await world.api.request('POST', `${API}/bank-lines/${lines[0].id}/exclude`, { reason: 'Paid privately' }));
      return { method: 'POST', path: `${API}/bank-lines/${lines[0].id}/unmatch`, body: undefined };
    },
  },
  {
    route: 'POST /api/v1/bank-rules', permission: 'bank:write', status: 201,
    prepare: async (world) => {
      const books = await bankBooks(world.api);
      return { method: 'POST', path: `${API}/bank-rules`, body: {
        name: 'Fees', account_id: books.bank.id, counter_account_id: books.fees.id, match: { description_contains: 'entgelt' },
      } };
    },
  },
  {
    // A preview saves nothing, but it runs a rule over the lines and needs the same key.
    route: 'POST /api/v1/bank-rules/preview', permission: 'bank:write', status: 200,
    prepare: async (world) => {
      const { books } = await freshBankLines(world);
      return { method: 'POST', path: `${API}/bank-rules/preview`, body: { account_id: books.bank.id, rule: {
        name: 'Fees', account_id: books.bank.id, counter_account_id: books.fees.id, match: { description_contains: 'entgelt' },
      } } };
    },
  },
  {
    route: 'PATCH /api/v1/bank-rules/{id}', permission: 'bank:write', status: 200,
    prepare: async (world) => ({ method: 'PATCH', path: `${API}/bank-rules/${(await freshRule(world)).id}`, body: { priority: 5 } }),
  },
  {
    route: 'DELETE /api/v1/bank-rules/{id}', permission: 'bank:write', status: 200,
    prepare: async (world) => ({ method: 'DELETE', path: `${API}/bank-rules/${(await freshRule(world)).id}`, body: undefined }),
  },
  {
    route: 'POST /api/v1/reconciliations', permission: 'bank:write', status: 201,
    prepare: async (world) => {
      const books = await bankBooks(world.api);
      return { method: 'POST', path: `${API}/reconciliations`, body: {
        account_id: books.bank.id, statement_date: '2026-03-31', statement_balance: '0',
      } };
    },
  },
  {
    route: 'POST /api/v1/reconciliations/{id}/clear', permission: 'bank:write', status: 200,
    prepare: async (world) => {
      const { reconciliation, lineId } = await freshReconciliation(world);
      return { method: 'POST', path: `${API}/reconciliations/${reconciliation.id}/clear`, body: { journal_line_ids: [lineId] } };
    },
  },
  {
    route: 'POST /api/v1/reconciliations/{id}/unclear', permission: 'bank:write', status: 200,
    prepare: async (world) => {
      const { reconciliation, lineId } = await freshReconciliation(world);
      dataOf(await world.api.request('POST', `${API}/reconciliations/${reconciliation.id}/clear`, { journal_line_ids: [lineId] }));
      return { method: 'POST', path: `${API}/reconciliations/${reconciliation.id}/unclear`, body: { journal_line_ids: [lineId] } };
    },
  },
  {
    route: 'POST /api/v1/reconciliations/{id}/finish', permission: 'bank:write', status: 200,
    prepare: async (world) => {
      const { reconciliation, lineId } = await freshReconciliation(world);
      dataOf(await world.api.request('POST', `${API}/reconciliations/${reconciliation.id}/clear`, { journal_line_ids: [lineId] }));
      return { method: 'POST', path: `${API}/reconciliations/${reconciliation.id}/finish`, body: undefined };
    },
  },
  {
    // A fresh currency each time, so the rate is new (201); the base currency is the retained earnings account's (USD).
    route: 'POST /api/v1/exchange-rates', permission: 'rates:write', status: 201,
    prepare: async (world) => ({
      method: 'POST', path: `${API}/exchange-rates`, body: { currency_id: (await freshCurrency(world)).id, rate_date: '2026-01-15', rate: '1.0842' },
    }),
  },
];

interface ReadRoute {
  route: string;
  path: (world: World, ids: ReadIds) => string;
}

interface ReadIds {
  entryId: string;
  userId: string;
  statementId: string;
  bankLineId: string;
  ruleId: string;
  reconciliationId: string;
  webhookId: string;
}

/** Reads that need a permission of their own (not admin alone); a stream is only refused here, never read to its end. */
interface GatedReadRoute extends ReadRoute {
  permission: Exclude<PermissionKey, 'admin'>;
  stream?: true;
}

const GATED_READ_ROUTES: GatedReadRoute[] = [
  { route: 'GET /api/v1/events', permission: 'events:read', path: () => `${API}/events?limit=5` },
  { route: 'GET /api/v1/events/stream', permission: 'events:read', path: () => `${API}/events/stream`, stream: true },
  { route: 'GET /api/v1/webhook-endpoints', permission: 'webhooks:manage', path: () => `${API}/webhook-endpoints` },
  { route: 'GET /api/v1/webhook-endpoints/{id}', permission: 'webhooks:manage', path: (_w, ids) => `${API}/webhook-endpoints/${ids.webhookId}` },
  {
    route: 'GET /api/v1/webhook-endpoints/{id}/deliveries', permission: 'webhooks:manage',
    path: (_w, ids) => `${API}/webhook-endpoints/${ids.webhookId}/deliveries`,
  },
];

const READ_ROUTES: ReadRoute[] = [
  { route: 'GET /api/v1/currencies', path: () => `${API}/currencies` },
  { route: 'GET /api/v1/currencies/{id}', path: (w) => `${API}/currencies/${w.books.currency.id}` },
  { route: 'GET /api/v1/accounts', path: () => `${API}/accounts?account_type=asset` },
  { route: 'GET /api/v1/accounts/{id}', path: (w) => `${API}/accounts/${w.books.cash.id}` },
  { route: 'GET /api/v1/accounts/{id}/sub-accounts', path: (w) => `${API}/accounts/${w.books.receivables.id}/sub-accounts` },
  { route: 'GET /api/v1/accounts/{id}/balance', path: (w) => `${API}/accounts/${w.books.cash.id}/balance?period_id=${w.books.period.id}` },
  { route: 'GET /api/v1/accounts/{id}/transactions', path: (w) => `${API}/accounts/${w.books.cash.id}/transactions?limit=5` },
  { route: 'GET /api/v1/periods', path: () => `${API}/periods` },
  { route: 'GET /api/v1/periods/{id}', path: (w) => `${API}/periods/${w.books.period.id}` },
  { route: 'GET /api/v1/journal-entries', path: (w) => `${API}/journal-entries?account_id=${w.books.cash.id}` },
  { route: 'GET /api/v1/journal-entries/{id}', path: (_w, ids) => `${API}/journal-entries/${ids.entryId}` },
  { route: 'GET /api/v1/reports/trial-balance', path: () => `${API}/reports/trial-balance` },
  { route: 'GET /api/v1/reports/balance-sheet', path: (w) => `${API}/reports/balance-sheet?as_of_date=2026-12-31&currency_id=${w.books.currency.id}` },
  { route: 'GET /api/v1/reports/income-statement', path: (w) => `${API}/reports/income-statement?period_id=${w.books.period.id}` },
  { route: 'GET /api/v1/reports/general-ledger', path: (w) => `${API}/reports/general-ledger?account_id=${w.books.cash.id}` },
  { route: 'GET /api/v1/reports/aged-balances', path: (w) => `${API}/reports/aged-balances?account_id=${w.books.receivables.id}` },
  { route: 'GET /api/v1/settings', path: () => `${API}/settings` },
  { route: 'GET /api/v1/users', path: () => `${API}/users` },
  { route: 'GET /api/v1/users/{id}', path: (_w, ids) => `${API}/users/${ids.userId}` },
  { route: 'GET /api/v1/bank-statements', path: () => `${API}/bank-statements` },
  { route: 'GET /api/v1/bank-statements/{id}', path: (_w, ids) => `${API}/bank-statements/${ids.statementId}` },
  { route: 'GET /api/v1/bank-lines', path: () => `${API}/bank-lines` },
  { route: 'GET /api/v1/bank-lines/{id}', path: (_w, ids) => `${API}/bank-lines/${ids.bankLineId}` },
  { route: 'GET /api/v1/bank-lines/{id}/candidates', path: (_w, ids) => `${API}/bank-lines/${ids.bankLineId}/candidates` },
  { route: 'GET /api/v1/bank-rules', path: () => `${API}/bank-rules` },
  { route: 'GET /api/v1/bank-rules/{id}', path: (_w, ids) => `${API}/bank-rules/${ids.ruleId}` },
  { route: 'GET /api/v1/reconciliations', path: () => `${API}/reconciliations` },
  { route: 'GET /api/v1/reconciliations/{id}', path: (_w, ids) => `${API}/reconciliations/${ids.reconciliationId}` },
  { route: 'GET /api/v1/exchange-rates', path: () => `${API}/exchange-rates?start_date=2026-01-01` },
];

/**
 * Reads only an admin may make: 403 FORBIDDEN for everyone else, whatever other keys they hold
 * (users:manage included).
 */
const ADMIN_READ_ROUTES: ReadRoute[] = [
  { route: 'GET /api/v1/audit-log', path: (w) => `${API}/audit-log?target_id=${w.books.cash.id}&limit=5` },
  { route: 'GET /api/v1/verify', path: () => `${API}/verify` },
];

/** Everything a write could change, read as the admin: compared before and after a refused write. */
async function snapshot(api: ApiFixture) {
  const lists = ['currencies', 'accounts', 'periods', 'journal-entries', 'users', 'bank-statements', 'bank-lines', 'bank-rules', 'reconciliations',
    'exchange-rates'];
  const state: Record<string, unknown> = {};
  for (const list of lists) state[list] = (await walkPages(api, `${API}/${list}`, { limit: 200 })).rows;
  state.settings = dataOf(await api.request('GET', `${API}/settings`));
  return state;
}

type CredentialKind = 'API key' | 'access token';

/** A principal holding exactly `permissions`, as a service account (API key) or a logged-in human. */
async function principal(api: ApiFixture, kind: CredentialKind, permissions: Partial<Record<PermissionKey, boolean>>) {
  if (kind === 'API key') {
    const agent = await newServiceAccount(api, permissions);
    return { id: agent.id, token: agent.apiKey };
  }
  const human = await loggedInHuman(api, permissions);
  return { id: human.id, token: human.tokens.access_token };
}

function everyKeyBut(permission: PermissionKey): Partial<Record<PermissionKey, boolean>> {
  return Object.fromEntries(PERMISSION_KEYS.filter((key) => key !== permission && key !== 'admin').map((key) => [key, true]));
}

/** The route's key and the keys it also needs, nothing else. */
function only(row: WriteRoute): Partial<Record<PermissionKey, boolean>> {
  return Object.fromEntries([row.permission, ...(row.alsoNeeds ?? [])].map((key) => [key, true]));
}

const send = (world: World, request: PreparedRequest, token: string): Promise<ApiResponse> =>
  world.api.request(request.method, request.path, request.body, { token });

describe('permission matrix', () => {
  const world = {} as World;
  let readIds: ReadIds;
  let openapiRoutes: string[];

  beforeAll(async () => {
    world.api = guarded(await startApi());
    world.books = await seedBooks(world.api);
    dataOf(await world.api.request('PATCH', `${API}/settings`, { retained_earnings_account_id: world.books.equity.id }));
    const entry = await postEntry(world.api, world.books.cash.id, world.books.sales.id, '5000');
    const { lines } = await freshBankLines(world);
    readIds = {
      entryId: entry.id, userId: dataOf(await world.api.request('GET', '/auth/me')).id, statementId: lines[0].statement_id,
      bankLineId: lines[0].id, ruleId: (await freshRule(world)).id, reconciliationId: (await freshReconciliation(world)).reconciliation.id,
      webhookId: (await freshWebhook(world)).id,
    };
    const openapi = await world.api.request('GET', `${API}/openapi.json`, undefined, { token: null });
    openapiRoutes = Object.entries(openapi.body.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith(`${API}/`))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
  });
  afterAll(async () => { await world.api.close(); });

  it('has a row for every write route and every read route registered under /api/v1', () => {
    const writeRows = new Set(WRITE_ROUTES.map((row) => row.route.split('?')[0]));
    const readRows = new Set([...READ_ROUTES, ...ADMIN_READ_ROUTES, ...GATED_READ_ROUTES].map((row) => row.route));
    expect(openapiRoutes.filter((route) => !route.startsWith('GET ')).sort()).toEqual([...writeRows].sort());
    expect(openapiRoutes.filter((route) => route.startsWith('GET ')).sort()).toEqual([...readRows].sort());
  });

  describe.each<CredentialKind>(['API key', 'access token'])('with an %s', (kind) => {
    it.each(WRITE_ROUTES)('$route: 403 FORBIDDEN without $permission, and nothing changes', async (row) => {
      const request = await row.prepare(world);
      // No permission at all, and every permission but this one and admin.
      const callers = [await principal(world.api, kind, {}), await principal(world.api, kind, everyKeyBut(row.permission))];
      const before = await snapshot(world.api);
      for (const caller of callers) expectError(await send(world, request, caller.token), 403, 'FORBIDDEN');
      expect(await snapshot(world.api)).toEqual(before);
      // The very same request goes through for a holder of the key: the refusal was the permission.
      const holder = await principal(world.api, kind, only(row));
      expect((await send(world, request, holder.token)).status).toBe(row.status);
    });

    it.each(WRITE_ROUTES)('$route: succeeds ($status) with only $permission', async (row) => {
      const caller = await principal(world.api, kind, only(row));
      const response = await send(world, await row.prepare(world), caller.token);
      expect({ status: response.status, body: response.status === row.status ? 'ok' : response.body })
        .toEqual({ status: row.status, body: 'ok' });
    });

    it.each(WRITE_ROUTES)('$route: succeeds ($status) for an admin', async (row) => {
      const caller = await principal(world.api, kind, { admin: true });
      const response = await send(world, await row.prepare(world), caller.token);
      expect({ status: response.status, body: response.status === row.status ? 'ok' : response.body })
        .toEqual({ status: row.status, body: 'ok' });
    });

    it.each(READ_ROUTES)('$route: 200 for an active user without any permission', async (row) => {
      const reader = await principal(world.api, kind, {});
      const response = await world.api.request('GET', row.path(world, readIds), undefined, { token: reader.token });
      expect({ status: response.status, body: response.status === 200 ? 'ok' : response.body }).toEqual({ status: 200, body: 'ok' });
      expect(response.body).toHaveProperty('data');
    });

    it.each(ADMIN_READ_ROUTES)('$route: 403 FORBIDDEN for every permission but admin, users:manage included', async (row) => {
      for (const permissions of [{}, everyKeyBut('admin'), { 'users:manage': true }]) {
        const reader = await principal(world.api, kind, permissions);
        expectError(await world.api.request('GET', row.path(world, readIds), undefined, { token: reader.token }), 403, 'FORBIDDEN');
      }
    });

    it.each(ADMIN_READ_ROUTES)('$route: 200 for an admin', async (row) => {
      const admin = await principal(world.api, kind, { admin: true });
      const response = await world.api.request('GET', row.path(world, readIds), undefined, { token: admin.token });
      expect({ status: response.status, body: response.status === 200 ? 'ok' : response.body }).toEqual({ status: 200, body: 'ok' });
      expect(response.body).toHaveProperty('data');
    });

    it.each(GATED_READ_ROUTES)('$route: 403 FORBIDDEN without $permission, 200 with only it and for an admin', async (row) => {
      for (const permissions of [{}, everyKeyBut(row.permission)]) {
        const reader = await principal(world.api, kind, permissions);
        expectError(await world.api.request('GET', row.path(world, readIds), undefined, { token: reader.token }), 403, 'FORBIDDEN');
      }
      if (row.stream) return;
      for (const permissions of [{ [row.permission]: true }, { admin: true }]) {
        const reader = await principal(world.api, kind, permissions);
        const response = await world.api.request('GET', row.path(world, readIds), undefined, { token: reader.token });
        expect({ status: response.status, body: response.status === 200 ? 'ok' : response.body }).toEqual({ status: 200, body: 'ok' });
      }
    });

    it('refuses every route to the same user once deactivated (401)', async () => {
      const caller = await principal(world.api, kind, { admin: true });
      dataOf(await world.api.request('PATCH', `${API}/users/${caller.id}`, { is_active: false }));
      for (const row of [...READ_ROUTES, ...ADMIN_READ_ROUTES, ...GATED_READ_ROUTES]) {
        expectError(await world.api.request('GET', row.path(world, readIds), undefined, { token: caller.token }), 401, 'UNAUTHORIZED');
      }
      for (const row of WRITE_ROUTES) {
        expectError(await send(world, await row.prepare(world), caller.token), 401, 'UNAUTHORIZED');
      }
    });
  });

  it('answers 401 UNAUTHORIZED on every route without credentials', async () => {
    for (const row of [...READ_ROUTES, ...ADMIN_READ_ROUTES, ...GATED_READ_ROUTES]) {
      expectError(await world.api.request('GET', row.path(world, readIds), undefined, { token: null }), 401, 'UNAUTHORIZED');
    }
    for (const row of WRITE_ROUTES) {
      const request = await row.prepare(world);
      expectError(await world.api.request(request.method, request.path, request.body, { token: null }), 401, 'UNAUTHORIZED');
    }
  });
});

describe('attribution', () => {
  const world = {} as World;
  beforeAll(async () => {
    world.api = guarded(await startApi());
    world.books = await seedBooks(world.api);
    dataOf(await world.api.request('PATCH', `${API}/settings`, { retained_earnings_account_id: world.books.equity.id }));
  });
  afterAll(async () => { await world.api.close(); });

  it.each<CredentialKind>(['API key', 'access token'])('records the caller of an %s as created_by of an entry and of its reversal', async (kind) => {
    const poster = await principal(world.api, kind, { 'journals:create': true });
    const reverser = await principal(world.api, kind, { 'journals:reverse': true });
    const posted = dataOf(await send(world, {
      method: 'POST', path: `${API}/journal-entries`, body: entryBody(world.books.cash.id, world.books.sales.id, '700'),
    }, poster.token), 201);
    expect(posted.created_by).toBe(poster.id);
    const reversal = dataOf(await send(world, {
      method: 'POST', path: `${API}/journal-entries/${posted.id}/reverse`, body: {},
    }, reverser.token), 201);
    expect(reversal.created_by).toBe(reverser.id);
    expect(dataOf(await world.api.request('GET', `${API}/journal-entries/${posted.id}`)).created_by).toBe(poster.id);
    expect(dataOf(await world.api.request('GET', `${API}/journal-entries/${reversal.id}`)).created_by).toBe(reverser.id);
  });

  it.each<CredentialKind>(['API key', 'access token'])('records the caller of an %s as closed_by of a period and created_by of its closing entry', async (kind) => {
    const closer = await principal(world.api, kind, { 'periods:close': true });
    // Before the open FY2026 (periods close in order), the later one first, so either runs alone.
    const year = kind === 'API key' ? 2002 : 2001;
    const period = dataOf(await world.api.request('POST', `${API}/periods`, {
      name: `FY${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31`,
    }), 201);
    await postEntry(world.api, world.books.cash.id, world.books.sales.id, '900', `${year}-06-01`);
    const closed = dataOf(await send(world, { method: 'POST', path: `${API}/periods/${period.id}/close`, body: undefined }, closer.token));
    expect(closed.period.closed_by).toBe(closer.id);
    expect(closed.closing_entry.created_by).toBe(closer.id);
  });
});
