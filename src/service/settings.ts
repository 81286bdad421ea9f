import { fieldChanges } from '../domain/audit.js';
import { validationError } from '../domain/errors.js';
import type { SettingsView, UpdateSettingsInput } from '../schemas/settings.js';
import { type Actor, requirePermission } from './actor.js';
import { recordAudit } from './audit-log.js';
import type { ServiceContext } from './context.js';
import type { LedgerReads } from './ports/ledger-store.js';

export const RETAINED_EARNINGS_KEY = 'retained_earnings_account_id';

async function readSettings(reads: LedgerReads): Promise<SettingsView> {
  return { retained_earnings_account_id: (await reads.getSetting(RETAINED_EARNINGS_KEY)) ?? null };
}

export async function getSettings(ctx: ServiceContext): Promise<SettingsView> {
  return readSettings(ctx.store);
}

export async function updateSettings(ctx: ServiceContext, actor: Actor, input: UpdateSettingsInput): Promise<SettingsView> {
  requirePermission(actor, 'settings:write');
  const field = 'retained_earnings_account_id';
  return ctx.store.write(async (tx) => {
    const account = await tx.getAccount(input.retained_earnings_account_id);
    if (!account) throw validationError(`Account ${input.retained_earnings_account_id} does not exist`, field);
    if (account.account_type !== 'equity') {
      throw validationError(`Account ${account.account_number} is a ${account.account_type} account, not equity`, field,
        'Choose an equity account such as Retained Earnings');
    }
    if (!account.is_active) throw validationError(`Account ${account.account_number} is inactive`, field);
    if (account.has_subledger) {
      throw validationError(`Account ${account.account_number} is a control account`, field,
        'Choose an equity account without sub-accounts');
    }
    const before = await readSettings(tx);
    await tx.setSetting(RETAINED_EARNINGS_KEY, account.id);
    const after = await readSettings(tx);
    await recordAudit(ctx, tx, actor, {
      action: 'settings.update', target_type: 'settings', target_id: null, changes: fieldChanges(before, after, [field]),
    });
    return after;
  });
}
