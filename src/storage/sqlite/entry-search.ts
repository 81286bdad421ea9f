/**
 * What SQLite keeps to find entries: their words in an FTS5 table (migration 9; rowid = the
 * entry's seq) and their debit totals in the entry's `debit_key` (migration 15; before it, a table
 * `entry_amounts`), as 39-digit zero-padded text so that comparing the text compares the amounts
 * (SQLite integers stop at 64 bits; amounts reach 2^127).
 */
import type Database from 'better-sqlite3';
import { entrySearchWords } from '../../domain/journal/search-words.js';
import { parseStoredAmount, toDecimalString } from '../../domain/money/amount.js';

const AMOUNT_DIGITS = 39;

export function amountKey(amount: bigint): string {
  return toDecimalString(amount).padStart(AMOUNT_DIGITS, '0');
}

export const INSERT_ENTRY_WORDS = 'INSERT INTO entry_words (rowid, words) VALUES (?, ?)';

/** The FTS5 query for words of letters and digits only: every word, each as a prefix. */
export function wordsMatch(words: readonly string[]): string {
  return words.map((word) => `"${word}"*`).join(' AND ');
}

export function wordsText(words: readonly string[]): string {
  return words.join(' ');
}

/** Migration 9's backfill: the words and amount of every entry already posted, in posting order (migration 15 moves the amounts onto the entries). */
export function backfillEntrySearch(db: Database.Database): void {
  const insertWords = db.prepare(INSERT_ENTRY_WORDS);
  const insertAmount = db.prepare('INSERT INTO entry_amounts (entry_seq, debit_key) VALUES (?, ?)');
  const linesOf = db.prepare('SELECT description, debit_amount FROM journal_lines WHERE entry_seq = ? ORDER BY seq');
  const entries = db.prepare('SELECT seq, description, reference FROM journal_entries ORDER BY seq');
  const rows = entries.all() as { seq: number; description: string; reference: string | null }[];
  for (const entry of rows) {
    const lines = linesOf.all(entry.seq) as { description: string | null; debit_amount: string }[];
    let debits = 0n;
    for (const line of lines) debits += parseStoredAmount(line.debit_amount);
    insertWords.run(entry.seq, wordsText(entrySearchWords({ ...entry, lines })));
    insertAmount.run(entry.seq, amountKey(debits));
  }
}
