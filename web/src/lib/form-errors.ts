/** Puts the API's error next to the field it names (`field` in the error body). */
import { isApiError } from '../api/client.js';

export function fieldError(error: unknown, field: string): string | undefined {
  if (!isApiError(error) || error.field === undefined) return undefined;
  return error.field === field ? error.message : undefined;
}

/** True when the error names one of `fields`, so the form shows it there and not in a banner. */
export function isFieldError(error: unknown, fields: readonly string[]): boolean {
  return isApiError(error) && error.field !== undefined && fields.includes(error.field);
}
