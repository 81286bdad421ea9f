import { describe, expect, it } from 'vitest';
import { parsePostgresTarget } from './target.js';

describe('a PostgreSQL URL\'s target', () => {
  it('reads several hosts in the libpq way, each with its port (5432 by default), and gives pg one at a time', () => {
    const target = parsePostgresTarget('postgres://u:p%40ss@db1:5433,db2,[::1]:6000/books?target_session_attrs=read-write&sslmode=disable');
    expect(target.hosts).toEqual([{ host: 'db1', port: 5433 }, { host: 'db2', port: 5432 }, { host: '::1', port: 6000 }]);
    expect(target.sessionAttrs).toBe('read-write');
    expect(target.prepared).toBe(true);
    expect(target.urlFor(target.hosts[1]!)).toBe('postgres://u:p%40ss@db2:5432/books?sslmode=disable');
    expect(target.urlFor(target.hosts[2]!)).toBe('postgres://u:p%40ss@[::1]:6000/books?sslmode=disable');
    expect(target.described).toBe('postgres://u:***@db1:5433,db2,[::1]:6000/books?sslmode=disable');
  });

  it('takes one host as it is, primary as read-write\'s like, and pgbouncer=true as no named statements', () => {
    const one = parsePostgresTarget('postgresql://ledger@localhost/books?pgbouncer=true');
    expect(one).toMatchObject({ hosts: [{ host: 'localhost', port: 5432 }], sessionAttrs: 'any', prepared: false });
    expect(one.urlFor(one.hosts[0]!)).toBe('postgresql://ledger@localhost:5432/books');
    expect(parsePostgresTarget('postgres://a,b/books?target_session_attrs=primary').sessionAttrs).toBe('primary');
    const socket = parsePostgresTarget('postgres:///books?host=/var/run/postgresql');
    expect(socket.hosts).toEqual([]);
    expect(new URL(socket.urlFor({ host: '', port: 0 })).searchParams.get('host')).toBe('/var/run/postgresql');
  });

  it.each([
    ['postgres://a,b/books?target_session_attrs=read-only', /target_session_attrs=read-only is not supported/],
    ['postgres://a,b/books?target_session_attrs=standby', /not supported/],
    ['postgres://a:99999/books', /no valid port/],
    ['postgres://a,,b/books', /is not a host/],
    ['postgres://[bad/books', /is not a host/],
    ['postgres://a/books?pgbouncer=yes', /pgbouncer must be true or false/],
  ])('refuses %s', (url, message) => {
    expect(() => parsePostgresTarget(url)).toThrow(message);
  });
});
