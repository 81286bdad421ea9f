/**
 * One check of `verify`: an invariant of the ledger, tested independently of the others. The
 * verification streams every entry once, in posting order, past every check's `entry`, then
 * calls every check's `finish`. A new invariant is a new CheckDefinition in checks.ts; nothing
 * else changes.
 */
import type { JournalEntryView } from '../../domain/types.js';
import type { LedgerReads } from '../ports/ledger-store.js';
import type { Books } from './books.js';
import type { LineTally } from './line-tally.js';
import type { Problem } from './problems.js';

export interface CheckContext {
  /** The one snapshot the whole verification reads. */
  reads: LedgerReads;
  books: Books;
  /** Totals recomputed from the lines: growing during the scan, complete in `finish`. */
  tally: LineTally;
  /** Records a problem under this check's name. */
  report(problem: Omit<Problem, 'check'>): void;
}

export interface LedgerCheck {
  /** Called for every entry in posting order, after the tally has added its lines. */
  entry?(entry: JournalEntryView): void | Promise<void>;
  /** Called once after the last entry. */
  finish?(): void | Promise<void>;
}

export interface CheckDefinition {
  /** The `check` of the problems it reports (snake_case). */
  name: string;
  /** What it verifies, for `ledger verify` and the docs. */
  description: string;
  create(context: CheckContext): LedgerCheck;
}
