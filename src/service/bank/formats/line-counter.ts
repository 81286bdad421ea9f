/**
 * Line numbers of positions in a file's text, asked for in increasing order: one pass over the
 * text however many positions are asked for. A line ends at `\r\n`, `\n` or a lone `\r`.
 */
export class LineCounter {
  private position = 0;
  private line = 1;

  constructor(private readonly text: string) {}

  /** The line of the character at `offset`. */
  lineAt(offset: number): number {
    if (offset < this.position) {
      // Asked out of order (an error message about an earlier element): count again from the start.
      this.position = 0;
      this.line = 1;
    }
    const end = Math.min(offset, this.text.length);
    this.line += countLineBreaks(this.text, this.position, end);
    this.position = end;
    return this.line;
  }
}

/** The line of `offset` in `text`, counted from the start: for the odd error message. */
export function lineOfOffset(text: string, offset: number): number {
  return 1 + countLineBreaks(text, 0, Math.min(offset, text.length));
}

function countLineBreaks(text: string, start: number, end: number): number {
  let breaks = 0;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 10 || (code === 13 && text.charCodeAt(index + 1) !== 10)) breaks += 1;
  }
  return breaks;
}
