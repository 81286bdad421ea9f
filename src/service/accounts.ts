import { fieldChanges, initialValues } from '../domain/audit.js';
import { LedgerError, notFound, validationError } from '../domain/errors.js';
import { netBalance, resolveNewAccount } from '../domain/accounts/new-account.js';
import { formatAmount } from '../domain/money/amount.js';
import type { Account, Totals } from '../domain/types.js';
import type {
  AccountBalanceView, AccountListFilter, AccountTransactionView, AccountView, CreateAccountInput, UpdateAccountInput,
} from '../schemas/account.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit-log.js';
import { boundList } from './cursor.js';
import type { Work } from './use-case.js';
import type { Page, PageInput, ServiceContext } from './context.js';
import { accountLineView } from './views.js';
import type { LedgerReads, LineScope } from './ports/ledger-store.js';

const CREATED_FIELDS = [
  'account_number', 'name', 'currency_id', 'account_type', 'normal_balance', 'has_subledger', 'parent_id', 'entity_id', 'xbrl_tag',
  'is_active',
] as const;
const UPDATABLE_FIELDS = ['name', 'is_active', 'xbrl_tag'] as const;

export function createAccount(ctx: ServiceContext, actor: Actor, input: CreateAccountInput): Work<AccountView> {
  return async (tx) => {
    const parent = input.parent_id ? await tx.getAccount(input.parent_id) : undefined;
    const resolved = resolveNewAccount(input, parent);
    if (!(await tx.getCurrency(resolved.currency_id))) {
      throw validationError(`Currency ${resolved.currency_id} does not exist`, 'currency_id',
        'Use the id of an existing currency (GET /api/v1/currencies)');
    }
    // In the order of the API's Account schema, so the answer an idempotency key keeps is the very JSON the route sends.
    const account: Account = {
      id: ctx.runtime.newId(), account_number: resolved.account_number, name: resolved.name, currency_id: resolved.currency_id,
      account_type: resolved.account_type, normal_balance: resolved.normal_balance, has_subledger: resolved.has_subledger,
      parent_id: resolved.parent_id, entity_id: resolved.entity_id, xbrl_tag: resolved.xbrl_tag, is_active: true, created_at: ctx.now(),
    };
    await tx.insertAccount(account);
    await recordAudit(ctx, tx, actor, {
      action: 'account.create', target_type: 'account', target_id: account.id, changes: initialValues(account, CREATED_FIELDS),
    }, { occurredAt: account.created_at });
    return account;
  };
}

export async function getAccount(ctx: ServiceContext, id: string): Promise<AccountView> {
  return findAccount(ctx.store, id);
}

async function findAccount(reads: LedgerReads, id: string): Promise<Account> {
  const account = await reads.getAccount(id);
  if (!account) throw notFound('Account', id);
  return account;
}

/** Ordered by account_number. */
export async function listAccounts(ctx: ServiceContext, filter: AccountListFilter): Promise<Page<AccountView>> {
  const list = boundList('accounts', filter);
  const request = ctx.pageRequest(list, filter);
  return ctx.store.read(async (reads) => {
    if (filter.currency_id !== undefined && !(await reads.getCurrency(filter.currency_id))) {
      throw notFound('Currency', filter.currency_id, 'currency_id');
    }
    if (filter.parent_id !== undefined) await findAccount(reads, filter.parent_id);
    return ctx.toPage(list, await reads.listAccounts(filter, request), (account) => account);
  });
}

export async function listSubAccounts(ctx: ServiceContext, id: string): Promise<AccountView[]> {
  return ctx.store.read(async (reads) => {
    await findAccount(reads, id);
    return reads.listSubAccounts(id);
  });
}

export function updateAccount(ctx: ServiceContext, actor: Actor, id: string, input: UpdateAccountInput): Work<AccountView> {
  return async (tx) => {
    const before = await findAccount(tx, id);
    await tx.updateAccount(id, { name: input.name, is_active: input.is_active, xbrl_tag: input.xbrl_tag });
    const after = (await tx.getAccount(id))!;
    await recordAudit(ctx, tx, actor, {
      action: 'account.update', target_type: 'account', target_id: id, changes: fieldChanges(before, after, UPDATABLE_FIELDS),
    });
    return after;
  };
}

/**
 * Removes an account created by mistake (in the wrong currency, say): only one that no journal
 * line, sub-account, setting, bank rule, statement or reconciliation uses; otherwise 409
 * ACCOUNT_IN_USE naming what uses it. Audited like its creation.
 */
export function deleteAccount(ctx: ServiceContext, actor: Actor, id: string): Work<AccountView> {
  return async (tx) => {
    const account = await findAccount(tx, id);
    const uses = await tx.accountUses(id);
    const settings = await tx.allSettings();
    if ([...settings.entries()].some(([key, value]) => key.startsWith('retained_earnings') && value === id)) uses.push('the settings');
    if (uses.length > 0) {
      throw new LedgerError('ACCOUNT_IN_USE', `Account ${account.account_number} ${account.name} is used by ${uses.join(', ')}`, {
        suggestion: 'An account in use stays; deactivate it instead (PATCH is_active: false)',
      });
    }
    await tx.deleteAccount(id);
    await recordAudit(ctx, tx, actor, { action: 'account.delete', target_type: 'account', target_id: id, changes: {
      account_number: { old: account.account_number, new: null }, name: { old: account.name, new: null },
      currency_id: { old: account.currency_id, new: null },
    } });
    return account;
  };
}

/** The lines an account shows: its own, or for a control account all its sub-accounts'. */
export function lineScopeOf(account: Account): LineScope {
  return account.has_subledger ? { parent_id: account.id } : { account_id: account.id };
}

/** The posting accounts behind an account: its sub-accounts for a control account, else itself. */
export async function postingAccountIds(reads: LedgerReads, account: Account): Promise<string[]> {
  if (!account.has_subledger) return [account.id];
  return (await reads.listSubAccounts(account.id)).map((sub) => sub.id);
}

/** Sums per-account totals into one pair (all amounts of one currency). */
export function sumTotals(totals: Iterable<Totals>): { debits: bigint; credits: bigint } {
  let debits = 0n;
  let credits = 0n;
  for (const row of totals) {
    debits += row.debit_total;
    credits += row.credit_total;
  }
  return { debits, credits };
}

export async function getAccountBalance(ctx: ServiceContext, id: string, periodId?: string): Promise<AccountBalanceView> {
  const { account, totals, scale } = await ctx.store.read(async (reads) => {
    const found = await findAccount(reads, id);
    if (periodId !== undefined && !(await reads.getPeriod(periodId))) throw notFound('Period', periodId, 'period_id');
    return {
      account: found,
      totals: await reads.accountTotals({ period_id: periodId, account_ids: await postingAccountIds(reads, found) }),
      scale: await ctx.scaleOf(found.currency_id, reads),
    };
  });
  return balanceView(account, totals.values(), scale, periodId ?? null);
}

/** An account's balance as GET /accounts/{id}/balance shows it, from the totals of its posting accounts. */
export function balanceView(account: Account, totals: Iterable<Totals>, scale: number, periodId: string | null): AccountBalanceView {
  const { debits, credits } = sumTotals(totals);
  const net = netBalance(account.normal_balance, debits, credits);
  return {
    account_id: account.id,
    period_id: periodId,
    total_debits: debits.toString(),
    total_credits: credits.toString(),
    net_balance: net.toString(),
    display_debits: formatAmount(debits, scale),
    display_credits: formatAmount(credits, scale),
    display_balance: formatAmount(net, scale),
  };
}

/** Lines posted to the account (and its sub-accounts), oldest first by entry date then posting order. */
export async function listAccountTransactions(ctx: ServiceContext, id: string, input: PageInput): Promise<Page<AccountTransactionView>> {
  const list = `transactions:${id}`;
  const request = ctx.pageRequest(list, input);
  return ctx.store.read(async (reads) => {
    const account = await findAccount(reads, id);
    const page = await reads.listAccountLines(lineScopeOf(account), {}, 'asc', request);
    const scale = await ctx.scaleOf(account.currency_id, reads);
    return ctx.toPage(list, page, (line) => ({ ...accountLineView(line, scale), account_name: line.account_name }));
  });
}

/** The whole chart of accounts, ordered by account number (charts are small: one read). */
export async function chartOfAccounts(ctx: ServiceContext): Promise<AccountView[]> {
  return ctx.store.read(async (reads) => reads.allAccounts());
}
