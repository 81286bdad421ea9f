/** The last step every format shares: the line limit, the period and the fingerprints. */
import { fingerprintLines, type Sha256Hex } from './statement-fingerprint.js';
import { tooManyLines } from './statement-errors.js';
import { MAX_STATEMENT_LINES, type ParsedStatement, type StatementDraft } from './statement.js';

export function finishStatement(draft: StatementDraft, sha256Hex: Sha256Hex): ParsedStatement {
  if (draft.lines.length > MAX_STATEMENT_LINES) throw tooManyLines();
  let first: string | null = null;
  let last: string | null = null;
  for (const line of draft.lines) {
    if (first === null || line.posted_date < first) first = line.posted_date;
    if (last === null || line.posted_date > last) last = line.posted_date;
  }
  return {
    // The file's own period wins: a statement may cover days without any transaction.
    start_date: draft.start_date ?? first,
    end_date: draft.end_date ?? last,
    opening_balance: draft.opening_balance,
    closing_balance: draft.closing_balance,
    currency_code: draft.currency_code,
    lines: fingerprintLines(draft.lines, sha256Hex),
  };
}
