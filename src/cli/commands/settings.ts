/** `ledger settings get`, `ledger settings set|unset company-name|retained-earnings-account|lock-date|base-currency`. */
import type { Command } from 'commander';
import type { SettingsView, UpdateSettingsInput } from '../../schemas/settings.js';
import { LOCAL_OPERATOR } from '../../service/actor.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { printJson } from '../output.js';
import { printFields } from '../render/format.js';
import { resolveAccount, resolveCurrency } from '../resolve-names.js';
import { withService } from '../with-service.js';

/** The settings as lines: the company name, base currency, lock date, the default account, then one line per other currency (by its code). */
async function printSettings(service: LedgerService, settings: SettingsView): Promise<void> {
  const base = settings.base_currency_id === null ? null
    : (await service.getCurrency(settings.base_currency_id).catch(() => undefined))?.code ?? settings.base_currency_id;
  const fields: [string, string | null][] = [['Company name', settings.company_name],
    ['Base currency', base],
    ['Lock date', settings.lock_date === null ? 'none'
      : `${settings.lock_date} (entries on or before it need periods:override and a reason)`],
    ['Retained earnings account', settings.retained_earnings_account_id]];
  for (const [currencyId, accountId] of Object.entries(settings.retained_earnings_account_ids)) {
    const code = (await service.getCurrency(currencyId).catch(() => undefined))?.code ?? currencyId;
    fields.push([`Retained earnings account (${code})`, accountId]);
  }
  printFields(fields);
}

/** Changes the settings as the local operator and prints them as they are now (`--json`: as the API answers). */
async function update(service: LedgerService, json: boolean | undefined, input: UpdateSettingsInput): Promise<void> {
  const updated = await service.updateSettings(LOCAL_OPERATOR, input);
  if (json) printJson({ data: updated });
  else await printSettings(service, updated);
}

export function registerSettingsCommands(program: Command): void {
  const settings = program.command('settings').description('Ledger settings');

  settings.command('get')
    .description('Show the settings')
    .addHelpText('after', '\nExample:\n  $ ledger settings get')
    .action(withService(async (service, { json }) => {
      const current = await service.getSettings();
      if (json) printJson({ data: current });
      else await printSettings(service, current);
    }));

  const set = settings.command('set').description('Change a setting');
  set.command('company-name <name>')
    .description('Set the company name printed at the top of every report and export (1 to 200 characters, one line)')
    .addHelpText('after', '\nExample:\n  $ ledger settings set company-name "Acme Ltd"')
    .action(withService(async (service, { json }, _options: object, name: string) => {
      await update(service, json, { company_name: name });
    }));

  set.command('retained-earnings-account <account>')
    .description('Set the retained earnings account (an active equity account, not a control account; by id, number or name); '
      + 'with --currency, the one for that currency\'s closing entries')
    .option('--currency <currency>', 'currency id or code: set the retained earnings account of this currency (not the default)')
    .addHelpText('after', '\nExamples:\n  $ ledger settings set retained-earnings-account 3000\n'
      + '  $ ledger settings set retained-earnings-account 0194... --currency EUR')
    .action(withService(async (service, { json }, options: { currency?: string }, text: string) => {
      const id = await resolveAccount(service, text, 'account');
      const input = options.currency === undefined
        ? { retained_earnings_account_id: id }
        : { retained_earnings_account_ids: { [await resolveCurrency(service, options.currency)]: id } };
      await update(service, json, input);
    }));

  set.command('lock-date <date>')
    .description('Lock the books up to a day: entries and reversals dated on or before it need periods:override and a reason')
    .addHelpText('after', '\nExample:\n  $ ledger settings set lock-date 2026-03-31')
    .action(withService(async (service, { json }, _options: object, date: string) => {
      await update(service, json, { lock_date: date });
    }));

  set.command('base-currency <currency>')
    .description('Set the base currency translated reports are shown in (by id or code)')
    .addHelpText('after', '\nExample:\n  $ ledger settings set base-currency USD')
    .action(withService(async (service, { json }, _options: object, currency: string) => {
      await update(service, json, { base_currency_id: await resolveCurrency(service, currency, '<currency>') });
    }));

  const unset = settings.command('unset').description('Remove a setting');
  unset.command('lock-date')
    .description('Remove the lock date')
    .addHelpText('after', '\nExample:\n  $ ledger settings unset lock-date')
    .action(withService(async (service, { json }) => {
      await update(service, json, { lock_date: null });
    }));

  unset.command('base-currency')
    .description('Go back to the retained earnings account\'s currency as the base currency')
    .addHelpText('after', '\nExample:\n  $ ledger settings unset base-currency')
    .action(withService(async (service, { json }) => {
      await update(service, json, { base_currency_id: null });
    }));
  unset.command('company-name')
    .description('Remove the company name: reports and exports print none')
    .addHelpText('after', '\nExample:\n  $ ledger settings unset company-name')
    .action(withService(async (service, { json }) => {
      await update(service, json, { company_name: null });
    }));

  unset.command('retained-earnings-account')
    .description('Remove the retained earnings account of a currency other than the default\'s')
    .requiredOption('--currency <currency>', 'currency id or code')
    .addHelpText('after', '\nExample:\n  $ ledger settings unset retained-earnings-account --currency EUR')
    .action(withService(async (service, { json }, options: { currency: string }) => {
      const currencyId = await resolveCurrency(service, options.currency);
      await update(service, json, { retained_earnings_account_ids: { [currencyId]: null } });
    }));
}
