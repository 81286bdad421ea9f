/**
 * LEDGER_TRUST_PROXY: which proxies in front of `ledger serve` may name the client in
 * X-Forwarded-For. Off by default, since any client can send that header; the login throttle keys
 * on the client's address, so behind a TLS proxy without this setting every client is the proxy.
 */
import { isIP } from 'node:net';
import { validationError } from '../domain/errors.js';
import type { TrustProxy } from '../http/build-app.js';

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined || isIP(address) === 0) return false;
  if (prefix === undefined) return true;
  const bits = isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= bits;
}

/**
 * `true` (trust every proxy: the left-most X-Forwarded-For address is the client), a hop count
 * (trust that many proxies nearest the server), or comma-separated addresses and CIDRs of the
 * proxies (and `loopback`, `linklocal`, `uniquelocal`); empty or `false` trusts none.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text.toLowerCase() === 'false') return false;
  if (text.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (wrong !== undefined || entries.length === 0) {
    throw validationError(`LEDGER_TRUST_PROXY: ${JSON.stringify(wrong ?? text)} is not true, false, a hop count, an address or a CIDR`,
      'LEDGER_TRUST_PROXY', 'Use e.g. LEDGER_TRUST_PROXY=10.0.0.5 or 10.0.0.0/8,127.0.0.1, or 1 for one proxy in front of the server');
  }
  return entries;
}
