/**
 * Helpers for the closing and report tests: posting entries with any number of lines, reversing,
 * closing, reading reports with query parameters, and walking the general ledger's pages.
 */
import { expect } from 'vitest';
import { type ApiFixture, createAccount, dataOf } from './api-fixture.js';

export type QueryValue = string | number | boolean | undefined;

/** `path?key=value&...`, leaving out undefined values. */
export function withQuery(path: string, params: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

export type ReportName = 'trial-balance' | 'balance-sheet' | 'income-statement' | 'general-ledger' | 'aged-balances';

export function getReport(api: ApiFixture, report: ReportName, params: Record<string, QueryValue> = {}) {
  return api.request('GET', withQuery(`/api/v1/reports/${report}`, params));
}

export async function report<T = any>(api: ApiFixture, name: ReportName, params: Record<string, QueryValue> = {}): Promise<T> {
  return dataOf<T>(await getReport(api, name, params));
}

/** A line as `[account id, 'dr' | 'cr', amount]`. */
export type LineSpec = [accountId: string, side: 'dr' | 'cr', amount: string];

export function linesOf(specs: readonly LineSpec[]) {
  return specs.map(([account_id, side, amount]) =>
    (side === 'dr' ? { account_id, debit_amount: amount } : { account_id, credit_amount: amount }));
}

/** Posts an entry with the given lines and returns it (201 expected). */
export async function post(api: ApiFixture, entryDate: string, specs: readonly LineSpec[], description = 'entry') {
  return dataOf(await api.request('POST', '/api/v1/journal-entries', {
    entry_date: entryDate, description, lines: linesOf(specs),
  }), 201);
}

export function reverseRequest(api: ApiFixture, entryId: string, entryDate?: string) {
  return api.request('POST', `/api/v1/journal-entries/${entryId}/reverse`, entryDate === undefined ? {} : { entry_date: entryDate });
}

export async function reverse(api: ApiFixture, entryId: string, entryDate?: string) {
  return dataOf(await reverseRequest(api, entryId, entryDate), 201);
}

export function closeRequest(api: ApiFixture, periodId: string, query: Record<string, QueryValue> = {}, token?: string) {
  return api.request('POST', withQuery(`/api/v1/periods/${periodId}/close`, query), undefined, token === undefined ? {} : { token });
}

export async function setRetainedEarnings(api: ApiFixture, accountId: string) {
  return dataOf(await api.request('PATCH', '/api/v1/settings', { retained_earnings_account_id: accountId }));
}

/** Opens accounts in one currency, numbered with a prefix so that several sets can share a ledger. */
export function accountOpener(api: ApiFixture, currencyId: string, prefix = '') {
  return (number: string, name: string, account_type: string, normal_balance: string, extra: object = {}) =>
    createAccount(api, { account_number: `${prefix}${number}`, name, currency_id: currencyId, account_type, normal_balance, ...extra });
}

/** Opens a sub-account under a control account (currency, type and normal balance inherited). */
export function subAccount(api: ApiFixture, parentId: string, account_number: string, name: string, entity_id: string) {
  return createAccount(api, { account_number, name, parent_id: parentId, entity_id });
}

/** Every journal entry of the ledger, oldest first, walking all pages. */
export async function allEntries(api: ApiFixture, params: Record<string, QueryValue> = {}) {
  const entries: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = (await api.request('GET', withQuery('/api/v1/journal-entries', { ...params, limit: 200, cursor }))).body;
    expect(Array.isArray(page.data), JSON.stringify(page)).toBe(true);
    entries.push(...page.data);
    if (!page.has_more) return entries;
    cursor = page.next_cursor;
  }
}

export interface GeneralLedgerWalk {
  pages: any[];
  lines: any[];
}

/** Follows next_cursor of the general ledger from the first page to the last. */
export async function walkGeneralLedger(api: ApiFixture, params: Record<string, QueryValue>, limit: number): Promise<GeneralLedgerWalk> {
  const pages: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await report(api, 'general-ledger', { ...params, limit, cursor });
    expect(page.has_more).toBe(page.next_cursor !== null);
    expect(page.lines.length).toBeLessThanOrEqual(limit);
    pages.push(page);
    if (!page.has_more) break;
    if (pages.length > 1000) throw new Error('general ledger pagination does not end');
    cursor = page.next_cursor;
  }
  return { pages, lines: pages.flatMap((page) => page.lines) };
}

/** The effect of a line on its account's balance, signed by the account's normal side. */
export function lineEffect(normalBalance: 'debit' | 'credit', line: { debit_amount: string; credit_amount: string }): bigint {
  const net = BigInt(line.debit_amount) - BigInt(line.credit_amount);
  return normalBalance === 'debit' ? net : -net;
}
