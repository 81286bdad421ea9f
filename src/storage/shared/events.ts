/**
 * The change feed's query, shared by both stores (service/ports/events-store.ts): the posts, read
 * from the entries by their event number, merged with the other events' rows, oldest first. Each
 * side takes its first `limit` rows in number order from its own index, so a page reads at most
 * twice its length.
 */
import { LOCAL_OPERATOR_ID } from '../../domain/audit.js';

const POSTED = 'entry.posted';

export function eventsQuery(after: number, types: readonly string[] | undefined, limit: number, placeholder: (index: number) => string):
  { sql: string; params: (string | number)[] } {
  const params: (string | number)[] = [];
  const add = (value: string | number) => {
    params.push(value);
    return placeholder(params.length);
  };
  const parts: string[] = [];
  if (types === undefined || types.includes(POSTED)) {
    parts.push(`SELECT * FROM (SELECT event_seq AS seq, id, '${POSTED}' AS type, posted_at AS occurred_at,
      CASE WHEN created_by = ${add(LOCAL_OPERATOR_ID)} THEN NULL ELSE created_by END AS actor_id, request_id, NULL AS data, id AS entry_id
      FROM journal_entries WHERE event_seq > ${add(after)} ORDER BY event_seq LIMIT ${add(limit)}) AS posts`);
  }
  const others = types?.filter((type) => type !== POSTED);
  if (others === undefined || others.length > 0) {
    // Placeholders are numbered in the order they are added: `?` (SQLite) is positional.
    const from = add(after);
    const only = others === undefined ? '' : ` AND type IN (${others.map((type) => add(type)).join(', ')})`;
    parts.push(`SELECT * FROM (SELECT seq, id, type, occurred_at, actor_id, request_id, data, NULL AS entry_id
      FROM events WHERE seq > ${from}${only} ORDER BY seq LIMIT ${add(limit)}) AS changes`);
  }
  return { sql: `SELECT * FROM (${parts.join(' UNION ALL ')}) AS feed ORDER BY seq LIMIT ${add(limit)}`, params };
}
