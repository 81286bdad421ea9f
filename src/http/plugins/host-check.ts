/**
 * The Host header a server answers. A server bound to a loopback address is meant for this machine,
 * yet a web page elsewhere can reach it through DNS rebinding (its own name made to resolve to
 * 127.0.0.1), and on a fresh server that is enough to call `POST /auth/setup` and become its first
 * admin. Such a page always sends its own name as Host, so a loopback-bound server answers only
 * loopback names (`localhost`, `127.x.x.x`, `[::1]`) and the names LEDGER_ALLOWED_HOSTS lists. A
 * server bound elsewhere checks the Host only when LEDGER_ALLOWED_HOSTS is set.
 */
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.js';

export interface HostPolicy {
  /** Host names answered besides the loopback names, lower case, without a port. */
  allowed: readonly string[];
}

/** LEDGER_ALLOWED_HOSTS: comma-separated host names (`books.example.com,ledger.internal`), ports ignored. */
export function parseAllowedHosts(text: string | undefined): string[] {
  return (text ?? '').split(',').map((name) => hostnameOf(name.trim())).filter((name): name is string => name !== undefined && name !== '');
}

/** The policy of a server listening on `listenHost`: none (any Host) unless it is loopback-bound or names are listed. */
export function hostPolicyFor(listenHost: string, allowed: readonly string[]): HostPolicy | undefined {
  return isLoopbackName(listenHost) || allowed.length > 0 ? { allowed } : undefined;
}

export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (name === 'localhost' || name.endsWith('.localhost') || name === '::1') return true;
  return isIP(name) === 4 && name.startsWith('127.');
}

function hostnameOf(hostHeader: string): string | undefined {
  if (hostHeader === '') return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function registerHostCheck(app: FastifyInstance, policy: HostPolicy): void {
  const allowed = new Set(policy.allowed);
  app.addHook('onRequest', async (request, reply) => {
    const name = hostnameOf(request.headers.host ?? '');
    if (name !== undefined && (isLoopbackName(name) || allowed.has(name))) return;
    request.log.warn({ security_event: 'host.refused', host: request.headers.host ?? null, client: request.ip }, 'security: host.refused');
    return sendError(reply, {
      code: 'FORBIDDEN', message: `This server does not answer the host name ${JSON.stringify(request.headers.host ?? '')}`,
      suggestion: 'Reach it as localhost or 127.0.0.1, or list the name in LEDGER_ALLOWED_HOSTS on the server',
    });
  });
}
