/**
 * Rules for opening an account. A sub-account hangs under a control account
 * (`has_subledger: true`), one level deep, and inherits its currency, type and normal balance.
 */
import { validationError } from '../errors.js';
import type { Account, AccountType, NormalBalance } from '../types.js';

export interface NewAccountInput {
  account_number: string;
  name: string;
  currency_id?: string | undefined;
  account_type?: AccountType | undefined;
  normal_balance?: NormalBalance | undefined;
  has_subledger?: boolean | undefined;
  parent_id?: string | null | undefined;
  entity_id?: string | null | undefined;
  xbrl_tag?: string | null | undefined;
}

export type ResolvedAccount = Omit<Account, 'id' | 'created_at' | 'is_active'>;

/** `parent` is the account named by `parent_id`, looked up by the caller (undefined if none). */
export function resolveNewAccount(input: NewAccountInput, parent: Account | undefined): ResolvedAccount {
  const base = {
    account_number: input.account_number,
    name: input.name,
    has_subledger: input.has_subledger ?? false,
    xbrl_tag: input.xbrl_tag ?? null,
  };
  if (input.parent_id === undefined || input.parent_id === null) {
    if (input.entity_id !== undefined && input.entity_id !== null) {
      throw validationError('entity_id is only used with parent_id', 'entity_id',
        'Give parent_id to create a sub-account, or leave entity_id out');
    }
    const missing = (['currency_id', 'account_type', 'normal_balance'] as const).find((key) => input[key] === undefined);
    if (missing) throw validationError(`${missing} is required`, missing);
    return {
      ...base, currency_id: input.currency_id!, account_type: input.account_type!,
      normal_balance: input.normal_balance!, parent_id: null, entity_id: null,
    };
  }
  if (input.entity_id === undefined || input.entity_id === null || input.entity_id === '') {
    throw validationError('entity_id is required for a sub-account', 'entity_id',
      'Give the id of the customer, supplier or other entity this sub-account tracks');
  }
  if (!parent) {
    throw validationError(`Parent account ${input.parent_id} does not exist`, 'parent_id');
  }
  if (!parent.has_subledger) {
    throw validationError(`Account ${parent.account_number} is not a control account`, 'parent_id',
      'Create the parent with has_subledger: true');
  }
  if (base.has_subledger) {
    throw validationError('A sub-account cannot itself be a control account (one level deep)', 'has_subledger');
  }
  for (const key of ['currency_id', 'account_type', 'normal_balance'] as const) {
    if (input[key] !== undefined && input[key] !== parent[key]) {
      throw validationError(`${key} must match the parent's (${parent[key]}) or be omitted`, key);
    }
  }
  return {
    ...base, currency_id: parent.currency_id, account_type: parent.account_type,
    normal_balance: parent.normal_balance, parent_id: parent.id, entity_id: input.entity_id,
  };
}

/**
 * The balance as the reports and the chart of accounts show it: signed by the side of the
 * account's type (debits − credits for assets and expenses, credits − debits for liabilities,
 * equity and revenue), so a contra account (accumulated depreciation, owner's drawings) shows
 * negative in its section, whatever its own normal_balance.
 */
export function sectionBalance(accountType: AccountType, debits: bigint, credits: bigint): bigint {
  return accountType === 'asset' || accountType === 'expense' ? debits - credits : credits - debits;
}

/** Net balance signed by the account's normal side. */
export function netBalance(normal: NormalBalance, debits: bigint, credits: bigint): bigint {
  return normal === 'debit' ? debits - credits : credits - debits;
}
