/** `ledger webhooks ...`: webhook endpoints and their deliveries (docs/events.md), as the local operator. */
import type { Command } from 'commander';
import type { WebhookEndpointViewType } from '../../schemas/webhook.js';
import { LOCAL_OPERATOR } from '../../service/actor.js';
import type { DeliveryView } from '../../service/webhooks/endpoints.js';
import { USE_CASES } from '../../service/use-cases.js';
import { printJson } from '../output.js';
import { parseLimit } from '../parse.js';
import { printFields } from '../render/format.js';
import { printTable } from '../render/table.js';
import { withService } from '../with-service.js';

const actor = LOCAL_OPERATOR;

function typesOf(text: string): string[] {
  return text.split(',').map((type) => type.trim()).filter((type) => type !== '');
}

function printEndpoint(endpoint: WebhookEndpointViewType & { secret?: string }): void {
  printFields([
    ['id', endpoint.id], ['url', endpoint.url], ['event types', endpoint.event_types.join(', ')], ['description', endpoint.description],
    ['active', endpoint.is_active], ['disabled because', endpoint.disabled_reason], ['last seq', endpoint.last_seq],
    ['next attempt', endpoint.next_attempt_at], ['created', endpoint.created_at],
    ...(endpoint.secret === undefined ? [] : [['secret (shown once)', endpoint.secret] as const]),
  ]);
}

function printEndpoints(endpoints: readonly WebhookEndpointViewType[]): void {
  printTable(['ID', 'URL', 'TYPES', 'ACTIVE', 'LAST SEQ', 'DISABLED BECAUSE'], endpoints.map((endpoint) => [
    endpoint.id, endpoint.url, endpoint.event_types.join(','), endpoint.is_active ? 'yes' : 'no', endpoint.last_seq, endpoint.disabled_reason ?? '',
  ]));
}

function printDeliveries(deliveries: readonly DeliveryView[]): void {
  printTable(['ATTEMPTED AT', 'EVENT SEQ', 'ATTEMPT', 'STATUS', 'ERROR', 'NEXT ATTEMPT'], deliveries.map((delivery) => [
    delivery.attempted_at, delivery.event_seq, String(delivery.attempt), delivery.status_code === null ? '-' : String(delivery.status_code),
    delivery.error ?? '', delivery.next_attempt_at ?? '',
  ]));
}

export function registerWebhooksCommand(program: Command): void {
  const webhooks = program.command('webhooks').description('Webhook endpoints: where the change feed is delivered, signed');

  webhooks.command('create')
    .description('Create an endpoint; its secret is printed once')
    .requiredOption('--url <url>', 'https:// (or http://) URL that receives the events')
    .option('--types <types>', 'comma-separated event types, or * for all', '*')
    .option('--description <text>', 'what it is for')
    .addHelpText('after', '\nExample:\n  $ ledger webhooks create --url https://example.com/hooks --types entry.posted,period.closed')
    .action(withService(async (service, { json }, options: { url: string; types: string; description?: string }) => {
      const outcome = await service.execute(USE_CASES.create_webhook_endpoint, {
        actor, input: { url: options.url, event_types: typesOf(options.types), description: options.description },
      });
      if (json) printJson({ data: outcome.data });
      else printEndpoint(outcome.data);
    }));

  webhooks.command('list').description('List the endpoints')
    .addHelpText('after', '\nExample:\n  $ ledger webhooks list --json')
    .action(withService(async (service, { json }) => {
      const page = await service.execute(USE_CASES.list_webhook_endpoints, { actor, input: {} });
      if (json) printJson(page);
      else printEndpoints(page.data);
    }));

  webhooks.command('show <id>').description('Show an endpoint')
    .addHelpText('after', '\nExample:\n  $ ledger webhooks show 0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b')
    .action(withService(async (service, { json }, _options, id: string) => {
      const endpoint = await service.execute(USE_CASES.get_webhook_endpoint, { actor, input: { id } });
      if (json) printJson({ data: endpoint });
      else printEndpoint(endpoint);
    }));

  webhooks.command('update <id>').description('Change an endpoint; --enable re-enables a disabled one where it stopped')
    .option('--url <url>', 'a new URL')
    .option('--types <types>', 'comma-separated event types, or *')
    .option('--description <text>', 'a new description')
    .option('--enable', 'deliver again (a disabled endpoint goes on from the event that failed)')
    .option('--disable', 'stop delivering')
    .addHelpText('after', '\nExamples:\n  $ ledger webhooks update 0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b --enable\n'
      + '  $ ledger webhooks update 0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b --types entry.posted,entry.reversed')
    .action(withService(async (service, { json }, options: { url?: string; types?: string; description?: string; enable?: boolean; disable?: boolean },
      id: string) => {
      const outcome = await service.execute(USE_CASES.update_webhook_endpoint, {
        actor, input: {
          id, url: options.url, event_types: options.types === undefined ? undefined : typesOf(options.types), description: options.description,
          is_active: options.enable === true ? true : options.disable === true ? false : undefined,
        },
      });
      if (json) printJson({ data: outcome.data });
      else printEndpoint(outcome.data);
    }));

  webhooks.command('delete <id>').description('Delete an endpoint and its delivery attempts')
    .addHelpText('after', '\nExample:\n  $ ledger webhooks delete 0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b')
    .action(withService(async (service, { json }, _options, id: string) => {
      const outcome = await service.execute(USE_CASES.delete_webhook_endpoint, { actor, input: { id } });
      if (json) printJson({ data: outcome.data });
      else process.stdout.write(`Deleted webhook endpoint ${id}\n`);
    }));

  webhooks.command('rotate-secret <id>').description('A new secret, printed once; the old one keeps signing beside it for 24 hours')
    .addHelpText('after', '\nExample:\n  $ ledger webhooks rotate-secret 0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b')
    .action(withService(async (service, { json }, _options, id: string) => {
      const outcome = await service.execute(USE_CASES.rotate_webhook_secret, { actor, input: { id } });
      if (json) printJson({ data: outcome.data });
      else printEndpoint(outcome.data);
    }));

  webhooks.command('replay <id>').description('Deliver again every event after a seq, in order')
    .requiredOption('--after <seq>', 'the seq to deliver after')
    .addHelpText('after', '\nExample:\n  $ ledger webhooks replay 0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b --after 120')
    .action(withService(async (service, { json }, options: { after: string }, id: string) => {
      const outcome = await service.execute(USE_CASES.replay_webhook_endpoint, { actor, input: { id, after_seq: options.after } });
      if (json) printJson({ data: outcome.data });
      else printEndpoint(outcome.data);
    }));

  webhooks.command('deliveries <id>').description('Delivery attempts, newest first')
    .option('--limit <n>', 'at most n attempts (default 50)', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExample:\n  $ ledger webhooks deliveries 0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b --limit 20')
    .action(withService(async (service, { json }, options: { limit?: number; cursor?: string }, id: string) => {
      const page = await service.execute(USE_CASES.list_webhook_deliveries, { actor, input: { id, limit: options.limit, cursor: options.cursor } });
      if (json) printJson(page);
      else printDeliveries(page.data);
    }));
}
