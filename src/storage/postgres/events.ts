/** The change feed (service/ports/events-store.ts). */
import type { EventsReads, EventsWrites, NewEvent, StoredEvent } from '../../service/ports/events-store.js';
import { eventsQuery } from '../shared/events.js';
import { lockNumbers } from './posting.js';
import type { PgQueries } from './queries.js';
import type { WriteTransaction } from './write-transaction.js';

type EventRow = Omit<StoredEvent, 'seq'> & { seq: string };

export abstract class PostgresEventsReads implements EventsReads {
  declare readonly q: PgQueries;

  async listEvents(after: number, types: readonly string[] | undefined, limit: number): Promise<StoredEvent[]> {
    const { sql, params } = eventsQuery(after, types, limit, (index) => `$${index}`);
    const rows = await this.q.all<EventRow>(sql, ...params);
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  }

  async lastEventSeq(): Promise<number> {
    return Number((await this.q.get<{ last: string }>('SELECT last_event::text AS last FROM entry_numbers'))!.last);
  }
}

export abstract class PostgresEventsWrites implements EventsWrites {
  declare readonly q: PgQueries;
  declare readonly transaction: WriteTransaction;

  /** Numbered from the numbers' row, held until COMMIT (posting.ts), so the number is the next in commit order. */
  async insertEvent(event: NewEvent): Promise<number> {
    await lockNumbers(this.transaction);
    const seq = this.transaction.buffer.nextEvent();
    await this.q.run(`INSERT INTO events (seq, id, type, occurred_at, actor_id, request_id, data) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      seq, event.id, event.type, event.occurred_at, event.actor_id, event.request_id, event.data);
    return seq;
  }
}
