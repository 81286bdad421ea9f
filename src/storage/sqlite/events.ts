/** The change feed (service/ports/events-store.ts). */
import type { EventsReads, EventsWrites, NewEvent, StoredEvent } from '../../service/ports/events-store.js';
import { eventsQuery } from '../shared/events.js';
import type { SqliteQueries } from './queries.js';

/**
 * The next event number: one more than the highest of the posts' and the other events'. The write
 * transaction is exclusive, so it is the next in commit order; a job rolled back to its savepoint
 * takes its numbers with it. Both maxima are one step down an index.
 */
export const NEXT_EVENT_SEQ = `(SELECT coalesce(max(seq), 0) + 1 FROM (SELECT max(event_seq) AS seq FROM journal_entries
  UNION ALL SELECT max(seq) FROM events))`;

const INSERT_EVENT = `INSERT INTO events (seq, id, type, occurred_at, actor_id, request_id, data)
  VALUES (${NEXT_EVENT_SEQ}, ?, ?, ?, ?, ?, ?) RETURNING seq`;

export abstract class SqliteEventsReads implements EventsReads {
  declare readonly q: SqliteQueries;

  async listEvents(after: number, types: readonly string[] | undefined, limit: number): Promise<StoredEvent[]> {
    const { sql, params } = eventsQuery(after, types, limit, () => '?');
    return this.q.all<StoredEvent>(sql, ...params);
  }

  async lastEventSeq(): Promise<number> {
    return this.q.get<{ seq: number }>(`SELECT ${NEXT_EVENT_SEQ} - 1 AS seq`)!.seq;
  }
}

export abstract class SqliteEventsWrites implements EventsWrites {
  declare readonly q: SqliteQueries;

  async insertEvent(event: NewEvent): Promise<number> {
    return this.q.get<{ seq: number }>(INSERT_EVENT, event.id, event.type, event.occurred_at, event.actor_id, event.request_id, event.data)!.seq;
  }
}
