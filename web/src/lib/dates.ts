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
