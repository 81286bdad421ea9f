import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from './trust-proxy-setting.js';

describe('LEDGER_TRUST_PROXY', () => {
  it.each([
    [undefined, false], ['', false], ['false', false], ['true', true], ['TRUE', true], ['1', 1], ['2', 2],
    ['10.0.0.5', ['10.0.0.5']], ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']], ['::1,fd00::/8', ['::1', 'fd00::/8']],
    ['loopback', ['loopback']],
  ])('reads %j as %j', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
  });

  it.each(['yes', '10.0.0.0/33', '10.0.0', 'proxy.example.com', '1.2.3.4/8/1', ','])('refuses %j naming the variable', (value) => {
    expect(() => parseTrustProxy(value)).toThrow(/LEDGER_TRUST_PROXY/);
  });
});
