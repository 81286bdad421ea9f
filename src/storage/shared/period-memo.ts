import type { Period } from '../../domain/types.js';

/**
 * Periods found by a write transaction: every post looks up its date's period, and the entries of
 * a group or an import mostly fall in the same few. Valid while the transaction holds what it read
 * (SQLite: the write lock; PostgreSQL: the period locked FOR SHARE until COMMIT) and has not
 * changed a period or rolled a job back: the transaction clears it then.
 */
export class PeriodMemo {
  private readonly periods: Period[] = [];

  async find(date: string, load: (date: string) => Promise<Period | undefined>): Promise<Period | undefined> {
    const known = this.periods.find((period) => period.start_date <= date && date <= period.end_date);
    if (known) return known;
    const found = await load(date);
    if (found && found.start_date <= date && date <= found.end_date) this.periods.push(found);
    return found;
  }

  clear(): void {
    this.periods.length = 0;
  }
}
