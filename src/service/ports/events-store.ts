/**
 * The change feed (docs/events.md): every committed change is one event, numbered `seq` from 1 in
 * commit order without gaps. A posted entry is its own event (`entry.posted`, like its own audit
 * record): its number is a column of the entry, given as it is inserted, and its data is read from
 * the entry. Other changes append an event row in their own transaction. Both draw their numbers
 * from one counter that a write holds until it commits (SQLite: the one writer; PostgreSQL: the
 * numbers' row, locked), so a rolled-back job takes its numbers with it and nothing is skipped.
 */

/** An event as stored: `data` is the resource's JSON, or null for a post (the entry `entry_id`, read by the service). */
export interface StoredEvent {
  seq: number;
  id: string;
  type: string;
  occurred_at: string;
  actor_id: string | null;
  request_id: string | null;
  data: string | null;
  entry_id: string | null;
}

/** An event other than a post, to append: its number is given by the store. */
export type NewEvent = Omit<StoredEvent, 'seq' | 'entry_id' | 'data'> & { data: string };

export interface EventsReads {
  /** Events after `after`, oldest first, at most `limit`; only the given types when `types` is set. */
  listEvents(after: number, types: readonly string[] | undefined, limit: number): Promise<StoredEvent[]>;
  /** The number of the latest committed event (0 before the first). */
  lastEventSeq(): Promise<number>;
}

export interface EventsWrites {
  /** Appends an event after every other; answers its number. */
  insertEvent(event: NewEvent): Promise<number>;
}
