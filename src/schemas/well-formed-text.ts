/**
 * What a JSON body may not hold, whatever the route:
 *
 * - Lone UTF-16 surrogates (`"a\ud800b"`), which are not text: no store can keep them as UTF-8, so
 *   the stored value would differ from the one answered.
 * - Keys named `__proto__` or `constructor`, the keys of prototype pollution. No field of the API
 *   has either name, and a body carrying one is refused with a message that says so (not as
 *   "invalid JSON"), wherever it sits: metadata included.
 */
import { type LedgerError, validationError } from '../domain/errors.js';

// In a `u` regular expression a surrogate pair is one code point, so this matches lone halves only.
const LONE_SURROGATE = /\p{Cs}/u;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);

interface Problem {
  /** `lines[1].description`, or '' for the body itself. */
  field: string;
  kind: 'surrogate' | 'forbidden key';
  key?: string;
}

/** The first problem of `value`, depth first, or undefined when its text and keys are all acceptable. */
function firstProblem(value: unknown): Problem | undefined {
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0) {
    const [current, field] = pending.pop()!;
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return { field, kind: 'surrogate' };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) pending.push([current[index], `${field}[${index}]`]);
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (const [key] of entries) {
        if (FORBIDDEN_KEYS.has(key)) return { field: field ? `${field}.${key}` : key, kind: 'forbidden key', key };
        if (LONE_SURROGATE.test(key)) return { field, kind: 'surrogate' };
      }
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index]!;
        pending.push([child, field ? `${field}.${key}` : key]);
      }
    }
  }
  return undefined;
}

/** The field (`lines[1].description`) of the first string or key of `value` holding a lone surrogate or a forbidden key. */
export function illFormedTextField(value: unknown): string | undefined {
  return firstProblem(value)?.field;
}

/** A VALIDATION_ERROR for a body with a lone surrogate or a forbidden key, or undefined when it has neither. */
export function illFormedTextError(value: unknown): LedgerError | undefined {
  const problem = firstProblem(value);
  if (problem === undefined) return undefined;
  if (problem.kind === 'forbidden key') {
    return validationError(`The request body has a key named ${problem.key} (at ${problem.field}), which is refused anywhere in a body`,
      problem.field, `Rename or remove the key ${problem.key}: no field of the API has that name, and metadata may not use it either`);
  }
  return validationError(`${problem.field || 'The request body'} holds a lone UTF-16 surrogate, which is not text`,
    problem.field || undefined, 'Send well-formed Unicode: escape characters beyond U+FFFF as a surrogate pair, or send them as UTF-8');
}
