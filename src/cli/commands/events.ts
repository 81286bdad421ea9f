/** `ledger events tail`: the change feed (docs/events.md), read from the database like every command. */
import type { Command } from 'commander';
import type { EventView } from '../../service/events.js';
import { LOCAL_OPERATOR } from '../../service/actor.js';
import { USE_CASES } from '../../service/use-cases.js';
import { withService } from '../with-service.js';

interface TailOptions {
  after?: string;
  follow?: boolean;
  type?: string[];
}

/** Without --after, the last this many events are shown first (as `tail` does). */
const LAST = 10;
/** How often --follow looks for new events. */
const FOLLOW_MS = 500;

function collectType(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((type) => type.trim()).filter((type) => type !== '')];
}

/** One line per event: its seq, when, its type and id, and what it is about. */
function eventLine(event: EventView): string {
  const data = event.data as { name?: unknown; entry_number?: unknown; description?: unknown; code?: unknown } | null;
  const about = event.type === 'entry.posted'
    ? `#${String(data?.entry_number)} ${String(data?.description ?? '')}`
    : String(data?.name ?? data?.code ?? '');
  return [event.seq, event.occurred_at, event.type, event.id, about].join('  ').trimEnd();
}

export function registerEventsCommand(program: Command): void {
  const events = program.command('events').description('The change feed: every committed change, numbered without gaps');
  events.command('tail')
    .description(`Print events after a seq (default: the last ${LAST}), oldest first; --follow keeps printing new ones`)
    .option('--after <seq>', 'start after this seq (0: from the first event)')
    .option('--follow', 'keep waiting for new events until interrupted')
    .option('--type <types>', 'only these types (comma-separated or repeated), e.g. entry.posted', collectType)
    .addHelpText('after', '\nExamples:\n  $ ledger events tail --after 0\n  $ ledger events tail --follow --type entry.posted --json\n\n'
      + 'With --json each event is one line of JSON (the API\'s event shape).')
    .action(withService(async (service, { json }, options: TailOptions) => {
      const actor = LOCAL_OPERATOR;
      const types = options.type === undefined || options.type.length === 0 ? undefined : options.type.join(',');
      let after = options.after ?? String(Math.max(0, Number((await service.execute(USE_CASES.last_event, { actor, input: {} })).seq) - LAST));
      let stopped = false;
      const stop = () => { stopped = true; };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        while (!stopped) {
          const page = await service.execute(USE_CASES.list_events, { actor, input: { after, types, limit: 500 } });
          for (const event of page.data) {
            process.stdout.write(`${json ? JSON.stringify(event) : eventLine(event)}\n`);
            after = event.seq;
          }
          if (page.has_more) continue;
          if (!options.follow) break;
          await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
        }
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    }));
}
