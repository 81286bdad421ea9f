/**
 * JSON may carry lone UTF-16 surrogates (`"a\ud800b"`), which are not text: no store can keep them
 * as UTF-8, so the stored value would differ from the one answered. Bodies holding one are refused.
 */
import { type LedgerError, validationError } from '../domain/errors.js';

// In a `u` regular expression a surrogate pair is one code point, so this matches lone halves only.
const LONE_SURROGATE = /\p{Cs}/u;

/** The field (`lines[1].description`) of the first string or key of `value` holding a lone surrogate. */
export function illFormedTextField(value: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0) {
    const [current, field] = pending.pop()!;
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return field;
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) pending.push([current[index], `${field}[${index}]`]);
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (const [key] of entries) if (LONE_SURROGATE.test(key)) return field;
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index]!;
        pending.push([child, field ? `${field}.${key}` : key]);
      }
    }
  }
  return undefined;
}

/** A VALIDATION_ERROR for a body with a lone surrogate, or undefined when all its text is well-formed. */
export function illFormedTextError(value: unknown): LedgerError | undefined {
  const field = illFormedTextField(value);
  if (field === undefined) return undefined;
  return validationError(`${field || 'The request body'} holds a lone UTF-16 surrogate, which is not text`,
    field || undefined, 'Send well-formed Unicode: escape characters beyond U+FFFF as a surrogate pair, or send them as UTF-8');
}
