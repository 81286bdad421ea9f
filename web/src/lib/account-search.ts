/**
 * Finding accounts by number or name as someone types, for the account picker. Pure, so a chart
 * of thousands of accounts is searched on every keystroke without a request.
 */
import type { AccountView } from '../api/types.js';

/** An account with the text it is found by, prepared once per chart. */
export interface SearchableAccount {
  account: AccountView;
  number: string;
  name: string;
}

/** Lower case without accents, so "cafe" finds "Café". */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

const prepared = new WeakMap<readonly AccountView[], SearchableAccount[]>();

/** The chart ready for searching; every picker on a page shares the one copy of a loaded chart. */
export function prepareAccounts(accounts: readonly AccountView[]): SearchableAccount[] {
  let result = prepared.get(accounts);
  if (!result) {
    result = accounts.map((account) => ({ account, number: foldText(account.account_number), name: foldText(account.name) }));
    prepared.set(accounts, result);
  }
  return result;
}

export interface AccountMatches {
  /** The best matches, at most `limit` of them. */
  shown: AccountView[];
  /** How many accounts match in all. */
  total: number;
}

const byNumber = new Intl.Collator(undefined, { numeric: true });

/**
 * The accounts whose number or name contains every word of `query`, best first: the exact
 * number, then numbers starting with the query, then names starting with it, then names with a
 * word starting with it, then the rest; within a rank, by account number. An empty query
 * matches everything, in account-number order. `filter` says which accounts may be offered at all.
 */
export function searchAccounts(accounts: readonly SearchableAccount[], query: string, limit: number,
  filter?: (account: AccountView) => boolean): AccountMatches {
  const folded = foldText(query.trim());
  // Only words with a letter or digit count, so the label as shown ("1000 · Cash") finds its account.
  const words = folded.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  const ranked: { account: AccountView; rank: number }[] = [];
  for (const candidate of accounts) {
    if (filter && !filter(candidate.account)) continue;
    if (!words.every((word) => candidate.number.includes(word) || candidate.name.includes(word))) continue;
    ranked.push({ account: candidate.account, rank: rank(candidate, folded, words[0] ?? '') });
  }
  ranked.sort((a, b) => a.rank - b.rank || byNumber.compare(a.account.account_number, b.account.account_number));
  return { shown: ranked.slice(0, limit).map((row) => row.account), total: ranked.length };
}

function rank(candidate: SearchableAccount, query: string, firstWord: string): number {
  if (firstWord === '') return 0;
  if (candidate.number === query) return 0;
  if (candidate.number.startsWith(firstWord)) return 1;
  if (candidate.name.startsWith(query)) return 2;
  if (candidate.name.split(/[\s\-/,.&()]+/).some((word) => word.startsWith(firstWord))) return 3;
  return 4;
}
