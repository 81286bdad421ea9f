/** Calendar dates as YYYY-MM-DD strings in the user's local time zone. */
export function todayIso(): string {
  return toIsoDate(new Date());
}

export function toIsoDate(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

export function addDays(iso: string, days: number): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return toIsoDate(new Date(year, month - 1, day + days));
}

/** "2026-03-01" -> "1 Mar 2026" (the ISO form stays in titles and exports). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const [year, month, day] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, day).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A moment to the second (a delivery attempt's time): several may fall in one minute. */
export function formatTimestampSeconds(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The first and last day of the month after the one that contains `iso`. */
export function nextMonth(iso: string): { start: string; end: string; name: string } {
  const [year, month] = iso.split('-').map(Number) as [number, number];
  const start = new Date(year, month, 1);
  const end = new Date(year, month + 1, 0);
  return { start: toIsoDate(start), end: toIsoDate(end), name: start.toLocaleDateString('en', { month: 'long', year: 'numeric' }) };
}

export function monthOf(iso: string): { start: string; end: string; name: string } {
  const [year, month] = iso.split('-').map(Number) as [number, number];
  return nextMonth(toIsoDate(new Date(year, month - 2, 1)));
}

/** "Jan 1 – Jan 31, 2026"; the year is written once when both dates share it. */
export function formatRange(startIso: string, endIso: string): string {
  const start = parseIso(startIso);
  const end = parseIso(endIso);
  const sameYear = start.getFullYear() === end.getFullYear();
  const first = start.toLocaleDateString(undefined, sameYear ? { day: 'numeric', month: 'short' } : { day: 'numeric', month: 'short', year: 'numeric' });
  return `${first} – ${formatDate(endIso)}`;
}

function parseIso(iso: string): Date {
  const [year, month, day] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, day);
}

/** Whether the period is exactly one calendar month. */
function isCalendarMonth(period: { start_date: string; end_date: string }): boolean {
  const start = parseIso(period.start_date);
  const end = parseIso(period.end_date);
  return start.getDate() === 1 && end.getMonth() === start.getMonth() && end.getFullYear() === start.getFullYear()
    && new Date(end.getFullYear(), end.getMonth(), end.getDate() + 1).getDate() === 1;
}

/** A short label for a period: "Mar 2026" when it is one calendar month, else its name. */
export function shortPeriodLabel(period: { name: string; start_date: string; end_date: string }): string {
  return isCalendarMonth(period)
    ? parseIso(period.start_date).toLocaleDateString('en', { month: 'short', year: 'numeric' }) : period.name;
}

/** The shortest label: "Mar" for a calendar month, else the period's name. */
export function tinyPeriodLabel(period: { name: string; start_date: string; end_date: string }): string {
  return isCalendarMonth(period) ? parseIso(period.start_date).toLocaleDateString('en', { month: 'short' }) : period.name;
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A report column's label as people write it: the API's "2026-01" becomes "Jan 2026" and
 * "2026-Q1" becomes "Q1 2026"; anything else is shown as it came. (CSV files keep the API's form,
 * which sorts and reads back unambiguously in a spreadsheet.)
 */
export function columnLabel(label: string): string {
  const month = /^(\d{4})-(\d{2})$/.exec(label);
  if (month) {
    const name = MONTH_NAMES[Number(month[2]) - 1];
    return name ? `${name} ${month[1]}` : label;
  }
  const quarter = /^(\d{4})-Q([1-4])$/.exec(label);
  return quarter ? `Q${quarter[2]} ${quarter[1]}` : label;
}

/** The first day of the calendar quarter holding `iso`. */
export function quarterStart(iso: string): string {
  const month = Number(iso.slice(5, 7));
  return `${iso.slice(0, 4)}-${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
}

/**
 * The last day a "to date" range runs through: the end of the period holding the latest entry
 * (the books as far as they are kept, which is what a bookkeeper catching up on last quarter
 * wants, not months of empty columns up to today), else that entry's own date when no period
 * covers it, else today when there are no entries.
 */
export function lastActivityEnd(latestEntryDate: string | null, periods: readonly { start_date: string; end_date: string }[], today: string): string {
  if (latestEntryDate === null) return today;
  const covering = periods.find((period) => period.start_date <= latestEntryDate && latestEntryDate <= period.end_date);
  return covering?.end_date ?? latestEntryDate;
}

/** "Year to date" and "quarter to date" through `end`: from the first day of its year or quarter. */
export function toDateRange(kind: 'year' | 'quarter', end: string): { start: string; end: string } {
  return { start: kind === 'year' ? `${end.slice(0, 4)}-01-01` : quarterStart(end), end };
}
