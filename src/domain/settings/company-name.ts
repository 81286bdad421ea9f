/**
 * The company name printed at the top of every report and export. It is one line of text that a
 * person typed: surrounding spaces are dropped, and what is left must be 1 to 200 characters
 * (Unicode code points) without control characters or line and paragraph separators, which would
 * break the one-line headers of printouts, CLI tables and exported journals.
 */
import { validationError } from '../errors.js';

export const COMPANY_NAME_MAX_LENGTH = 200;

const NOT_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/** The name to store, trimmed; a VALIDATION_ERROR naming `field` when it breaks a rule. */
export function normalizeCompanyName(text: string, field = 'company_name'): string {
  const name = text.trim();
  if (name === '') {
    throw validationError('company_name is empty', field, 'Give the name to print on reports, or send null to remove it');
  }
  const length = [...name].length;
  if (length > COMPANY_NAME_MAX_LENGTH) {
    throw validationError(`company_name has ${length} characters; at most ${COMPANY_NAME_MAX_LENGTH} are allowed`, field,
      `Shorten it to ${COMPANY_NAME_MAX_LENGTH} characters`);
  }
  const control = NOT_ONE_LINE.exec(name);
  if (control) {
    const code = control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw validationError(`company_name holds the control character U+${code}`, field,
      'Send the name as one line of text, without tabs, line breaks or other control characters');
  }
  return name;
}
