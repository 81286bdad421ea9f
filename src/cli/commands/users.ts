import { type Command, InvalidArgumentError } from 'commander';
import { globals } from '../global-options.js';
import { printJson } from '../output.js';

function parsePermissions(text: string): Record<string, boolean> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, boolean>;
  } catch {
    throw new InvalidArgumentError('--permissions must be a JSON object such as \'{"journals:create": true}\'');
  }
}

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('Users and service accounts');
  users.command('create-service-account')
    .description('Create a service account and print its API key (shown only once)')
    .requiredOption('--name <name>', 'display name')
    .option('--permissions <json>', 'permissions object; default {"admin": true}', parsePermissions)
    .addHelpText('after', '\nExample:\n  $ ledger users create-service-account --name "Billing agent" --permissions \'{"journals:create": true}\'')
    .action(async (options: { name: string; permissions?: Record<string, boolean> }, command: Command) => {
      const { db, json } = globals(command);
      const { openLedger } = await import('../../app/open-ledger.js');
      const service = await openLedger(db);
      try {
        const created = await service.createServiceAccount(null, { name: options.name, permissions: options.permissions });
        if (json) printJson({ data: created });
        else {
          process.stdout.write(`Created service account ${created.name} (${created.id})\n`);
          process.stdout.write(`API key (shown only once, store it now):\n${created.api_key}\n`);
        }
      } finally {
        await service.ctx.store.close();
      }
    });
}
