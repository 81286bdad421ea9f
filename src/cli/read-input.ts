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

/**
 * Reads a file's bytes (or stdin's for "-") as they are, for input whose encoding the service
 * detects itself (a bank statement: UTF-8, Windows-1252, or what its XML declaration says).
 */
export function readInputBytes(path: string): Buffer {
  try {
    return readFileSync(path === '-' ? 0 : path);
  } catch (error) {
    throw validationError(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'file',
      'Check the path of the file');
  }
}
