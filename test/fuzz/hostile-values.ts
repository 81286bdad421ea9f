/**
 * The values an attacker or a broken client sends where the API expects something well-formed:
 * amounts with signs, decimals, exponents and too many digits, dates that do not exist, huge and
 * ill-formed strings, wrong types, prototype keys. The fuzz test mixes them into otherwise valid
 * requests.
 */
import fc from 'fast-check';

/** Stands for a `__proto__` key: JSON.stringify drops real ones, so the marker is replaced in the text. */
export const PROTO_MARKER = '__fuzz_proto_marker__';

export const HUNDRED_THOUSAND_CHARACTERS = 'x'.repeat(100_000);

export const HOSTILE_AMOUNTS: readonly unknown[] = [
  '-1', '-0', '1.5', '1.', '.5', '1e3', '1E3', '01', '00', ' 1', '1 ', '+1', '0x10', '1_000', '１２３', '١٢٣', '',
  '170141183460469231731687303715884105727', // 2^127 - 1: the largest amount a line may carry
  '170141183460469231731687303715884105728', // 2^127
  '340282366920938463463374607431768211456', // 2^128
  '9'.repeat(39), '9'.repeat(40), '9'.repeat(1000), 'NaN', 'Infinity', '-Infinity', 'null',
  100, -1, 1.5, 1e21, 1e308, -0, 0, Number.MAX_SAFE_INTEGER + 2,
];

export const HOSTILE_DATES: readonly unknown[] = [
  '2026-02-30', '2026-02-29', '2025-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-01-32',
  '0000-01-01', '0000-00-00', '9999-12-31', '10000-01-01', '-001-01-01', '2026-1-1', '20260101', '2026/01/01',
  '2026-01-01T00:00:00Z', '2026-01-01 ', '２０２６-01-01', '1970-01-01', '1900-02-29', '2000-02-29', '2100-02-29',
  20260101, '',
];

export const HOSTILE_STRINGS: readonly unknown[] = [
  '', ' ', HUNDRED_THOUSAND_CHARACTERS, '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ufeff', '\u202e', '💸'.repeat(500),
  '<script>alert(1)</script>', '=HYPERLINK("http://x")', "'; DROP TABLE accounts; --", '../../etc/passwd', '%00', '%ZZ',
  '{{7*7}}', '${jndi:ldap://x}', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'admin',
  'tsk_', 'Bearer x', '\r\nX-Injected: 1',
];

export const HOSTILE_OTHERS: readonly unknown[] = [
  null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 63), [], [null], {}, { [PROTO_MARKER]: { admin: true } },
  { constructor: { prototype: { admin: true } } }, deeplyNested(20, 'array'),
];

/** Nested arrays or objects `depth` levels deep. */
export function deeplyNested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

const DEEP_VALUES: readonly unknown[] = [50, 2_000].flatMap((depth) => [deeplyNested(depth, 'array'), deeplyNested(depth, 'object')]);

/** A hostile value of any kind, with the JSON-able values fast-check makes up on top. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...HOSTILE_AMOUNTS),
    fc.constantFrom(...HOSTILE_DATES),
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.constantFrom(...HOSTILE_OTHERS),
    fc.constantFrom(...DEEP_VALUES),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

/** Raw bodies that no schema produces: broken JSON, invalid UTF-8, nesting far beyond any limit. */
const RAW_TEXTS: readonly Buffer[] = [
  '{', '}', '{"a":', '[', 'nul', 'null', 'true', '0', '-1', '"text"', '[]', '[{}]', '{"a":1,}', "{'a':1}", '{"a":1}{"b":2}',
  '{"a":NaN}', '{"a":Infinity}', '{"a":1e999999}', '{"a":-0}', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '{"a":"\\x41"}',
  '\ufeff{}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}',
  '{"a":1,"a":2}', ' ', '\n\n', '{"lines":[{"account_id":{"$gt":""}}]}',
  '['.repeat(100_000) + ']'.repeat(100_000),
  '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000),
  '['.repeat(400_000),
  `{"name":"${HUNDRED_THOUSAND_CHARACTERS}"}`,
  `{"name":"${'a'.repeat(1_200_000)}"}`, // over the default 1 MiB body limit
  `{"metadata":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
].map((text) => Buffer.from(text, 'utf8'));

const INVALID_UTF8: readonly Buffer[] = [
  [0xff, 0xfe], [0xc0, 0xaf], [0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80],
].map((bytes) => Buffer.concat([Buffer.from('{"name":"', 'utf8'), Buffer.from(bytes), Buffer.from('","code":"X"}', 'utf8')]));

export function hostileRawBody(): fc.Arbitrary<Buffer> {
  return fc.oneof(
    fc.constantFrom(...RAW_TEXTS),
    fc.constantFrom(...INVALID_UTF8),
    fc.uint8Array({ maxLength: 200 }).map((array) => Buffer.from(array)),
  );
}

/** Content types a request may claim besides plain `application/json`. */
export const CONTENT_TYPES: readonly (string | undefined)[] = [
  undefined, 'text/plain', 'text/csv', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
  'application/xml', 'application/octet-stream', 'application/json; charset=latin1', 'application/json; charset=utf-16',
  'application/jsonx', 'application/json, text/plain', 'APPLICATION/JSON', 'application/json;', ';', '', 'application/*',
  'application/json; charset=utf-8; boundary=x', 'application/problem+json', 'application/vnd.api+json',
];
