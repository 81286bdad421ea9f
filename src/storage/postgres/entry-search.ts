/**
 * What PostgreSQL keeps to find entries (migration 11): per entry, its words as a `tsvector` made
 * from our own word list (domain/journal/search-words.ts) with `array_to_tsvector`, so no text
 * search configuration or parser of the server's changes them. Built-in full text search only: no
 * extension to install. The entry's debit total, kept here until migration 16, is a column of the
 * entry since.
 */
import type pg from 'pg';
import { entrySearchWords } from '../../domain/journal/search-words.js';

/** The tsquery for words of letters and digits only: every word, each as a prefix. */
export function wordsQuery(words: readonly string[]): string {
  return words.map((word) => `'${word}':*`).join(' & ');
}

export function wordsText(words: readonly string[]): string {
  return words.join(' ');
}

/** The tsvector of a space-separated word list (a parameter of wordsText's shape). */
export const WORDS_VECTOR = (parameter: string) => `array_to_tsvector(string_to_array(${parameter}, ' '))`;

const BACKFILL_BATCH = 1000;

/**
 * One batch of the backfill: the entries after the cursor ($1), at most $2, with their lines. The
 * lines' own bound (`l.entry_seq > $1`) lets their index start at the cursor: with the join's
 * condition alone PostgreSQL merge-joins from the ledger's first line for every batch, and the
 * backfill grew with the square of the ledger (at ten million lines it ran for more than half an
 * hour and was stopped).
 */
export const BACKFILL_BATCH_SQL = `SELECT e.seq::text AS seq, e.description, e.reference,
    array_agg(l.description ORDER BY l.seq) AS line_descriptions, sum(l.debit_amount)::text AS debit_total
  FROM journal_entries e JOIN journal_lines l ON l.entry_seq = e.seq
  WHERE e.seq > $1::bigint AND l.entry_seq > $1::bigint GROUP BY e.seq ORDER BY e.seq LIMIT $2`;

/**
 * The words of every entry already posted, in batches in posting order: migration 11's backfill
 * (which also wrote each entry's debit total beside its words, `withAmounts`, until migration 16
 * moved the amount onto the entry), and a rebuild of the words of entries copied in another way.
 */
export async function backfillEntrySearch(client: pg.Client, withAmounts = false): Promise<void> {
  let after = '0';
  for (;;) {
    const { rows } = await client.query<{ seq: string; description: string; reference: string | null;
      line_descriptions: (string | null)[]; debit_total: string }>(BACKFILL_BATCH_SQL, [after, BACKFILL_BATCH]);
    if (rows.length === 0) return;
    const words = rows.map((row) => wordsText(entrySearchWords({
      description: row.description, reference: row.reference,
      lines: row.line_descriptions.map((description) => ({ description })),
    })));
    await client.query(withAmounts
      ? `INSERT INTO entry_search (entry_seq, debit_total, words)
         SELECT seq, debit_total, ${WORDS_VECTOR('words')}
         FROM unnest($1::bigint[], $2::numeric[], $3::text[]) AS found(seq, debit_total, words)`
      : `INSERT INTO entry_search (entry_seq, words)
         SELECT seq, ${WORDS_VECTOR('words')} FROM unnest($1::bigint[], $2::text[]) AS found(seq, words)`,
    withAmounts ? [rows.map((row) => row.seq), rows.map((row) => row.debit_total), words] : [rows.map((row) => row.seq), words]);
    after = rows[rows.length - 1]!.seq;
  }
}
