/** `ledger users ...`: list, get and create users and service accounts on the database file. */
import { type Command, InvalidArgumentError } from 'commander';
import { validationError } from '../../domain/errors.js';
import { checkedBody } from '../checked-body.js';
import { actorIfApiKey, withService } from '../with-service.js';
import { type PasswordOptions, readPassword } from '../read-password.js';
import { printJson } from '../output.js';
import { printTable } from '../render/table.js';
import { collect } from '../paging.js';
import { parseLimit } from '../parse.js';
import type { UserView } from '../../schemas/user.js';

function parsePermissions(text: string): Record<string, boolean> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, boolean>;
  } catch {
    throw new InvalidArgumentError('--permissions must be a JSON object such as \'{"journals:create": true}\'');
  }
}

function permissionList(user: UserView): string {
  return Object.entries(user.permissions).filter(([, on]) => on).map(([key]) => key).join(', ') || '(read only)';
}

function printUsers(users: UserView[]): void {
  printTable(['ID', 'NAME', 'TYPE', 'EMAIL', 'ACTIVE', 'PERMISSIONS'],
    users.map((user) => [user.id, user.name, user.user_type, user.email ?? '', user.is_active ? 'yes' : 'no', permissionList(user)]));
}

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('Users and service accounts');

  users.command('list')
    .description('List users (every user unless --limit is given)')
    .option('--limit <n>', 'return one page of at most n users (--cursor continues)', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExample:\n  $ ledger users list --json')
    .action(withService(async (service, { json }, options: { limit?: number; cursor?: string }) => {
      const page = await collect((cursor) => service.listUsers({ limit: options.limit ?? 200, cursor }), options);
      if (json) printJson(page);
      else printUsers(page.data);
    }));

  users.command('get <id>')
    .description('Show one user')
    .addHelpText('after', '\nExample:\n  $ ledger users get 01934f6e-...')
    .action(withService(async (service, { json }, _options, id: string) => {
      const user = await service.getUser(id);
      if (json) printJson({ data: user });
      else printUsers([user]);
    }));

  users.command('create')
    .description('Create a human user who logs in with e-mail and password (an admin unless --permissions)')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--email <email>', 'login e-mail')
    .option('--password-stdin', 'read the password from standard input (without it: a prompt at a terminal)')
    .option('--password <password>', 'the password on the command line: visible in the process list, so avoid it')
    .option('--permissions <json>', 'permissions object; default {"admin": true}', parsePermissions)
    .addHelpText('after', '\nExamples:\n  $ ledger users create --name "Ann" --email ann@example.com --permissions \'{"journals:create": true}\'\n'
      + '  $ pass show ledger/ann | ledger users create --name "Ann" --email ann@example.com --password-stdin')
    .action(withService(async (service, global, options: { name: string; email: string; permissions?: Record<string, boolean> } & PasswordOptions) => {
      const { json } = global;
      const password = await readPassword(options, !json);
      const body = await checkedBody(async () => (await import('../../schemas/user.js')).CreateUserBody,
        { name: options.name, email: options.email, password, permissions: options.permissions });
      const user = await service.createUser(await actorIfApiKey(service, global), body);
      if (json) printJson({ data: user });
      else process.stdout.write(`Created user ${user.name} <${user.email}> (${user.id})\n`);
    }));

  users.command('create-service-account')
    .description('Create a service account and print its API key (shown only once)')
    .requiredOption('--name <name>', 'display name')
    .option('--permissions <json>', 'permissions object; default {"admin": true}', parsePermissions)
    .addHelpText('after', '\nExample:\n  $ ledger users create-service-account --name "Billing agent" --permissions \'{"journals:create": true}\'')
    .action(withService(async (service, global, options: { name: string; permissions?: Record<string, boolean> }) => {
      const { json } = global;
      const body = await checkedBody(async () => (await import('../../schemas/user.js')).CreateServiceAccountBody,
        { name: options.name, permissions: options.permissions });
      const created = await service.createServiceAccount(await actorIfApiKey(service, global), body);
      if (json) printJson({ data: created });
      else {
        process.stdout.write(`Created service account ${created.name} (${created.id})\n`);
        process.stdout.write(`API key (shown only once, store it now):\n${created.api_key}\n`);
      }
    }));

  users.command('update <id>')
    .description('Rename a user, replace its permissions, or deactivate or reactivate it')
    .option('--name <name>', 'new display name')
    .option('--permissions <json>', 'the new permissions object (replaces the old one)', parsePermissions)
    .option('--deactivate', 'the user can no longer sign in or use its key; its sessions end')
    .option('--activate', 'the user may sign in (or use its key) again')
    .addHelpText('after', '\nWith an API key (--api-key or LEDGER_API_KEY) the change is made as that key\'s user, under the API\'s rules:\n'
      + 'a user manager who is not an admin changes only users whose permissions it holds itself.\n'
      + '\nExamples:\n  $ ledger users update 01963c5e-... --deactivate\n  $ ledger users update 01963c5e-... --permissions \'{"journals:create": true}\'')
    .action(withService(async (service, global, options: { name?: string; permissions?: Record<string, boolean>; deactivate?: boolean; activate?: boolean },
      id: string) => {
      if (options.activate && options.deactivate) throw validationError('--activate and --deactivate exclude each other', '--activate');
      const isActive = options.activate ? true : options.deactivate ? false : undefined;
      const body = await checkedBody(async () => (await import('../../schemas/user.js')).UpdateUserBody,
        { name: options.name, permissions: options.permissions, is_active: isActive });
      const user = await service.updateUser(await actorIfApiKey(service, global), id, body);
      if (global.json) printJson({ data: user });
      else printUsers([user]);
    }));

  users.command('rotate-key <id>')
    .description('Give a service account a new API key and print it (shown only once); its old key stops working at once')
    .addHelpText('after', '\nExample:\n  $ ledger users rotate-key 01963c5e-7f6a-7c1e-9d2b-3f4a5b6c7d8e')
    .action(withService(async (service, global, _options, id: string) => {
      const { json } = global;
      const rotated = await service.rotateApiKey(await actorIfApiKey(service, global), id);
      if (json) printJson({ data: rotated });
      else {
        process.stdout.write(`Rotated the API key of ${rotated.name} (${rotated.id}); the old key no longer works\n`);
        process.stdout.write(`New API key (shown only once, store it now):\n${rotated.api_key}\n`);
      }
    }));
}
