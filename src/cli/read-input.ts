import { readFileSync } from 'node:fs';
import { validationError } from '../domain/errors.js';

/** Reads a file (or stdin for "-"); a missing or unreadable file is the user's error, not a crash. */
export function readInput(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw validationError(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'file',
      'Check the path of the file');
  }
}
