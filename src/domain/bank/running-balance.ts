/**
 * A CSV file's opening and closing balances from its running-balance column.
 *
 * Banks sort their exports either oldest first or newest first, so the file's time order is
 * decided first: oldest first when its first row is dated before its last, newest first when
 * after. When both are dated the same day, the balances decide: newest first only when every
 * pair of neighbouring rows adds up read bottom-up (`balance[i] = balance[i+1] + amount[i]`) and
 * not read top-down; otherwise oldest first. Rows dated the same day keep the file's order
 * within that time order, so the last of the latest day's rows (oldest first) or the first
 * (newest first) is the latest.
 *
 * In that time order, the closing balance is the latest row's balance and the opening balance is
 * the earliest row's balance minus its amount. A row may leave its balance cell empty (some banks
 * fill it once a day); then the nearest row with a balance is used and the amounts between are
 * added or taken off, which is exactly what a running balance means. Without any balance, both
 * are null.
 */
import { fileError } from './statement-errors.js';
import { isWithinRange } from '../money/amount.js';

export interface RunningBalanceRow {
  posted_date: string;
  amount: bigint;
  /** The balance after this row, or null when the cell is empty. */
  balance: bigint | null;
}

export interface StatementBalances {
  opening_balance: bigint | null;
  closing_balance: bigint | null;
}

export function balancesFromRunningBalances(rows: readonly RunningBalanceRow[]): StatementBalances {
  if (!rows.some((row) => row.balance !== null)) return { opening_balance: null, closing_balance: null };
  const inTimeOrder = isNewestFirst(rows) ? [...rows].reverse() : rows;
  let opening: bigint | null = null;
  let amountsSoFar = 0n;
  let closing = 0n;
  for (const row of inTimeOrder) {
    amountsSoFar += row.amount;
    closing += row.amount;
    if (row.balance === null) continue;
    opening ??= row.balance - amountsSoFar;
    closing = row.balance;
  }
  const opening_balance = opening as bigint;
  if (!isWithinRange(opening_balance) || !isWithinRange(closing)) {
    throw fileError('The balances the file implies are outside the signed 128-bit range', 'Check the balance column of the mapping');
  }
  return { opening_balance, closing_balance: closing };
}

function isNewestFirst(rows: readonly RunningBalanceRow[]): boolean {
  const first = (rows[0] as RunningBalanceRow).posted_date;
  const last = (rows[rows.length - 1] as RunningBalanceRow).posted_date;
  if (first !== last) return first > last;
  let addsUpTopDown = true;
  let addsUpBottomUp = true;
  let pairs = 0;
  for (let index = 0; index + 1 < rows.length; index += 1) {
    const upper = rows[index] as RunningBalanceRow;
    const lower = rows[index + 1] as RunningBalanceRow;
    if (upper.balance === null || lower.balance === null) continue;
    pairs += 1;
    if (lower.balance !== upper.balance + lower.amount) addsUpTopDown = false;
    if (upper.balance !== lower.balance + upper.amount) addsUpBottomUp = false;
  }
  return pairs > 0 && addsUpBottomUp && !addsUpTopDown;
}
