/**
 * Request and response schemas, written once: they validate HTTP requests, type the handlers,
 * produce the OpenAPI document and validate the CLI's file input.
 */
import Type, { type TSchema } from 'typebox';

export const Id = Type.String({ minLength: 1, maxLength: 100, description: 'Identifier (UUIDv7)' });
export const DateString = Type.String({
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'Calendar date YYYY-MM-DD', examples: ['2026-01-31'],
});
export const Timestamp = Type.String({ description: 'ISO 8601 UTC timestamp' });
export const AmountInput = Type.String({
  pattern: '^(0|[1-9][0-9]*)$', maxLength: 39,
  description: 'Non-negative integer in the smallest currency unit, as a string (at most 2^127 - 1)', examples: ['25000'],
});
export const Amount = Type.String({ pattern: '^-?(0|[1-9][0-9]*)$', description: 'Signed integer in the smallest currency unit' });
export const DisplayAmount = Type.String({ description: 'Amount formatted with exactly asset_scale fraction digits' });
export const NonEmpty = (description?: string, maxLength = 500) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
export const Nullable = <T extends TSchema>(schema: T, options?: { description?: string }) => Type.Union([schema, Type.Null()], options);

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Page size; default 50, values above 200 are clamped to 200' })),
  cursor: Type.Optional(Type.String({ description: 'Opaque cursor from next_cursor of the previous page' })),
};

export const ErrorBody = Type.Object({
  code: Type.String(),
  message: Type.String(),
  field: Type.Optional(Type.String()),
  suggestion: Type.Optional(Type.String()),
}, { description: 'Error' });

export const IdParams = Type.Object({ id: Id });

export function envelope<T extends TSchema>(data: T) {
  return Type.Object({ data });
}

export function pageOf<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), has_more: Type.Boolean(), next_cursor: Nullable(Type.String()) });
}
