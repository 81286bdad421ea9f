/**
 * An entry's free-form metadata, bounded: JSON clients and our own serialisation recurse over
 * nesting, so a deeply nested or huge value could be stored and then break every reader. The
 * bounds are custom Ajv keywords (registered by `addBoundKeywords` in validate.ts), because JSON
 * Schema cannot bound nesting of an arbitrary value or its serialised size.
 */
import Type from 'typebox';

/** Levels of objects and arrays, the metadata object itself counting as 1. */
export const METADATA_MAX_DEPTH = 8;
/** Size of the metadata as compact JSON, in UTF-8 bytes. */
export const METADATA_MAX_BYTES = 16 * 1024;

export const MAX_DEPTH_KEYWORD = 'x-max-depth';
export const MAX_JSON_BYTES_KEYWORD = 'x-max-json-bytes';

export const MetadataInput = Type.Record(Type.String(), Type.Unknown(), {
  description: `Free-form JSON object: at most ${METADATA_MAX_DEPTH} levels deep and ${METADATA_MAX_BYTES} bytes as JSON`,
  [MAX_DEPTH_KEYWORD]: METADATA_MAX_DEPTH,
  [MAX_JSON_BYTES_KEYWORD]: METADATA_MAX_BYTES,
});

/** How many levels of objects and arrays `value` nests (0 for a scalar); iterative, so any depth is safe. */
export function nestingDepth(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAbove) return deepest;
    for (const child of Array.isArray(current) ? current : Object.values(current)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** The UTF-8 size of `value` as compact JSON. Call only on values of bounded depth. */
export function jsonByteLength(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}
