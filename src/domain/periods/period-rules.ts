import { LedgerError, validationError } from '../errors.js';
import type { Period } from '../types.js';

export function assertPeriodBounds(startDate: string, endDate: string): void {
  if (startDate > endDate) {
    throw validationError('end_date must be on or after start_date', 'end_date');
  }
}

/** Bounds are inclusive, so two periods sharing a day overlap. */
export function assertNoOverlap(startDate: string, endDate: string, existing: readonly Period[]): void {
  const clash = existing.find((period) => period.start_date <= endDate && startDate <= period.end_date);
  if (clash) {
    throw new LedgerError('PERIOD_OVERLAP',
      `The period overlaps ${clash.name} (${clash.start_date} to ${clash.end_date})`, {
        field: 'start_date', suggestion: `Start after ${clash.end_date} or end before ${clash.start_date}`,
      });
  }
}
