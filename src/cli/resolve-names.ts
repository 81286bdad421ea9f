/**
 * What a person types for an account, a currency or a period on the command line: its id, or what
 * they know it by (docs/cli.md, "Names instead of ids"). Accounts: id, account number, name;
 * currencies: id, code, name; periods: id, name. Names compare without regard to case, and when
 * no name is equal, a name containing the text matches. The first kind that matches anything
 * decides; two or more matches of it are a usage error listing them. When nothing matches, the
 * text goes on as an id, so the service answers exactly as it does for an unknown id.
 */
import { validationError } from '../domain/errors.js';
import type { LedgerService } from '../service/ledger-service.js';
import { collect } from './paging.js';

interface Kind<T> {
  /** "account" and "accounts", for messages. */
  noun: string;
  plural: string;
  /** The option or argument, for messages and the error's field. */
  field: string;
  /** Ways of naming a row, most exact first (the id first of all). */
  keys: ((row: T, text: string) => boolean)[];
  describe: (row: T) => string;
}

const folded = (text: string) => text.toLocaleLowerCase('en');
const sameName = (name: string, text: string) => folded(name) === folded(text);
const nameContains = (name: string, text: string) => folded(name).includes(folded(text));

function resolve<T extends { id: string }>(rows: readonly T[], text: string, kind: Kind<T>): string {
  for (const key of kind.keys) {
    const matches = rows.filter((row) => key(row, text));
    if (matches.length === 1) return matches[0]!.id;
    if (matches.length > 1) {
      throw validationError(
        `${kind.field} "${text}" matches ${matches.length} ${kind.plural}: ${matches.map(kind.describe).join('; ')}`,
        kind.field, `Pass one of their ids or a more exact ${kind.noun} name`);
    }
  }
  return text;
}

/** The id of the account the text names (or the text itself when it names none). */
export async function resolveAccount(service: LedgerService, text: string, field = '--account'): Promise<string> {
  const { data } = await collect((cursor) => service.listAccounts({ limit: 200, cursor }), {});
  return resolve(data, text, {
    noun: 'account', plural: 'accounts', field,
    keys: [(a, t) => a.id === t, (a, t) => a.account_number === t, (a, t) => sameName(a.name, t), (a, t) => nameContains(a.name, t)],
    describe: (a) => `${a.account_number} ${a.name} (${a.id})`,
  });
}

export async function resolveCurrency(service: LedgerService, text: string, field = '--currency'): Promise<string> {
  const { data } = await collect((cursor) => service.listCurrencies({ limit: 200, cursor }), {});
  return resolve(data, text, {
    noun: 'currency', plural: 'currencies', field,
    keys: [(c, t) => c.id === t, (c, t) => sameName(c.code, t), (c, t) => sameName(c.name, t), (c, t) => nameContains(c.name, t)],
    describe: (c) => `${c.code} ${c.name} (${c.id})`,
  });
}

export async function resolvePeriod(service: LedgerService, text: string, field = '--period'): Promise<string> {
  const { data } = await collect((cursor) => service.listPeriods({ limit: 200, cursor }), {});
  return resolve(data, text, {
    noun: 'period', plural: 'periods', field,
    keys: [(p, t) => p.id === t, (p, t) => sameName(p.name, t), (p, t) => nameContains(p.name, t)],
    describe: (p) => `${p.name} ${p.start_date}..${p.end_date} (${p.id})`,
  });
}

/** The id of each option given, resolved; an option left out stays undefined. */
export async function resolvedIds(service: LedgerService, given: {
  account?: string | undefined; currency?: string | undefined; period?: string | undefined; parent?: string | undefined;
}): Promise<{ account?: string; currency?: string; period?: string; parent?: string }> {
  return {
    ...(given.account !== undefined ? { account: await resolveAccount(service, given.account) } : {}),
    ...(given.currency !== undefined ? { currency: await resolveCurrency(service, given.currency) } : {}),
    ...(given.period !== undefined ? { period: await resolvePeriod(service, given.period) } : {}),
    ...(given.parent !== undefined ? { parent: await resolveAccount(service, given.parent, '--parent') } : {}),
  };
}
