/**
 * Opaque pagination cursors: the keyset of the last row, tagged with the list it belongs to and
 * signed with a per-database secret, so a cursor that was never issued is recognised and refused.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { validationError } from '../domain/errors.js';
import type { Keyset } from './ports/ledger-store.js';

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(list: string, keyset: Keyset): string {
    const payload = Buffer.from(JSON.stringify([list, ...keyset])).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode(list: string, cursor: string | undefined): Keyset | undefined {
    if (cursor === undefined) return undefined;
    const [payload, signature, extra] = cursor.split('.');
    const invalid = () => validationError('cursor was not issued by this list', 'cursor',
      'Pass next_cursor from the previous page unchanged, or leave cursor out to start at the beginning');
    if (!payload || !signature || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
    if (decoded[0] !== list) {
      if (typeof decoded[0] === 'string' && listName(decoded[0]) === listName(list)) {
        throw validationError('cursor was made with other filters or another order', 'cursor',
          'Repeat the request the cursor came from with only cursor added, or leave cursor out to start again');
      }
      throw invalid();
    }
    return decoded.slice(1) as Keyset;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }
}

const FILTER_SEPARATOR = '#';

function listName(list: string): string {
  return list.split(FILTER_SEPARATOR)[0]!;
}

/**
 * A list's name bound to the filters and order of a request (everything but limit and cursor), so
 * that its cursors are refused with any other: a keyset only means "where the walk stopped" in
 * the walk it came from. Values are compared as sent; a filter left out and one set to its default
 * are different walks.
 */
export function boundList(name: string, request: object): string {
  const filters = Object.entries(request)
    .filter(([key, value]) => key !== 'limit' && key !== 'cursor' && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const digest = createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 16);
  return `${name}${FILTER_SEPARATOR}${digest}`;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** `limit` defaults to 50; above 200 it is clamped; below 1 is refused. */
export function pageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1) {
    throw validationError('limit must be an integer of at least 1', 'limit');
  }
  return Math.min(limit, MAX_PAGE_SIZE);
}
