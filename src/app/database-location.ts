/**
 * Where the ledger lives: a SQLite file path (the default) or a PostgreSQL URL
 * (`postgres://user:pass@host:port/dbname`, `postgresql://` too), as given by --db or LEDGER_DB.
 */
import { StoreOpenError } from '../service/ports/store-errors.js';
import { parsePostgresTarget, type PostgresTarget } from '../storage/postgres/target.js';

export type DatabaseLocation =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string };

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export function parseDatabaseLocation(text: string): DatabaseLocation {
  if (!POSTGRES_URL.test(text)) return { kind: 'sqlite', path: text };
  let target: PostgresTarget;
  let url: URL;
  try {
    target = parsePostgresTarget(text);
    // The rest of the URL (user, password, database, parameters) as the first host would have it.
    url = new URL(target.urlFor(target.hosts[0] ?? { host: '', port: 0 }));
  } catch (error) {
    throw new StoreOpenError('VALIDATION_ERROR', `The PostgreSQL URL is malformed${error instanceof Error && !(error instanceof TypeError) ? `: ${error.message}` : ''}`,
      'Use postgres://user:password@host:port/dbname (percent-encode special characters in the password), '
      + 'or host1:port1,host2:port2 with target_session_attrs=read-write for a primary and its standbys');
  }
  if (target.hosts.length === 0 && !url.searchParams.has('host')) {
    throw new StoreOpenError('VALIDATION_ERROR', 'The PostgreSQL URL names no host',
      'Use postgres://user:password@host:port/dbname');
  }
  if (url.pathname.length <= 1) {
    throw new StoreOpenError('VALIDATION_ERROR', 'The PostgreSQL URL names no database',
      'Add the database name: postgres://user:password@host:port/dbname');
  }
  return { kind: 'postgres', url: text };
}

/** The location for messages: a PostgreSQL URL without its password. */
export function describeDatabaseLocation(location: DatabaseLocation): string {
  if (location.kind === 'sqlite') return location.path;
  return parsePostgresTarget(location.url).described;
}
