/**
 * Where `ledger users create` gets the password: standard input (`--password-stdin`, for
 * scripts), a prompt that does not echo (at a terminal), or `--password`, which still works but
 * puts the password in the process list and the shell history, so it prints a warning.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { validationError } from '../domain/errors.js';
import { readInput } from './read-input.js';

export interface PasswordOptions {
  password?: string;
  passwordStdin?: boolean;
}

/** A prompt on the terminal whose typing is not echoed. */
function prompt(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const reader = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    reader.question(question, (answer) => {
      reader.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

/** `warn` is off under --json, whose standard error carries only the JSON error of a failure. */
export async function readPassword(options: PasswordOptions, warn = true): Promise<string> {
  if (options.passwordStdin && options.password !== undefined) {
    throw validationError('Give the password either with --password-stdin or with --password, not both', 'password');
  }
  if (options.passwordStdin) return readInput('-').replace(/\r?\n$/, '');
  if (options.password !== undefined) {
    if (warn) process.stderr.write('Warning: --password is visible to other users in the process list and stays in your shell history; '
      + 'use --password-stdin or leave it out to be prompted\n');
    return options.password;
  }
  if (!process.stdin.isTTY) {
    throw validationError('No password given', 'password', 'Pipe it with --password-stdin, or run the command at a terminal to be prompted');
  }
  const first = await prompt('Password: ');
  const again = await prompt('Repeat the password: ');
  if (first !== again) throw validationError('The two passwords differ', 'password', 'Run the command again');
  return first;
}
