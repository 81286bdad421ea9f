/**
 * The date a copied entry starts with. A copy is usually the next one of a kind (this month's
 * rent, like last month's), so it is dated today, as long as today is in an open period. A
 * bookkeeper catching up on earlier months often works where no period covers today yet: then the
 * copy keeps the original's date when that is in an open period (it belongs beside the entry it
 * copies), else it takes the first day of the earliest open period (periods close in order, so
 * that is the month being worked on). Only with no open period at all is it today, which the form
 * then flags ("No period covers this date").
 */
export type CopyDateReason = 'today' | 'original' | 'earliest-open' | 'no-open-period';

interface PeriodDates {
  start_date: string;
  end_date: string;
  status: 'open' | 'closed';
}

export function copyDate(originalDate: string, periods: readonly PeriodDates[], today: string): { date: string; reason: CopyDateReason } {
  const openOn = (date: string) => periods.some((period) => period.status === 'open' && period.start_date <= date && date <= period.end_date);
  if (openOn(today)) return { date: today, reason: 'today' };
  if (openOn(originalDate)) return { date: originalDate, reason: 'original' };
  const earliest = periods.filter((period) => period.status === 'open')
    .reduce<PeriodDates | undefined>((first, period) => (first === undefined || period.start_date < first.start_date ? period : first), undefined);
  if (earliest) return { date: earliest.start_date, reason: 'earliest-open' };
  return { date: today, reason: 'no-open-period' };
}
