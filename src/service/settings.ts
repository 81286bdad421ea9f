/**
 * Settings: the company name, the default retained earnings account and, for the other currencies,
 * one retained earnings account per currency, the base currency and the lock date. Each is stored
 * under its own key (`company_name`, `retained_earnings_account_id`,
 * `retained_earnings_account_id:<currency_id>` per currency, `base_currency_id`, `lock_date`), so a
 * change touches only its rows.
 */
import { fieldChanges } from '../domain/audit.js';
import { parseDate } from '../domain/dates.js';
import { validationError } from '../domain/errors.js';
import { normalizeCompanyName } from '../domain/settings/company-name.js';
import type { Account } from '../domain/types.js';
import type { SettingsView, UpdateSettingsInput } from '../schemas/settings.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit-log.js';
import type { ServiceContext } from './context.js';
import type { LedgerReads, LedgerTx } from './ports/ledger-store.js';
import type { Work } from './use-case.js';

export const RETAINED_EARNINGS_KEY = 'retained_earnings_account_id';
export const COMPANY_NAME_KEY = 'company_name';
export const BASE_CURRENCY_KEY = 'base_currency_id';
export const LOCK_DATE_KEY = 'lock_date';
const PER_CURRENCY_PREFIX = `${RETAINED_EARNINGS_KEY}:`;

/** The settings key of a currency's own retained earnings account. */
export function retainedEarningsKeyOf(currencyId: string): string {
  return `${PER_CURRENCY_PREFIX}${currencyId}`;
}

/** The per-currency retained earnings accounts, by currency id (keys in order, so audit diffs compare stably). */
export function perCurrencyRetainedEarnings(settings: ReadonlyMap<string, string>): Record<string, string> {
  const map: Record<string, string> = {};
  for (const [key, value] of [...settings].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (key.startsWith(PER_CURRENCY_PREFIX)) map[key.slice(PER_CURRENCY_PREFIX.length)] = value;
  }
  return map;
}

async function readSettings(reads: LedgerReads): Promise<SettingsView> {
  const all = await reads.allSettings();
  return {
    company_name: all.get(COMPANY_NAME_KEY) ?? null,
    retained_earnings_account_id: all.get(RETAINED_EARNINGS_KEY) ?? null,
    retained_earnings_account_ids: perCurrencyRetainedEarnings(all),
    base_currency_id: await baseCurrencyIn(reads, all),
    lock_date: all.get(LOCK_DATE_KEY) ?? null,
  };
}

/** The base currency: the one set, else the retained earnings account's currency, else none. */
async function baseCurrencyIn(reads: LedgerReads, all: ReadonlyMap<string, string>): Promise<string | null> {
  const set = all.get(BASE_CURRENCY_KEY);
  if (set !== undefined) return set;
  const retainedEarningsId = all.get(RETAINED_EARNINGS_KEY);
  if (retainedEarningsId === undefined) return null;
  return (await reads.getAccount(retainedEarningsId))?.currency_id ?? null;
}

/** The base currency translated reports are shown in (null while none is set or implied). */
export async function baseCurrencyOf(reads: LedgerReads): Promise<string | null> {
  return baseCurrencyIn(reads, await reads.allSettings());
}

/** The lock date: entries dated on or before it need periods:override and a reason (null: no lock). */
export async function lockDateOf(reads: LedgerReads): Promise<string | null> {
  return (await reads.getSetting(LOCK_DATE_KEY)) ?? null;
}

export async function getSettings(ctx: ServiceContext): Promise<SettingsView> {
  return ctx.store.read(readSettings);
}

/** The company name reports and exports carry, or null when none is set. */
export async function companyNameOf(reads: LedgerReads): Promise<string | null> {
  return (await reads.getSetting(COMPANY_NAME_KEY)) ?? null;
}

/** A retained earnings account must be an active equity account, not a control account (and, per currency, in that currency). */
async function eligibleAccount(tx: LedgerTx, id: string, field: string): Promise<Account> {
  const account = await tx.getAccount(id);
  if (!account) throw validationError(`Account ${id} does not exist`, field);
  if (account.account_type !== 'equity') {
    throw validationError(`Account ${account.account_number} is a ${account.account_type} account, not equity`, field,
      'Choose an equity account such as Retained Earnings');
  }
  if (!account.is_active) throw validationError(`Account ${account.account_number} is inactive`, field);
  if (account.has_subledger) {
    throw validationError(`Account ${account.account_number} is a control account`, field,
      'Choose an equity account without sub-accounts');
  }
  return account;
}

export function updateSettings(ctx: ServiceContext, actor: Actor, input: UpdateSettingsInput): Work<SettingsView> {
  // Checked before the transaction: a bad name changes nothing, whatever else the body holds.
  const companyName = input.company_name === undefined || input.company_name === null
    ? input.company_name : normalizeCompanyName(input.company_name);
  if (input.lock_date !== undefined && input.lock_date !== null) parseDate(input.lock_date, 'lock_date');
  return async (tx) => {
    const before = await readSettings(tx);
    let defaultId = before.retained_earnings_account_id;
    if (input.retained_earnings_account_id !== undefined) {
      defaultId = (await eligibleAccount(tx, input.retained_earnings_account_id, 'retained_earnings_account_id')).id;
    }
    const perCurrency = { ...before.retained_earnings_account_ids };
    for (const [currencyId, accountId] of Object.entries(input.retained_earnings_account_ids ?? {})) {
      const field = `retained_earnings_account_ids.${currencyId}`;
      if (accountId === null) {
        delete perCurrency[currencyId];
        continue;
      }
      const account = await eligibleAccount(tx, accountId, field);
      if (account.currency_id !== currencyId) {
        const currency = await tx.getCurrency(account.currency_id);
        throw validationError(`Account ${account.account_number} is in ${currency?.code ?? account.currency_id}, not in currency ${currencyId}`,
          field, 'Name each currency with an equity account in that currency');
      }
      perCurrency[currencyId] = account.id;
    }
    // The default account serves its own currency: a second account for that currency would make
    // the close ambiguous, so it is refused rather than silently ignored.
    const defaultAccount = defaultId === null ? undefined : await tx.getAccount(defaultId);
    if (defaultAccount && perCurrency[defaultAccount.currency_id] !== undefined) {
      const currency = await tx.getCurrency(defaultAccount.currency_id);
      const field = input.retained_earnings_account_ids?.[defaultAccount.currency_id] !== undefined
        ? `retained_earnings_account_ids.${defaultAccount.currency_id}` : 'retained_earnings_account_id';
      throw validationError(
        `${currency?.code ?? defaultAccount.currency_id} is the default retained earnings account's currency; it takes no second account`,
        field, `Change retained_earnings_account_id for ${currency?.code ?? 'that currency'}, or remove it from retained_earnings_account_ids with null`);
    }
    if (input.base_currency_id !== undefined && input.base_currency_id !== null && !(await tx.getCurrency(input.base_currency_id))) {
      throw validationError(`Currency ${input.base_currency_id} does not exist`, 'base_currency_id', 'List the currencies with GET /api/v1/currencies');
    }
    if (companyName === null) await tx.deleteSetting(COMPANY_NAME_KEY);
    else if (companyName !== undefined && companyName !== before.company_name) await tx.setSetting(COMPANY_NAME_KEY, companyName);
    if (defaultId !== null) await tx.setSetting(RETAINED_EARNINGS_KEY, defaultId);
    for (const currencyId of Object.keys(before.retained_earnings_account_ids)) {
      if (perCurrency[currencyId] === undefined) await tx.deleteSetting(retainedEarningsKeyOf(currencyId));
    }
    for (const [currencyId, accountId] of Object.entries(perCurrency)) {
      if (before.retained_earnings_account_ids[currencyId] !== accountId) await tx.setSetting(retainedEarningsKeyOf(currencyId), accountId);
    }
    if (input.base_currency_id === null) await tx.deleteSetting(BASE_CURRENCY_KEY);
    else if (input.base_currency_id !== undefined) await tx.setSetting(BASE_CURRENCY_KEY, input.base_currency_id);
    if (input.lock_date === null) await tx.deleteSetting(LOCK_DATE_KEY);
    else if (input.lock_date !== undefined) await tx.setSetting(LOCK_DATE_KEY, input.lock_date);
    const after = await readSettings(tx);
    await recordAudit(ctx, tx, actor, {
      action: 'settings.update', target_type: 'settings', target_id: null,
      // The base currency follows the retained earnings account until it is set: only a change asked
      // for is recorded as its own.
      changes: fieldChanges(before, after, ['company_name', 'retained_earnings_account_id', 'retained_earnings_account_ids',
        ...(input.base_currency_id === undefined ? [] : ['base_currency_id' as const]), ...(input.lock_date === undefined ? [] : ['lock_date' as const])]),
    });
    return after;
  };
}
