/** CSV downloads, generated in the browser from the rows on screen. */
import { type CsvCell, toCsv } from './csv-text.js';

export type { CsvCell };
export { csvFileName, reportCoverage } from './csv-text.js';

export function downloadCsv(filename: string, header: readonly string[], rows: readonly (readonly CsvCell[])[]): void {
  const blob = new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
