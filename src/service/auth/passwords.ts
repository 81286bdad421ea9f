/**
 * Password hashing with scrypt (memory-hard) from node:crypto. The asynchronous form runs on the
 * libuv thread pool, so hashing never blocks the event loop for other requests. The parameters
 * are stored with each hash, so the cost can be raised later without breaking old hashes: a login
 * whose hash is cheaper than the current cost stores a new hash (`needsRehash`).
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { validationError } from '../../domain/errors.js';
import { Slots } from '../slots.js';
import { isCommonPassword } from './common-passwords.js';

/** OWASP's Password Storage Cheat Sheet minimum for scrypt: N=2^17, r=8, p=1 (128 MiB per hash). */
export const DEFAULT_SCRYPT_COST = 2 ** 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;

/**
 * At most this many hashes are computed at once in a process (each takes 128 MiB and most of a
 * core); the rest wait in line, so a flood of logins cannot starve the thread pool and a genuine
 * login waits behind a few hashes, not behind the flood. A line longer than
 * `MAX_WAITING_HASHES` answers RATE_LIMITED at once.
 */
export const CONCURRENT_HASHES = 2;
export const MAX_WAITING_HASHES = 64;

const hashSlots = new Slots(CONCURRENT_HASHES, MAX_WAITING_HASHES, 'The server is busy checking passwords; try again in 1 second');

function derive(password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number): Promise<Buffer> {
  return hashSlots.run(() => deriveNow(password, salt, cost, blockSize, parallelism));
}

function deriveNow(password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, {
      N: cost, r: blockSize, p: parallelism, maxmem: 256 * cost * blockSize + 1024 * 1024,
    }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export function assertPasswordAcceptable(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw validationError(`The password must have at least ${MIN_PASSWORD_LENGTH} characters`, field,
      'Choose a longer password; a passphrase of several words works well');
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw validationError(`The password must have at most ${MAX_PASSWORD_LENGTH} characters`, field);
  }
  if (isCommonPassword(password)) {
    throw validationError('This password is one of the most common passwords, which attackers try first', field,
      'Choose a password that is not a common word or pattern; a passphrase of several unrelated words works well');
  }
}

/** Whether a stored hash was made with a lower cost (or other parameters) than `cost`: rehash it at the next login. */
export function needsRehash(stored: string, cost = DEFAULT_SCRYPT_COST): boolean {
  const [scheme, storedCost, blockSize, parallelism] = stored.split('$');
  return scheme !== 'scrypt' || Number(storedCost) < cost || Number(blockSize) !== BLOCK_SIZE || Number(parallelism) !== PARALLELISM;
}

/** Format: scrypt$N$r$p$salt$hash (base64url). */
export async function hashPassword(password: string, cost = DEFAULT_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, BLOCK_SIZE, PARALLELISM);
  return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, blockSize, parallelism, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(cost), Number(blockSize), Number(parallelism));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
