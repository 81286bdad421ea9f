/** Which accounts can hold bank statements and reconciliations, checked the same way everywhere. */
import { notFound, validationError } from '../../domain/errors.js';
import type { Account } from '../../domain/types.js';
import { type Actor, isLocalOperator } from '../actor.js';
import type { LedgerReads } from '../ports/ledger-store.js';

/** An active asset or liability posting account (not a control account): a bank or card account. */
export async function bankAccount(reads: LedgerReads, accountId: string, field = 'account_id'): Promise<Account> {
  const account = await reads.getAccount(accountId);
  if (!account) throw notFound('Account', accountId, field);
  if (account.account_type !== 'asset' && account.account_type !== 'liability') {
    throw validationError(`Account ${account.account_number} ${account.name} is a ${account.account_type} account; statements belong to a bank `
      + '(asset) or card (liability) account', field, 'Pass the account of the bank or card the statement is from');
  }
  if (account.has_subledger) {
    throw validationError(`Account ${account.account_number} ${account.name} is a control account`, field,
      'Pass a posting account: a control account has sub-accounts and no lines of its own');
  }
  if (!account.is_active) {
    throw validationError(`Account ${account.account_number} ${account.name} is inactive`, field, 'Reactivate the account first');
  }
  return account;
}

/** The id recorded as the one who acted: null for the command line's local operator. */
export function actingUserId(actor: Actor): string | null {
  return isLocalOperator(actor) ? null : actor.user_id;
}
