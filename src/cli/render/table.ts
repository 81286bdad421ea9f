/** Aligned plain-text tables for people; colour only on a TTY and never with NO_COLOR. */
// no-color.org: a NO_COLOR that is present and not empty turns colour off.
const useColour = () => process.stdout.isTTY === true && !process.env.NO_COLOR;

export interface TableOptions {
  /** Column indexes aligned to the right (amounts). */
  rightAligned?: readonly number[];
}

/** Wide (two-column) characters: CJK, Hangul, fullwidth forms and emoji; an approximation of East Asian Width. */
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;

/** The terminal columns a cell takes, so that names in any script line up (`padEnd` counts code units). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += ZERO_WIDTH.test(char) ? 0 : WIDE.test(char) ? 2 : 1;
  return width;
}

export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const widths = headers.map((header, column) => Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[column] ?? ''))));
  const right = new Set(options.rightAligned ?? []);
  const line = (cells: readonly string[]) => cells
    .map((cell, column) => {
      const padding = ' '.repeat(widths[column]! - displayWidth(cell));
      return right.has(column) ? padding + cell : cell + padding;
    })
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
