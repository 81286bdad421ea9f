/** Aligned plain-text tables for people; colour only on a TTY and never with NO_COLOR. */
const useColour = () => process.stdout.isTTY === true && !('NO_COLOR' in process.env);

export interface TableOptions {
  /** Column indexes aligned to the right (amounts). */
  rightAligned?: readonly number[];
}

export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const right = new Set(options.rightAligned ?? []);
  const line = (cells: readonly string[]) => cells
    .map((cell, column) => (right.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
    .join('  ').trimEnd();
  const head = line(headers);
  const bold = useColour() ? `\u001b[1m${head}\u001b[0m` : head;
  return [bold, ...rows.map(line)].join('\n') + '\n';
}

export function printTable(headers: readonly string[], rows: readonly (readonly string[])[], options: TableOptions = {}): void {
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  process.stdout.write(formatTable(headers, rows, options));
}
