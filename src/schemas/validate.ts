/**
 * Schema validation shared by the faces: the HTTP layer turns Ajv issues from route validation
 * into LedgerErrors here, and the CLI validates file input with the same schemas and messages.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Static, TSchema } from 'typebox';
import { type LedgerError, validationError } from '../domain/errors.js';
import { MAX_DEPTH_KEYWORD, MAX_JSON_BYTES_KEYWORD, jsonByteLength, nestingDepth } from './metadata.js';

export interface SchemaIssue {
  instancePath: string;
  keyword: string;
  message?: string | undefined;
  params: Record<string, unknown>;
}

/** `/lines/1/credit_amount` becomes `lines[1].credit_amount`; `prefix` names the part (query). */
export function fieldOfIssue(issue: SchemaIssue, prefix?: string): string | undefined {
  const segments = issue.instancePath.split('/').filter(Boolean);
  const extra = (issue.params.missingProperty ?? issue.params.additionalProperty) as string | undefined;
  if (extra !== undefined) segments.push(extra);
  const path = segments.reduce((acc, segment) => (/^\d+$/.test(segment) ? `${acc}[${segment}]` : acc ? `${acc}.${segment}` : segment), '');
  return path || prefix;
}

function describeIssue(issue: SchemaIssue, field: string | undefined): { message: string; suggestion?: string } {
  const name = field ?? 'request body';
  switch (issue.keyword) {
    case 'required':
      return { message: `${name} is required` };
    case 'additionalProperties':
      return { message: `${name} is not an accepted field here`, suggestion: 'Remove it; see the API reference for the fields this endpoint takes or may change' };
    case 'pattern':
      if (/amount$/.test(name)) {
        return { message: `${name} must be a non-negative integer string in the smallest currency unit`,
          suggestion: 'Send e.g. "25000" for 250.00; no sign, decimal point, exponent or leading zeros' };
      }
      if (/date$/.test(name)) return { message: `${name} must be a date in the form YYYY-MM-DD` };
      return { message: `${name} has an invalid format` };
    case 'type':
      if (/amount$/.test(name)) {
        return { message: `${name} must be a string, not a JSON number`,
          suggestion: 'Send amounts as strings in the smallest currency unit, e.g. "25000" for 250.00' };
      }
      if (/(^|\.)rate$/.test(name)) {
        return { message: `${name} must be a decimal string, not a JSON number`,
          suggestion: 'Send the rate as a string so that it stays exact, e.g. "1.0842"' };
      }
      return { message: `${name} must be of type ${String(issue.params.type)}` };
    case 'minLength':
      return { message: issue.params.limit === 1 ? `${name} must not be empty` : `${name} must have at least ${String(issue.params.limit)} characters` };
    case 'maxLength':
      return { message: `${name} must have at most ${String(issue.params.limit)} characters` };
    case 'minItems':
      return { message: `${name} must hold at least ${String(issue.params.limit)} item${issue.params.limit === 1 ? '' : 's'}` };
    case 'maxItems':
      return { message: `${name} must hold at most ${String(issue.params.limit)} items`,
        suggestion: `Send at most ${String(issue.params.limit)} per request` };
    case 'minProperties':
      return { message: 'The request body must change at least one field' };
    case MAX_DEPTH_KEYWORD:
      return { message: `${name} nests objects and arrays deeper than ${String(issue.params.limit)} levels`,
        suggestion: 'Flatten it, e.g. with dotted keys' };
    case MAX_JSON_BYTES_KEYWORD:
      return { message: `${name} is larger than ${String(issue.params.limit)} bytes as JSON`,
        suggestion: 'Keep large documents elsewhere and store a reference to them' };
    default:
      return { message: `${name} ${issue.message ?? 'is invalid'}` };
  }
}

export function issueToError(issue: SchemaIssue, prefix?: string): LedgerError {
  const field = fieldOfIssue(issue, prefix);
  const { message, suggestion } = describeIssue(issue, field);
  return validationError(message, field, suggestion);
}

/**
 * The keywords that bound a free-form value (see metadata.ts). Depth is checked first, so the
 * size is only ever measured on a value of bounded depth.
 */
export function addBoundKeywords(ajv: Ajv): Ajv {
  const bound = (keyword: string, exceeds: (data: unknown, limit: number) => boolean) => {
    const check = (limit: number, data: unknown): boolean => {
      if (!exceeds(data, limit)) return true;
      check.errors = [{ keyword, params: { limit } }];
      return false;
    };
    check.errors = [] as Partial<ErrorObject>[];
    ajv.addKeyword({ keyword, schemaType: 'number', errors: true, validate: check });
  };
  bound(MAX_DEPTH_KEYWORD, (data, limit) => nestingDepth(data, limit) > limit);
  bound(MAX_JSON_BYTES_KEYWORD, (data, limit) => nestingDepth(data) <= 64 && jsonByteLength(data) > limit);
  return ajv;
}

let bodyAjv: Ajv | undefined;
const compiled = new WeakMap<TSchema, ValidateFunction>();

/** Options for JSON bodies: no type coercion, no removal of unknown fields. */
export const BODY_AJV_OPTIONS = { strict: false, coerceTypes: false, allErrors: false, removeAdditional: false, useDefaults: false } as const;

/** Validates a JSON value against a body schema, throwing the first issue as a VALIDATION_ERROR. */
export function assertMatches<T extends TSchema>(schema: T, value: unknown): asserts value is Static<T> {
  bodyAjv ??= addBoundKeywords(new Ajv(BODY_AJV_OPTIONS));
  let validate = compiled.get(schema);
  if (!validate) {
    validate = bodyAjv.compile(schema);
    compiled.set(schema, validate);
  }
  if (!validate(value)) throw issueToError((validate.errors as ErrorObject[])[0]!);
}

/** `assertMatches` as an expression: returns the value typed by the schema. */
export function parseWithSchema<T extends TSchema>(schema: T, value: unknown): Static<T> {
  assertMatches(schema, value);
  return value;
}
