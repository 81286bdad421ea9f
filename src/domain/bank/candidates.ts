/**
 * How well a posted entry fits a bank line it could be matched to. Only entries with a line of
 * exactly the bank line's signed amount on the bank account, dated within seven days of it, are
 * candidates; each gets a score from 0 to 100:
 *
 * - 50 for the exact amount (every candidate has it);
 * - up to 30 for the date: 30 on the same day, 4 fewer per day apart (2 at seven days);
 * - up to 20 for the words: the share of the bank description's words (three letters or more)
 *   found in the entry's description or reference, times 20.
 *
 * Best first: by score, then the nearer date, then the earlier entry.
 */
import { daysBetween } from '../dates.js';
import { searchWords } from '../journal/search-words.js';

export const CANDIDATE_WINDOW_DAYS = 7;

export interface CandidateEntry {
  journal_entry_id: string;
  entry_date: string;
  description: string | null;
  reference: string | null;
}

export interface ScoredCandidate extends CandidateEntry {
  score: number;
  reason: string;
}

function meaningfulWords(text: string): Set<string> {
  return new Set(searchWords(text).filter((word) => word.length >= 3));
}

export function scoreCandidate(line: { posted_date: string; description: string }, candidate: CandidateEntry): ScoredCandidate {
  const days = Math.abs(daysBetween(line.posted_date, candidate.entry_date));
  const dateScore = Math.max(0, 30 - 4 * days);
  const wanted = meaningfulWords(line.description);
  const found = meaningfulWords(`${candidate.description ?? ''} ${candidate.reference ?? ''}`);
  const shared = [...wanted].filter((word) => found.has(word));
  const wordScore = wanted.size === 0 ? 0 : Math.round((20 * shared.length) / wanted.size);
  const when = days === 0 ? 'same day' : `${days} day${days === 1 ? '' : 's'} apart`;
  const words = shared.length === 0 ? 'no words in common' : `shares ${shared.map((word) => `"${word}"`).join(', ')}`;
  return { ...candidate, score: 50 + dateScore + wordScore, reason: `Same amount, ${when}, ${words}` };
}

export function rankCandidates(line: { posted_date: string; description: string }, candidates: readonly CandidateEntry[]): ScoredCandidate[] {
  return candidates.map((candidate) => scoreCandidate(line, candidate)).sort((a, b) =>
    b.score - a.score
    || Math.abs(daysBetween(line.posted_date, a.entry_date)) - Math.abs(daysBetween(line.posted_date, b.entry_date))
    || (a.entry_date < b.entry_date ? -1 : a.entry_date > b.entry_date ? 1 : 0));
}
