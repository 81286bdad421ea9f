/**
 * The change feed (docs/events.md) is numbered 1, 2, ... without gaps or repeats: what a reader of
 * the feed relies on to know it missed nothing. Read in pages after the entries' scan, from the
 * same snapshot.
 */
import type { CheckDefinition } from './check.js';

const PAGE = 1000;

export const eventFeedCheck: CheckDefinition = {
  name: 'event_feed',
  description: 'the change feed\'s events are numbered 1, 2, ... without gaps or repeats',
  create: ({ reads, report }) => ({
    async finish() {
      let expected = 1;
      for (;;) {
        const events = await reads.listEvents(expected - 1, undefined, PAGE);
        for (const event of events) {
          if (event.seq !== expected) {
            report({ message: `Event seq ${expected} is missing from the change feed: the next event is ${event.seq} (${event.type} ${event.id})`,
              expected: String(expected), found: String(event.seq), ...(event.entry_id === null ? {} : { entry_id: event.entry_id }) });
            // Report the gap once and go on from what is there.
            expected = event.seq;
          }
          expected += 1;
        }
        if (events.length < PAGE) return;
      }
    },
  }),
};
