/**
 * Requests for the fuzz test, made from the server's own OpenAPI document: every operation it
 * lists (the /api/v1 routes and /auth), with path, query and body drawn from the operation's
 * schemas, valid or broken, or replaced by raw hostile bytes, under a credential from a list that
 * runs from a real key to forged tokens. A route added to the API is fuzzed without editing the test.
 */
import fc from 'fast-check';
import { CONTENT_TYPES, HOSTILE_STRINGS, hostileRawBody, hostileValue } from './hostile-values.js';
import { type GenerationContext, type JsonSchema, brokenValue, toJsonText, validValue } from './schema-arbitraries.js';

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** As in the document: /api/v1/accounts/{id} */
  path: string;
  parameters: Parameter[];
  bodySchema: JsonSchema | undefined;
}

/** Every operation of an OpenAPI 3 document, with `$ref`s to its components resolved. */
export function operationsOf(document: any): Operation[] {
  const resolve = (schema: any): any => {
    if (Array.isArray(schema)) return schema.map(resolve);
    if (typeof schema !== 'object' || schema === null) return schema;
    if (typeof schema.$ref === 'string') {
      const target = schema.$ref.replace(/^#\//, '').split('/').reduce((node: any, key: string) => node?.[key], document);
      return resolve(target);
    }
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolve(value)]));
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<any>(document.paths ?? {})) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: resolve([...(item.parameters ?? []), ...(operation.parameters ?? [])]),
        bodySchema: resolve(operation.requestBody?.content?.['application/json']?.schema),
      });
    }
  }
  return operations;
}

export interface Credential {
  /** What it is, for the failure message. */
  label: string;
  /** The Authorization header, or undefined for none. */
  authorization: string | undefined;
}

export interface FuzzRequest {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  credential: string;
}

/**
 * Percent-encodes like encodeURIComponent, and also text with lone surrogates (which it refuses):
 * those go as the bytes of their three-byte form, which is not valid UTF-8.
 */
export function percentEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value].map((character) => {
      const unit = character.charCodeAt(0);
      if (character.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
        return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
      }
      return encodeURIComponent(character);
    }).join('');
  }
}

const OTHER_METHODS = ['PUT', 'DELETE', 'PATCH', 'POST', 'GET', 'OPTIONS', 'HEAD'] as const;

function pathValue(context: GenerationContext): fc.Arbitrary<string> {
  const raw = fc.oneof(
    { weight: 6, arbitrary: context.knownIds.length > 0 ? fc.constantFrom(...context.knownIds) : fc.uuid() },
    fc.uuid(),
    fc.string({ maxLength: 30 }),
    fc.constantFrom(...(HOSTILE_STRINGS.filter((value) => typeof value === 'string' && value.length < 1000) as string[])),
    fc.constantFrom('a'.repeat(101), '0', '-1', '..', '.', '%2e%2e', 'null', 'undefined'),
  );
  return fc.tuple(raw, fc.boolean()).map(([value, encode]) =>
    // Usually encoded as a client would; sometimes raw, to reach the router's own decoding.
    encode || !/^[\x21-\x7e]*$/.test(value) ? percentEncode(value) : value.replace(/[/?#]/g, encodeURIComponent));
}

function queryValue(parameter: Parameter, context: GenerationContext): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: validValue(parameter.schema, parameter.name, context) },
    { weight: 2, arbitrary: hostileValue() },
  ).map((value) => (typeof value === 'string' ? value : JSON.stringify(value) ?? ''));
}

function queryString(operation: Operation, context: GenerationContext): fc.Arbitrary<string> {
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const pairs = queryParameters.map((parameter) =>
    fc.option(fc.tuple(fc.constant(parameter.name), queryValue(parameter, context), fc.boolean()), { freq: 2 }));
  const extras = fc.array(fc.tuple(
    fc.oneof(fc.constantFrom('__proto__', 'constructor', '__proto__[admin]', 'constructor[prototype][admin]', 'limit', 'cursor', 'sort'),
      fc.string({ maxLength: 10 })),
    fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('1', '-1', '0', '1e3', '999999999999999999999', 'true', '')),
    fc.boolean(),
  ), { maxLength: 2 });
  return fc.tuple(fc.tuple(...pairs), extras).map(([chosen, extra]) => {
    const all = [...chosen.filter((pair): pair is [string, string, boolean] => pair !== null), ...extra];
    if (all.length === 0) return '';
    return '?' + all.map(([name, value, repeat]) => {
      const pair = `${percentEncode(name)}=${percentEncode(value)}`;
      return repeat ? `${pair}&${pair}` : pair;
    }).join('&');
  });
}

interface Body {
  text: Buffer | undefined;
  contentType: string | undefined;
}

function body(operation: Operation, context: GenerationContext): fc.Arbitrary<Body> {
  const json = (value: unknown) => Buffer.from(toJsonText(value), 'utf8');
  const contentType = fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) });
  const fromSchema = operation.bodySchema === undefined ? [] : [
    { weight: 4, arbitrary: fc.record({ text: validValue(operation.bodySchema, 'body', context).map(json), contentType: fc.constant('application/json') }) },
    { weight: 6, arbitrary: fc.record({ text: brokenValue(operation.bodySchema, context).map(json), contentType }) },
  ];
  return fc.oneof(
    ...fromSchema,
    { weight: 2, arbitrary: fc.record({ text: hostileRawBody(), contentType }) },
    { weight: 1, arbitrary: fc.record({ text: fc.constant(undefined), contentType: fc.constantFrom(undefined, 'application/json') }) },
  );
}

export function fuzzRequest(operations: readonly Operation[], credentials: fc.Arbitrary<Credential>, context: GenerationContext): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...operations).chain((operation) => {
    const pathParameters = operation.path.match(/\{[^}]+\}/g) ?? [];
    return fc.record({
      method: fc.oneof({ weight: 12, arbitrary: fc.constant(operation.method) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) }),
      pathValues: fc.tuple(...pathParameters.map(() => pathValue(context))),
      query: queryString(operation, context),
      body: body(operation, context),
      credential: credentials,
      idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.string({ maxLength: 300 })), { freq: 8 }),
    }).map(({ method, pathValues, query, body: { text, contentType }, credential, idempotencyKey }) => {
      let index = 0;
      const path = operation.path.replace(/\{[^}]+\}/g, () => pathValues[index++]!) + query;
      const headers: Record<string, string> = {};
      if (credential.authorization !== undefined) headers.authorization = credential.authorization;
      const sendsBody = method !== 'GET' && method !== 'HEAD' && text !== undefined;
      if (sendsBody && contentType !== undefined) headers['content-type'] = contentType;
      if (idempotencyKey !== null && /^[\x20-\x7e]*$/.test(idempotencyKey)) headers['idempotency-key'] = idempotencyKey;
      return { operation: `${operation.method} ${operation.path}`, method, path, headers, body: sendsBody ? text : undefined, credential: credential.label };
    });
  });
}

export interface FuzzAnswer {
  status: number;
  contentType: string | null;
  text: string;
  body: any;
}

export async function send(baseUrl: string, request: FuzzRequest): Promise<FuzzAnswer> {
  const response = await fetch(baseUrl + request.path, { method: request.method, headers: request.headers, body: request.body });
  const contentType = response.headers.get('content-type');
  // An event stream that opened never ends by itself: its status and type are the answer.
  if (contentType?.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status, contentType, text: '', body: undefined };
  }
  const text = await response.text();
  let body: unknown;
  try { body = text === '' ? undefined : JSON.parse(text); } catch { body = undefined; }
  return { status: response.status, contentType: response.headers.get('content-type'), text, body };
}

/** A short description of a request for failure messages (bodies cut, they can be 1 MiB). */
export function describeRequest(request: FuzzRequest): string {
  const bodyText = request.body === undefined ? '' : request.body.toString('utf8');
  return `${request.method} ${request.path.slice(0, 300)} [${request.operation}] as ${request.credential}`
    + ` headers=${JSON.stringify({ ...request.headers, authorization: undefined })} body(${request.body?.length ?? 0})=${bodyText.slice(0, 300)}`;
}
