/** `ledger audit-log`: the audit trail, newest first, with the API's filters. */
import { type Command, Option } from 'commander';
import { AUDIT_ACTIONS } from '../../domain/audit.js';
import type { AuditRecordView } from '../../schemas/audit.js';
import { LOCAL_OPERATOR } from '../../service/actor.js';
import { printJson } from '../output.js';
import { collect } from '../paging.js';
import { parseLimit } from '../parse.js';
import { printTable } from '../render/table.js';
import { withService } from '../with-service.js';

interface AuditLogOptions {
  actor?: string;
  action?: string;
  target?: string;
  start?: string;
  end?: string;
  sort?: 'asc' | 'desc';
  limit?: number;
  cursor?: string;
}

/** `name: "Old" → "New"; is_active: true → false`: values as JSON, so null and text stay apart. */
export function describeChanges(changes: AuditRecordView['changes']): string {
  if (changes === null) return '';
  return Object.entries(changes)
    .map(([field, change]) => `${field}: ${JSON.stringify(change.old)} → ${JSON.stringify(change.new)}`)
    .join('; ');
}

function printAuditLog(records: AuditRecordView[]): void {
  printTable(['OCCURRED AT', 'ACTION', 'ACTOR', 'CREDENTIAL', 'TARGET', 'CHANGES', 'REQUEST'], records.map((record) => [
    record.occurred_at, record.action, record.actor_id ?? '-',
    record.credential_type === null ? '' : `${record.credential_type} ${record.credential_id ?? '?'}`,
    record.target_type === null ? '' : `${record.target_type} ${record.target_id ?? ''}`.trimEnd(),
    describeChanges(record.changes), record.request_id ?? '',
  ]));
}

export function registerAuditLogCommand(program: Command): void {
  program.command('audit-log')
    .description('Show the audit log: every change, login and logout, newest first (every record unless --limit is given)')
    .option('--actor <user-id>', 'only what this user did')
    .addOption(new Option('--action <action>', 'only this kind of record').choices(AUDIT_ACTIONS))
    .option('--target <id>', 'only records about this currency, account, period, entry or user')
    .option('--start <date>', 'only records from this day on (UTC)')
    .option('--end <date>', 'only records up to this day (UTC)')
    .addOption(new Option('--sort <order>', 'desc: newest first (default); asc: oldest first').choices(['asc', 'desc']))
    .option('--limit <n>', 'return one page of at most n records (--cursor continues)', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExamples:\n  $ ledger audit-log --action user.update\n  $ ledger audit-log --target 0193... --json')
    .action(withService(async (service, { json }, options: AuditLogOptions) => {
      const filter = {
        actor_id: options.actor, action: options.action as AuditRecordView['action'] | undefined, target_id: options.target,
        start_date: options.start, end_date: options.end, sort: options.sort,
      };
      // Whoever can open the database file may read its log, as the local operator (an admin).
      const page = await collect((cursor) => service.listAuditLog(LOCAL_OPERATOR, { ...filter, limit: options.limit ?? 200, cursor }), options);
      if (json) printJson(page);
      else printAuditLog(page.data);
    }));
}
