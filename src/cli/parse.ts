/** Option parsers: a malformed option is a usage error (exit 2), reported by commander. */
import { InvalidArgumentError } from 'commander';

export function parseInteger(text: string): number {
  if (!/^-?\d+$/.test(text)) throw new InvalidArgumentError('expected a whole number');
  return Number(text);
}
