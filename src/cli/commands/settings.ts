/** `ledger settings get|set retained-earnings-account <account>`. */
import type { Command } from 'commander';
import { LOCAL_OPERATOR } from '../../service/actor.js';
import { printJson } from '../output.js';
import { printFields } from '../render/format.js';
import { resolveAccount } from '../resolve-names.js';
import { withService } from '../with-service.js';

export function registerSettingsCommands(program: Command): void {
  const settings = program.command('settings').description('Ledger settings');

  settings.command('get')
    .description('Show the settings')
    .addHelpText('after', '\nExample:\n  $ ledger settings get')
    .action(withService(async (service, { json }) => {
      const current = await service.getSettings();
      if (json) printJson({ data: current });
      else printFields([['Retained earnings account', current.retained_earnings_account_id]]);
    }));

  const set = settings.command('set').description('Change a setting');
  set.command('retained-earnings-account <account>')
    .description('Set the retained earnings account (an active equity account, not a control account; by id, number or name)')
    .addHelpText('after', '\nExample:\n  $ ledger settings set retained-earnings-account 3000')
    .action(withService(async (service, { json }, _options, text: string) => {
      const updated = await service.updateSettings(LOCAL_OPERATOR, { retained_earnings_account_id: await resolveAccount(service, text, 'account') });
      if (json) printJson({ data: updated });
      else printFields([['Retained earnings account', updated.retained_earnings_account_id]]);
    }));
}
