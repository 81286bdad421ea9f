/**
 * Where a webhook may go: every spelling of a loopback, private, link-local, unspecified, metadata
 * or otherwise non-public address is refused, at creation and before each delivery, unless private
 * receivers are allowed. No test here resolves a real name or sends a packet: names go through an
 * injected lookup, and literals must not reach a lookup at all.
 */
import { describe, expect, it } from 'vitest';
import { isLedgerError, type LedgerError } from '../../../src/domain/errors.js';
import {
  checkWebhookUrl, forbiddenAddressKind, isForbiddenAddress, resolveDeliveryAddress, type AddressLookup,
} from '../../../src/service/webhooks/address-guard.js';

/** For URLs whose host is an address: looking anything up would be a mistake (and network traffic). */
const noLookup: AddressLookup = async (hostname) => {
  throw new Error(`unexpected lookup of ${hostname}`);
};

function lookupAnswering(answers: Record<string, readonly string[]>): AddressLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = answers[hostname];
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

function failingLookup(code: string): AddressLookup {
  return async () => {
    throw Object.assign(new Error(`getaddrinfo ${code} example`), { code });
  };
}

async function refusal(promise: Promise<unknown>): Promise<LedgerError> {
  try {
    await promise;
  } catch (error) {
    if (isLedgerError(error)) return error;
    throw error;
  }
  throw new Error('expected the URL to be refused');
}

const denied = { allowPrivate: false, lookup: noLookup };

/** URLs whose host is a forbidden address, however it is written, with the kind the refusal names. */
const FORBIDDEN_URLS: readonly [string, string][] = [
  ['http://127.0.0.1/', 'loopback'],
  ['http://127.255.255.254:8080/hook', 'loopback'],
  ['http://2130706433/', 'loopback'],
  ['http://0x7f.1/', 'loopback'],
  ['http://0177.0.0.1/', 'loopback'],
  ['http://127.1/', 'loopback'],
  ['http://0x7f000001/', 'loopback'],
  ['http://017700000001/', 'loopback'],
  ['http://127.0.0.1./', 'loopback'],
  ['http://%31%32%37.0.0.1/', 'loopback'],
  ['http://[::1]/', 'loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
  ['http://[::ffff:127.0.0.1]/', 'loopback'],
  ['http://[::127.0.0.1]/', 'loopback'],
  ['http://0.0.0.0/', 'unspecified'],
  ['http://0/', 'unspecified'],
  ['http://0.1.2.3/', 'unspecified'],
  ['http://[::]/', 'unspecified'],
  ['http://10.0.0.1/', 'private'],
  ['http://172.16.0.1/', 'private'],
  ['http://172.31.255.255/', 'private'],
  ['http://192.168.1.1/', 'private'],
  ['http://[fc00::1]/', 'private'],
  ['http://[fdff:ffff::1]/', 'private'],
  ['http://[::ffff:10.1.2.3]/', 'private'],
  ['http://[::ffff:a01:203]/', 'private'],
  ['http://[64:ff9b::10.0.0.1]/', 'private'],
  ['http://[64:ff9b::192.168.0.1]/', 'private'],
  ['http://[2002:c0a8:101::1]/', 'private'],
  ['http://169.254.0.1/', 'link-local'],
  ['http://[fe80::1]/', 'link-local'],
  ['http://[febf:ffff::1]/', 'link-local'],
  ['http://100.64.0.1/', 'carrier-grade NAT'],
  ['http://100.127.255.255/', 'carrier-grade NAT'],
  ['http://100.100.100.200/', 'carrier-grade NAT'],
  ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
  ['http://2852039166/', 'cloud metadata'],
  ['http://0xa9.0xfe.0xa9.0xfe/', 'cloud metadata'],
  ['http://[::ffff:169.254.169.254]/', 'cloud metadata'],
  ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', 'cloud metadata'],
  ['http://[::169.254.169.254]/', 'cloud metadata'],
  ['http://[64:ff9b::169.254.169.254]/', 'cloud metadata'],
  ['http://[fd00:ec2::254]/', 'cloud metadata'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://239.255.255.250/', 'multicast'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://255.255.255.255/', 'reserved'],
  ['http://240.0.0.1/', 'reserved'],
  ['http://192.0.0.170/', 'reserved'],
  ['http://192.0.2.1/', 'documentation'],
  ['http://198.51.100.7/', 'documentation'],
  ['http://203.0.113.9/', 'documentation'],
  ['http://[2001:db8::1]/', 'documentation'],
  ['http://198.18.0.1/', 'benchmarking'],
  ['http://[64:ff9b:1::a00:1]/', 'NAT64 local-use'],
  ['http://[100::1]/', 'discard-only'],
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Teredo'],
  ['http://[fec0::1]/', 'site-local'],
  ['http://[4000::1]/', 'reserved'],
];

describe('checkWebhookUrl', () => {
  it.each(FORBIDDEN_URLS)('refuses %s (%s)', async (url, kind) => {
    const error = await refusal(checkWebhookUrl(url, denied));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe('url');
    expect(error.message).toContain(`${kind} address`);
    expect(error.suggestion).toContain('LEDGER_WEBHOOK_ALLOW_PRIVATE');
  });

  it.each([
    'https://8.8.8.8/hook',
    'https://1.1.1.1/',
    'http://[2606:4700::1111]/',
    'https://[2001:4860:4860::8888]:8443/x',
    'http://[::ffff:8.8.8.8]/',
    'http://[64:ff9b::8.8.8.8]/',
    'http://[2002:808:808::1]/',
    'http://172.32.0.1/',
    'http://100.128.0.1/',
    'http://11.0.0.1/',
  ])('accepts the public address in %s without looking anything up', async (url) => {
    await expect(checkWebhookUrl(url, denied)).resolves.toBeInstanceOf(URL);
  });

  it('answers the URL normalised, so the stored form is the one that was checked', async () => {
    const lookup = lookupAnswering({ 'hooks.example.com': ['93.184.216.34'] });
    const url = await checkWebhookUrl('HTTPS://Hooks.Example.COM:443/in?x=1', { allowPrivate: false, lookup });
    expect(url.href).toBe('https://hooks.example.com/in?x=1');
  });

  it('accepts a loopback address when private receivers are allowed', async () => {
    await expect(checkWebhookUrl('http://127.0.0.1:9000/hook', { allowPrivate: true, lookup: noLookup })).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('http://[::ffff:169.254.169.254]/', { allowPrivate: true, lookup: noLookup })).resolves.toBeInstanceOf(URL);
  });

  it('accepts a name that resolves to public addresses only', async () => {
    const lookup = lookupAnswering({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] });
    await expect(checkWebhookUrl('https://hooks.example.com/in', { allowPrivate: false, lookup })).resolves.toBeInstanceOf(URL);
    expect(lookup.calls).toEqual(['hooks.example.com']);
  });

  it('refuses a public-looking name that resolves to a private address, without naming the address', async () => {
    const lookup = lookupAnswering({ 'hooks.example.com': ['10.0.0.5'] });
    const error = await refusal(checkWebhookUrl('https://hooks.example.com/in', { allowPrivate: false, lookup }));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe('url');
    expect(error.message).toBe('Webhook URL host hooks.example.com resolves to a private address');
    expect(error.message).not.toContain('10.0.0.5');
  });

  it('refuses a name when any of its addresses is forbidden', async () => {
    const lookup = lookupAnswering({ 'mixed.example.com': ['93.184.216.34', '::ffff:127.0.0.1'] });
    const error = await refusal(checkWebhookUrl('https://mixed.example.com/', { allowPrivate: false, lookup }));
    expect(error.message).toContain('resolves to a loopback address');
  });

  it('accepts a name resolving to a private address when private receivers are allowed, without looking it up', async () => {
    await expect(checkWebhookUrl('https://hooks.internal/', { allowPrivate: true, lookup: noLookup })).resolves.toBeInstanceOf(URL);
  });

  it.each(['ENOTFOUND', 'EAI_AGAIN'])('accepts a name that does not resolve (%s)', async (code) => {
    await expect(checkWebhookUrl('https://not-yet.example.com/', { allowPrivate: false, lookup: failingLookup(code) }))
      .resolves.toBeInstanceOf(URL);
  });

  it('lets an unexpected lookup failure through rather than accepting the URL', async () => {
    await expect(checkWebhookUrl('https://hooks.example.com/', { allowPrivate: false, lookup: failingLookup('EPERM') }))
      .rejects.toThrow(/EPERM/);
  });

  it.each(['http://localhost/', 'http://LOCALHOST:3000/', 'http://localhost./', 'http://api.localhost/'])(
    'refuses %s as loopback without asking a resolver', async (url) => {
      const error = await refusal(checkWebhookUrl(url, denied));
      expect(error.field).toBe('url');
      expect(error.message).toContain('loopback name');
    });

  it.each([
    ['ftp://example.com/hook', /scheme ftp is not allowed/],
    ['file:///etc/passwd', /scheme file is not allowed/],
    ['gopher://127.0.0.1:6379/_INFO', /scheme gopher is not allowed/],
    ['javascript:alert(1)', /scheme javascript is not allowed/],
    ['ws://example.com/', /scheme ws is not allowed/],
    ['https://user:pass@example.com/', /user name or password/],
    ['https://user@example.com/', /user name or password/],
    ['https://:secret@example.com/', /user name or password/],
    ['not a url', /is not a valid URL/],
    ['//example.com/hook', /is not a valid URL/],
    ['https://', /is not a valid URL/],
    ['http://256.0.0.1/', /is not a valid URL/],
    ['http://1.2.3.4.5/', /is not a valid URL/],
    ['http://[fe80::1%25eth0]/', /is not a valid URL/],
    ['', /is not a valid URL/],
  ])('refuses %j', async (url, message) => {
    // Allowing private receivers does not relax these.
    for (const allowPrivate of [false, true]) {
      const error = await refusal(checkWebhookUrl(url, { allowPrivate, lookup: noLookup }));
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.field).toBe('url');
      expect(error.message).toMatch(message);
      expect(error.suggestion).toBeTruthy();
    }
  });
});

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1', '0.0.0.0', '10.255.255.255', '172.16.0.0', '192.168.255.255', '169.254.169.254', '100.64.0.0',
    '224.0.0.251', '255.255.255.255', '::1', '::', 'fe80::1%eth0', 'fd00:ec2::254', 'fc00::', '::ffff:7f00:1',
    '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', 'ff05::2', '::ffff:0.0.0.0',
  ])('refuses %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8', '1.1.1.1', '9.255.255.255', '11.0.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0',
    '100.63.255.255', '100.128.0.0', '169.253.255.255', '169.255.0.0', '223.255.255.255', '2606:4700::1111',
    '2001:4860:4860::8888', '2a00:1450:4001::1', '::ffff:8.8.8.8', '64:ff9b::808:808',
  ])('accepts %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });

  it.each(['', 'localhost', 'example.com', '[::1]', '127.1', '2130706433', '0x7f.0.0.1', '1.2.3.4.5', ':::1'])(
    'refuses %j, which is not an address (failing closed)', (text) => {
      expect(isForbiddenAddress(text)).toBe(true);
    });

  it('names the kind of a refused address', () => {
    expect(forbiddenAddressKind('169.254.169.254')).toBe('cloud metadata');
    expect(forbiddenAddressKind('169.254.1.1')).toBe('link-local');
    expect(forbiddenAddressKind('::1')).toBe('loopback');
    expect(forbiddenAddressKind('8.8.8.8')).toBeUndefined();
  });
});

describe('resolveDeliveryAddress', () => {
  it('answers the address to connect to for a name, in the resolver\'s order', async () => {
    const lookup = lookupAnswering({ 'hooks.example.com': ['2606:2800:220:1::1', '93.184.216.34'] });
    await expect(resolveDeliveryAddress(new URL('https://hooks.example.com/in'), { allowPrivate: false, lookup }))
      .resolves.toEqual({ address: '2606:2800:220:1::1', family: 6 });
  });

  it('answers a public literal without looking it up', async () => {
    await expect(resolveDeliveryAddress(new URL('https://8.8.8.8/'), denied)).resolves.toEqual({ address: '8.8.8.8', family: 4 });
    await expect(resolveDeliveryAddress(new URL('http://[2606:4700::1111]:8080/'), denied))
      .resolves.toEqual({ address: '2606:4700::1111', family: 6 });
  });

  it('refuses a name that now resolves to a forbidden address (DNS rebinding after the check)', async () => {
    const first = lookupAnswering({ 'rebind.example.com': ['93.184.216.34'] });
    const url = await checkWebhookUrl('https://rebind.example.com/', { allowPrivate: false, lookup: first });
    const later = lookupAnswering({ 'rebind.example.com': ['169.254.169.254'] });
    await expect(resolveDeliveryAddress(url, { allowPrivate: false, lookup: later }))
      .rejects.toThrow('Refused: rebind.example.com resolves to a cloud metadata address');
  });

  it('refuses a name when any address is forbidden, even when the first is public', async () => {
    const lookup = lookupAnswering({ 'mixed.example.com': ['93.184.216.34', '10.0.0.5'] });
    await expect(resolveDeliveryAddress(new URL('https://mixed.example.com/'), { allowPrivate: false, lookup }))
      .rejects.toThrow(/resolves to a private address/);
  });

  it('keeps the resolved address out of the message', async () => {
    const lookup = lookupAnswering({ 'hooks.example.com': ['10.0.0.5'] });
    const error = await resolveDeliveryAddress(new URL('https://hooks.example.com/'), { allowPrivate: false, lookup }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain('10.0.0.5');
  });

  it.each(FORBIDDEN_URLS)('refuses a stored URL whose host is forbidden: %s', async (url, kind) => {
    await expect(resolveDeliveryAddress(new URL(url), denied)).rejects.toThrow(`${kind} address`);
  });

  it('refuses localhost without asking a resolver', async () => {
    await expect(resolveDeliveryAddress(new URL('http://localhost:8080/'), denied)).rejects.toThrow(/loopback name/);
  });

  it('connects to private addresses when they are allowed', async () => {
    await expect(resolveDeliveryAddress(new URL('http://127.0.0.1:9000/'), { allowPrivate: true, lookup: noLookup }))
      .resolves.toEqual({ address: '127.0.0.1', family: 4 });
    const lookup = lookupAnswering({ 'hooks.internal': ['10.0.0.5'], localhost: ['::1'] });
    await expect(resolveDeliveryAddress(new URL('http://hooks.internal/'), { allowPrivate: true, lookup }))
      .resolves.toEqual({ address: '10.0.0.5', family: 4 });
    await expect(resolveDeliveryAddress(new URL('http://localhost/'), { allowPrivate: true, lookup }))
      .resolves.toEqual({ address: '::1', family: 6 });
  });

  it('fails a delivery to a name that does not resolve, saying why', async () => {
    await expect(resolveDeliveryAddress(new URL('https://gone.example.com/'), { allowPrivate: false, lookup: failingLookup('ENOTFOUND') }))
      .rejects.toThrow('Could not resolve gone.example.com: ENOTFOUND');
    await expect(resolveDeliveryAddress(new URL('https://empty.example.com/'), { allowPrivate: false, lookup: async () => [] }))
      .rejects.toThrow('Could not resolve empty.example.com: no addresses');
  });

  it('refuses a resolver answer that is not an address, even when private receivers are allowed', async () => {
    const lookup: AddressLookup = async () => [{ address: 'evil.example.com', family: 4 }];
    await expect(resolveDeliveryAddress(new URL('https://hooks.example.com/'), { allowPrivate: true, lookup }))
      .rejects.toThrow(/not an IP address/);
  });

  it('refuses a URL with another scheme or credentials', async () => {
    await expect(resolveDeliveryAddress(new URL('ftp://8.8.8.8/'), denied)).rejects.toThrow(/scheme ftp/);
    await expect(resolveDeliveryAddress(new URL('https://u:p@8.8.8.8/'), denied)).rejects.toThrow(/user name or password/);
  });
});
