/** Option parsers: a malformed option is a usage error (exit 2), reported by commander. */
import { InvalidArgumentError } from 'commander';

export function parseInteger(text: string): number {
  if (!/^-?\d+$/.test(text)) throw new InvalidArgumentError('expected a whole number');
  return Number(text);
}

/** A page size: a whole number of at least 1 (values above 200 are clamped by the service). */
export function parseLimit(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return Number(text);
}
