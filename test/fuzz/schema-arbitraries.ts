/**
 * fast-check arbitraries made from the JSON schemas of the OpenAPI document: values that follow
 * a schema (so that requests reach past validation into the service), and the same values broken
 * on purpose (a required field dropped, a field added, one value replaced by a hostile one).
 * Identifier fields draw mostly from ids that exist, so lookups find something.
 */
import fc from 'fast-check';
import { HOSTILE_AMOUNTS, HOSTILE_DATES, PROTO_MARKER, hostileValue } from './hostile-values.js';

export type JsonSchema = Record<string, any>;

const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const AMOUNT_PATTERNS = new Set(['^(0|[1-9][0-9]*)$', '^-?(0|[1-9][0-9]*)$']);

export interface GenerationContext {
  /** Ids that exist in the ledger under test (accounts, currencies, periods, entries, users). */
  knownIds: readonly string[];
}

function calendarDate(): fc.Arbitrary<string> {
  return fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2028-12-31T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10));
}

function amount(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('0', '1', '100', '25000'),
    fc.bigInt({ min: 0n, max: (1n << 127n) - 1n }).map(String),
  );
}

function identifier(context: GenerationContext): fc.Arbitrary<string> {
  const made = fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 100 }));
  return context.knownIds.length === 0 ? made : fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...context.knownIds) }, { weight: 1, arbitrary: made });
}

function stringFor(schema: JsonSchema, name: string, context: GenerationContext): fc.Arbitrary<unknown> {
  if (schema.pattern === DATE_PATTERN) return fc.oneof({ weight: 5, arbitrary: calendarDate() }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_DATES) });
  if (AMOUNT_PATTERNS.has(schema.pattern)) return fc.oneof({ weight: 5, arbitrary: amount() }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_AMOUNTS) });
  if (name === 'id' || name.endsWith('_id')) {
    // caip19_id and such carry a pattern of their own; the others are references to rows.
    if (schema.pattern === undefined) return identifier(context);
  }
  if (name === 'password') return fc.string({ minLength: 8, maxLength: 40 }).map((text) => `pw-${text}-Zq9`);
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? Infinity));
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  return fc.string({ minLength, maxLength, unit: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...'abcXYZ019 -_.') }, { weight: 1, arbitrary: fc.constantFrom('é', '€', '💸', '\u0301') }) });
}

function objectFor(schema: JsonSchema, context: GenerationContext, depth: number): fc.Arbitrary<unknown> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const names = Object.keys(properties);
  if (names.length === 0) {
    // A free-form object (metadata, a permission map).
    const values = schema.additionalProperties && typeof schema.additionalProperties === 'object' && schema.additionalProperties.type
      ? validValue(schema.additionalProperties, 'value', context, depth + 1)
      : fc.jsonValue({ maxDepth: 2 });
    const keys = schema.description?.includes('Permission key')
      ? fc.constantFrom('admin', 'currencies:write', 'accounts:write', 'periods:write', 'periods:close', 'journals:create',
        'journals:reverse', 'settings:write', 'users:manage', 'unknown:key')
      : fc.string({ maxLength: 12 });
    return fc.dictionary(keys, values, { maxKeys: 4 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) model[name] = validValue(properties[name]!, name, context, depth + 1);
  const required: string[] = schema.required ?? [];
  const record = fc.record(model, { requiredKeys: required.filter((name) => names.includes(name)) });
  return schema.minProperties ? record.filter((value) => Object.keys(value as object).length >= schema.minProperties) : record;
}

/** A value that follows `schema` (mostly: dates and amounts are sometimes hostile on purpose). */
export function validValue(schema: JsonSchema, name: string, context: GenerationContext, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((alternative: JsonSchema) => validValue(alternative, name, context, depth)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type: string) => validValue({ ...schema, type }, name, context, depth)));
  switch (schema.type) {
    case 'string': return stringFor(schema, name, context);
    case 'integer': return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number': return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      return fc.array(validValue(schema.items ?? {}, name, context, depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)) });
    }
    case 'object': return objectFor(schema, context, depth);
    default: return fc.jsonValue({ maxDepth: 2 });
  }
}

type Mutation =
  | { kind: 'drop'; pick: number }
  | { kind: 'add'; key: string; value: unknown }
  | { kind: 'replace'; pick: number; value: unknown }
  | { kind: 'whole'; value: unknown };

const extraKey = fc.oneof(fc.constantFrom(PROTO_MARKER, 'constructor', 'prototype', 'id', 'created_at', 'is_admin', 'permissions', ''), fc.string({ maxLength: 10 }));

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), key: extraKey, value: hostileValue() }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: hostileValue() }) },
  fc.record({ kind: fc.constant('whole' as const), value: hostileValue() }),
);

/**
 * Every object (or array) inside `value`, outermost first, to choose one to break. Hostile values
 * put in by an earlier break are not entered: they are shared constants, some thousands deep.
 */
function containers(value: unknown, inserted: WeakSet<object>, found: Array<Record<string, unknown> | unknown[]> = []): Array<Record<string, unknown> | unknown[]> {
  if (typeof value === 'object' && value !== null && !inserted.has(value)) {
    found.push(value as Record<string, unknown>);
    for (const inner of Object.values(value)) containers(inner, inserted, found);
  }
  return found;
}

function applyMutation(value: unknown, change: Mutation, inserted: WeakSet<object>): unknown {
  if ('value' in change && typeof change.value === 'object' && change.value !== null) inserted.add(change.value);
  if (change.kind === 'whole') return change.value;
  const all = containers(value, inserted);
  if (all.length === 0) return change.kind === 'add' ? { [change.key]: change.value } : value;
  const target = all[('pick' in change ? change.pick : 0) % all.length]!;
  const keys = Object.keys(target);
  if (change.kind === 'add') {
    if (Array.isArray(target)) target.push(change.value);
    else target[change.key] = change.value;
  } else if (keys.length > 0) {
    const key = keys[change.pick % keys.length]!;
    if (change.kind === 'drop') {
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete target[key];
    } else if (Array.isArray(target)) target[Number(key)] = change.value;
    else target[key] = change.value;
  }
  return value;
}

/** A value of `schema` with one to three deliberate breaks. */
export function brokenValue(schema: JsonSchema, context: GenerationContext): fc.Arbitrary<unknown> {
  return fc.tuple(validValue(schema, 'body', context), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([value, changes]) => {
      // The generated value is fast-check's own (it shrinks from it): break a copy.
      const inserted = new WeakSet<object>();
      return changes.reduce((current, change) => applyMutation(current, change, inserted), structuredClone(value));
    });
}

/** JSON text of a generated value, with the `__proto__` marker turned into a real `__proto__` key. */
export function toJsonText(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').split(`"${PROTO_MARKER}"`).join('"__proto__"');
}
