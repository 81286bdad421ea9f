/**
 * Where the ledger lives: a SQLite file path (the default) or a PostgreSQL URL
 * (`postgres://user:pass@host:port/dbname`, `postgresql://` too), as given by --db or LEDGER_DB.
 */
import { StoreOpenError } from '../service/ports/store-errors.js';

export type DatabaseLocation =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string };

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export function parseDatabaseLocation(text: string): DatabaseLocation {
  if (!POSTGRES_URL.test(text)) return { kind: 'sqlite', path: text };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StoreOpenError('VALIDATION_ERROR', 'The PostgreSQL URL is malformed',
      'Use postgres://user:password@host:port/dbname (percent-encode special characters in the password)');
  }
  if (url.hostname === '' && !url.searchParams.has('host')) {
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
  const url = new URL(location.url);
  if (url.password !== '') url.password = '***';
  return url.toString();
}
