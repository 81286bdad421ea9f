/**
 * Splitting a date range into calendar months or quarters, the columns of a multi-period report
 * (like `hledger is -M` / `-Q`). The first and last columns are cut to the range, so the columns
 * add up to exactly the range's figures.
 */
export type ColumnInterval = 'month' | 'quarter';

export interface ReportColumn {
  /** `2026-01` for a month, `2026-Q1` for a quarter. */
  label: string;
  start_date: string;
  end_date: string;
}

/** The most columns one report may have (ten years of months), so a request cannot ask for unbounded work. */
export const MAX_REPORT_COLUMNS = 120;

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** The last day of the month `month` (1-12) of `year`, as YYYY-MM-DD. */
function lastDayOfMonth(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${pad(month)}-${pad(last)}`;
}

/** The columns covering start..end (inclusive, start <= end), in date order. */
export function splitIntoColumns(startDate: string, endDate: string, interval: ColumnInterval): ReportColumn[] {
  const months = interval === 'month' ? 1 : 3;
  let year = Number(startDate.slice(0, 4));
  // The first month of the column holding the start date (a quarter starts in January, April, July or October).
  let month = Number(startDate.slice(5, 7));
  month -= (month - 1) % months;
  const columns: ReportColumn[] = [];
  for (;;) {
    const first = `${year}-${pad(month)}-01`;
    if (first > endDate) break;
    const lastMonth = month + months - 1;
    const last = lastDayOfMonth(year, lastMonth);
    columns.push({
      label: interval === 'month' ? `${year}-${pad(month)}` : `${year}-Q${(month + 2) / 3}`,
      start_date: first < startDate ? startDate : first,
      end_date: last > endDate ? endDate : last,
    });
    month += months;
    if (month > 12) {
      month -= 12;
      year += 1;
    }
  }
  return columns;
}
