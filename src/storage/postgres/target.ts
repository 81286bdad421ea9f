/**
 * Where the ledger's PostgreSQL connections go (docs/operations.md, "Failover" and "PgBouncer").
 *
 * A URL may name several hosts in the libpq way, `postgres://u:p@h1:5432,h2:5432/db?
 * target_session_attrs=read-write`; `pg` reads one host, so the hosts are tried here, in order,
 * and the first that accepts writes is used (libpq checks `SHOW transaction_read_only` for
 * `read-write`, and `pg_is_in_recovery()` for `primary`; both are honoured the same way). Without
 * `target_session_attrs` (libpq's `any`) the first host that answers is used.
 *
 * `pgbouncer=true` says the URL goes through a pooler in transaction mode: no statement is
 * prepared by name (a named statement lives on one server connection, and the pooler hands the
 * next transaction another). Neither parameter is passed on to `pg`.
 */
export interface HostPort {
  host: string;
  port: number;
}

export type SessionAttrs = 'any' | 'read-write' | 'primary';

export interface PostgresTarget {
  hosts: HostPort[];
  sessionAttrs: SessionAttrs;
  /** False behind a transaction-pooling pooler (`pgbouncer=true`): statements are not prepared by name. */
  prepared: boolean;
  /** The URL `pg` is given to reach one of the hosts. */
  urlFor(host: HostPort): string;
  /** The URL for messages: every host, no password. */
  described: string;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/i;

/** Throws a plain Error with what is wrong; the caller words it for its face. */
export function parsePostgresTarget(url: string): PostgresTarget {
  const parts = URL_PARTS.exec(url);
  if (parts === null) throw new Error('not a postgres:// URL');
  const [, scheme, userInfo, hostList, rest] = parts as unknown as [string, string, string | undefined, string, string];
  const [pathAndQuery, fragment = ''] = rest.split('#', 2) as [string, string?];
  const queryStart = pathAndQuery.indexOf('?');
  const path = queryStart === -1 ? pathAndQuery : pathAndQuery.slice(0, queryStart);
  const params = new URLSearchParams(queryStart === -1 ? '' : pathAndQuery.slice(queryStart + 1));
  const sessionAttrs = sessionAttrsOf(params.get('target_session_attrs'));
  const pgbouncer = params.get('pgbouncer');
  if (pgbouncer !== null && pgbouncer !== 'true' && pgbouncer !== 'false') throw new Error('pgbouncer must be true or false');
  params.delete('target_session_attrs');
  params.delete('pgbouncer');
  const query = params.toString();
  const tail = `${path}${query === '' ? '' : `?${query}`}${fragment === '' ? '' : `#${fragment}`}`;
  const hosts = hostList === '' ? [] : hostList.split(',').map(parseHost);
  const user = userInfo === undefined ? '' : `${userInfo}@`;
  const publicUser = userInfo === undefined ? '' : `${userInfo.includes(':') ? `${userInfo.slice(0, userInfo.indexOf(':'))}:***` : userInfo}@`;
  return {
    hosts,
    sessionAttrs,
    prepared: pgbouncer !== 'true',
    // A URL without a host (a Unix socket in ?host=) is given to pg as it was, less our parameters.
    urlFor: (host) => `${scheme}${user}${hosts.length === 0 ? '' : formatHost(host)}${tail}`,
    described: `${scheme}${publicUser}${hostList}${tail}`,
  };
}

function sessionAttrsOf(value: string | null): SessionAttrs {
  if (value === null || value === 'any') return 'any';
  if (value === 'read-write' || value === 'primary') return value;
  throw new Error(`target_session_attrs=${value} is not supported: the ledger writes, so use read-write (or primary, or leave it out)`);
}

function parseHost(text: string): HostPort {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:[\]]+)(?::(\d*))?$/.exec(text);
  const match = bracketed ?? plain;
  if (match === null || match[1] === undefined || match[1] === '') throw new Error(`"${text}" is not a host or host:port`);
  const port = match[2] === undefined || match[2] === '' ? 5432 : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`"${text}" has no valid port`);
  return { host: match[1], port };
}

function formatHost({ host, port }: HostPort): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export function describeHost(host: HostPort): string {
  return formatHost(host);
}
