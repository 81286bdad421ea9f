/**
 * The problems a verification finds. A damaged ledger can break one invariant in thousands of
 * places (a corrupted total shows on every later day), so each check lists at most
 * MAX_PROBLEMS_PER_CHECK problems and then says how many more it found.
 */
import type { VerifyProblemView } from '../../schemas/verify.js';

export type Problem = VerifyProblemView;

export const MAX_PROBLEMS_PER_CHECK = 100;

export class ProblemLog {
  private readonly listed: Problem[] = [];
  private readonly omitted = new Map<string, number>();
  private readonly counts = new Map<string, number>();

  /** `checks`: the checks' names in the order their problems are listed. */
  constructor(private readonly checks: readonly string[]) {}

  add(problem: Problem): void {
    const count = (this.counts.get(problem.check) ?? 0) + 1;
    this.counts.set(problem.check, count);
    if (count <= MAX_PROBLEMS_PER_CHECK) this.listed.push(problem);
    else this.omitted.set(problem.check, (this.omitted.get(problem.check) ?? 0) + 1);
  }

  get size(): number {
    return [...this.counts.values()].reduce((sum, count) => sum + count, 0);
  }

  /**
   * Every listed problem, check by check in the checks' order (each check's in the order found),
   * each check's followed by a line saying how many more it found when it found more than it lists.
   */
  all(): Problem[] {
    const rank = (check: string) => {
      const index = this.checks.indexOf(check);
      return index === -1 ? this.checks.length : index;
    };
    const ordered: Problem[] = [];
    for (const check of [...this.counts.keys()].sort((a, b) => rank(a) - rank(b))) {
      ordered.push(...this.listed.filter((problem) => problem.check === check));
      const more = this.omitted.get(check);
      if (more !== undefined) {
        ordered.push({ check, message: `${more} more problem${more === 1 ? '' : 's'} of this check ${more === 1 ? 'is' : 'are'} not listed` });
      }
    }
    return ordered;
  }
}

/** Gross debit and credit sums, as the problems show them. */
export function describeTotals(totals: { debit_total: bigint; credit_total: bigint } | undefined): string {
  return `debits ${totals?.debit_total ?? 0n}, credits ${totals?.credit_total ?? 0n}`;
}
