/**
 * Where a webhook may go. A webhook makes the server send requests to a URL its caller chooses, so
 * without a guard anyone allowed to manage webhooks could make it reach what only the server can:
 * its own admin ports, the database, the internal network, a cloud metadata service handing out
 * credentials. The contract refuses any host that is, or resolves to, an address outside the
 * public internet, unless LEDGER_WEBHOOK_ALLOW_PRIVATE=true (a deployment whose receivers live
 * on its own network).
 *
 * Two checks: `checkWebhookUrl` when an endpoint is created or changed (a VALIDATION_ERROR the
 * caller can act on), and `resolveDeliveryAddress` before every delivery, which returns the
 * address to connect to. A name checked once can resolve elsewhere later (DNS rebinding), so the
 * delivery must connect to exactly the address this module approved, never look the name up again.
 *
 * Odd IPv4 spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) need no code here: the WHATWG
 * URL parser turns every one of them into a dotted quad or refuses the URL.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { validationError } from '../../domain/errors.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Looks a host name up as the system would (dns.lookup with all: true); tests inject their own. */
export type AddressLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface AddressGuardOptions {
  /** LEDGER_WEBHOOK_ALLOW_PRIVATE: skip the address check (the scheme and credential checks remain). */
  allowPrivate: boolean;
  lookup?: AddressLookup;
}

const ALLOW_PRIVATE_HINT = 'set LEDGER_WEBHOOK_ALLOW_PRIVATE=true if receivers on private networks are intended';

/**
 * Lookup failures that mean "this name does not resolve now". The contract accepts such a URL (a
 * receiver's DNS may not exist yet); every delivery resolves it again and checks what it finds.
 */
const UNRESOLVED_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA']);

const systemLookup: AddressLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Checks the URL of an endpoint being created or updated and answers it parsed (normalised: store
 * `href`, not the text given). Refuses, with a VALIDATION_ERROR naming `url`: text that is not a
 * URL, a scheme other than http(s), a user name or password in the URL, and (unless allowPrivate)
 * a host that is a forbidden address or resolves to one. A name that does not resolve is accepted.
 */
export async function checkWebhookUrl(url: string, options: AddressGuardOptions): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw validationError(`${JSON.stringify(url)} is not a valid URL`, 'url', 'Give an absolute URL such as https://example.com/webhooks');
  }
  const problem = urlProblem(parsed);
  if (problem !== undefined) throw validationError(problem.message, 'url', problem.suggestion);
  if (options.allowPrivate) return parsed;

  const literal = addressLiteral(parsed);
  if (literal !== undefined) {
    const kind = forbiddenAddressKind(literal);
    if (kind !== undefined) {
      throw validationError(`Webhook URL host ${parsed.hostname} is ${article(kind)} ${kind} address`, 'url',
        `Use a public host, or ${ALLOW_PRIVATE_HINT}`);
    }
    return parsed;
  }
  if (isLocalhostName(parsed.hostname)) {
    throw validationError(`Webhook URL host ${parsed.hostname} is a loopback name`, 'url', `Use a public host, or ${ALLOW_PRIVATE_HINT}`);
  }

  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await (options.lookup ?? systemLookup)(parsed.hostname);
  } catch (error) {
    if (isUnresolved(error)) return parsed;
    throw error;
  }
  for (const { address } of addresses) {
    const kind = forbiddenAddressKind(address);
    // The address itself stays out of the message: whoever may manage webhooks need not learn
    // what the server's internal DNS answers for a name.
    if (kind !== undefined) {
      throw validationError(`Webhook URL host ${parsed.hostname} resolves to ${article(kind)} ${kind} address`, 'url',
        `Use a host that resolves only to public addresses, or ${ALLOW_PRIVATE_HINT}`);
    }
  }
  return parsed;
}

/**
 * The address a delivery to `url` connects to, checked now, just before connecting. The caller
 * must pin the connection to it (`lookup` option of http.request answering this address, the
 * original host name kept for the Host header and TLS's servername), so that a second DNS answer
 * cannot send the request elsewhere. When a name resolves to several addresses and any is
 * forbidden the delivery is refused, as `checkWebhookUrl` refuses it; otherwise the resolver's
 * first is used. Throws an Error whose message suits a delivery attempt's `error` field.
 */
export async function resolveDeliveryAddress(url: URL, options: AddressGuardOptions): Promise<{ address: string; family: 4 | 6 }> {
  const problem = urlProblem(url);
  if (problem !== undefined) throw new Error(problem.message);

  const literal = addressLiteral(url);
  if (literal !== undefined) return approved(literal, url.hostname, options);
  if (!options.allowPrivate && isLocalhostName(url.hostname)) {
    throw new Error(`Refused: ${url.hostname} is a loopback name (${ALLOW_PRIVATE_HINT})`);
  }

  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await (options.lookup ?? systemLookup)(url.hostname);
  } catch (error) {
    throw new Error(`Could not resolve ${url.hostname}: ${describeError(error)}`);
  }
  if (addresses.length === 0) throw new Error(`Could not resolve ${url.hostname}: no addresses`);
  const checked = addresses.map(({ address }) => approved(address, url.hostname, options));
  return checked[0]!;
}

/**
 * Whether an address (IPv4 dotted quad or IPv6, without brackets) lies outside the public
 * internet. Anything that is not an IP address counts as forbidden: the guard fails closed.
 */
export function isForbiddenAddress(ip: string): boolean {
  return forbiddenAddressKind(ip) !== undefined;
}

/**
 * What kind of address `ip` is when it is forbidden ("loopback", "private", ...), else undefined.
 * IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address,
 * since that is where a packet to them ends up.
 */
export function forbiddenAddressKind(ip: string): string | undefined {
  // A zone index (fe80::1%eth0) only appears on link-local addresses; the address is judged without it.
  const bare = ip.includes('%') ? ip.slice(0, ip.indexOf('%')) : ip;
  const version = isIP(bare);
  if (version === 4) return ipv4Range(parseIpv4(bare));
  if (version === 6) return ipv6Range(parseIpv6(bare));
  return 'unrecognised';
}

function ipv4Range(bytes: readonly number[]): string | undefined {
  return IPV4_RANGES.find((range) => inPrefix(bytes, range.prefix, range.bits))?.kind;
}

function ipv6Range(bytes: readonly number[]): string | undefined {
  const range = IPV6_RANGES.find((candidate) => inPrefix(bytes, candidate.prefix, candidate.bits));
  if (range !== undefined) return range.kind;
  const embedding = IPV4_EMBEDDINGS.find((candidate) => inPrefix(bytes, candidate.prefix, candidate.bits));
  if (embedding !== undefined) return ipv4Range(bytes.slice(embedding.offset, embedding.offset + 4));
  // Only 2000::/3 is allocated for global unicast; everything else is reserved or special.
  return ((bytes[0] ?? 0) & 0xe0) === 0x20 ? undefined : 'reserved';
}

interface Range {
  prefix: readonly number[];
  bits: number;
  kind: string;
}

function v4(cidr: string, kind: string): Range {
  const [address, bits] = cidr.split('/') as [string, string];
  return { prefix: parseIpv4(address), bits: Number(bits), kind };
}

function v6(cidr: string, kind: string): Range {
  const [address, bits] = cidr.split('/') as [string, string];
  return { prefix: parseIpv6(address), bits: Number(bits), kind };
}

/** IANA's IPv4 special-purpose registry, less what is globally reachable on purpose. */
const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'carrier-grade NAT'),
  v4('127.0.0.0/8', 'loopback'),
  // Before the link-local range, so the message names what a refused 169.254.169.254 is.
  v4('169.254.169.254/32', 'cloud metadata'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  // 240/4 is reserved and holds the limited broadcast address 255.255.255.255.
  v4('240.0.0.0/4', 'reserved'),
];

/** IPv6 ranges judged by the IPv4 address inside them, and where it sits (byte offset). */
const IPV4_EMBEDDINGS: readonly (Range & { offset: number })[] = [
  { ...v6('::ffff:0:0/96', 'IPv4-mapped'), offset: 12 },
  // IPv4-compatible (deprecated). It also holds :: and ::1, which IPV6_RANGES names first.
  { ...v6('::/96', 'IPv4-compatible'), offset: 12 },
  { ...v6('64:ff9b::/96', 'NAT64'), offset: 12 },
  { ...v6('2002::/16', '6to4'), offset: 2 },
];

/**
 * IANA's IPv6 special-purpose registry, less what is globally reachable on purpose. Those outside
 * 2000::/3 would be refused anyway (ipv6Range); they are listed so that a refusal names them.
 */
const IPV6_RANGES: readonly Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('fd00:ec2::254/128', 'cloud metadata'),
  v6('fc00::/7', 'private'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'site-local'),
  v6('ff00::/8', 'multicast'),
  v6('64:ff9b:1::/48', 'NAT64 local-use'),
  v6('100::/64', 'discard-only'),
  // Teredo hides an IPv4 address (obfuscated) and reaches it through a relay: refused whole.
  v6('2001::/32', 'Teredo'),
  v6('2001:2::/48', 'benchmarking'),
  v6('2001:10::/28', 'reserved'),
  v6('2001:20::/28', 'reserved'),
  v6('2001:db8::/32', 'documentation'),
  v6('3fff::/20', 'documentation'),
];

function inPrefix(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const width = Math.min(8, bits - bit);
    const mask = (0xff << (8 - width)) & 0xff;
    const index = bit / 8;
    if (((bytes[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

/** A dotted quad already accepted by net.isIP. */
function parseIpv4(address: string): number[] {
  return address.split('.').map(Number);
}

/** 16 bytes of an IPv6 address already accepted by net.isIP (with `::` and a dotted IPv4 tail). */
function parseIpv6(address: string): number[] {
  // A dotted IPv4 tail (::ffff:127.0.0.1) is rewritten as the two groups it stands for.
  const text = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_match, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`);
  const [head = '', rest] = text.split('::') as [string, string | undefined];
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const headGroups = groupsOf(head);
  const restGroups = rest === undefined ? [] : groupsOf(rest);
  const zeros = new Array<number>(8 - headGroups.length - restGroups.length).fill(0);
  return [...headGroups, ...zeros, ...restGroups].flatMap((group) => [group >> 8, group & 0xff]);
}

/** The URL's host as an IP address when it is one (brackets removed), else undefined for a name. */
function addressLiteral(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? undefined : host;
}

/** RFC 6761: `localhost` and every name under it are loopback, whatever a resolver says. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return name === 'localhost' || name.endsWith('.localhost');
}

function urlProblem(url: URL): { message: string; suggestion: string } | undefined {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { message: `Webhook URL scheme ${url.protocol.slice(0, -1)} is not allowed`, suggestion: 'Use an https:// (or http://) URL' };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      message: 'Webhook URL must not contain a user name or password',
      suggestion: 'Remove the credentials; receivers authenticate deliveries by their webhook-signature header',
    };
  }
  if (url.hostname === '') return { message: 'Webhook URL has no host', suggestion: 'Give an absolute URL such as https://example.com/webhooks' };
  return undefined;
}

/**
 * The address with its family when a delivery may connect to it. A refused resolved address stays
 * out of the message, which the endpoint's managers read in the deliveries list.
 */
function approved(address: string, hostname: string, options: AddressGuardOptions): { address: string; family: 4 | 6 } {
  const family = isIP(address);
  if (family !== 4 && family !== 6) throw new Error(`Refused: ${hostname} resolved to something that is not an IP address`);
  const kind = options.allowPrivate ? undefined : forbiddenAddressKind(address);
  if (kind !== undefined) {
    const literal = hostname === address || hostname === `[${address}]`;
    throw new Error(`Refused: ${hostname} ${literal ? 'is' : 'resolves to'} ${article(kind)} ${kind} address (${ALLOW_PRIVATE_HINT})`);
  }
  return { address, family };
}

function isUnresolved(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && UNRESOLVED_CODES.has(code);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

function describeError(error: unknown): string {
  return errorCode(error) ?? (error instanceof Error ? error.message : String(error));
}

function article(word: string): string {
  return /^[aeiouAEIOU]/.test(word) ? 'an' : 'a';
}
