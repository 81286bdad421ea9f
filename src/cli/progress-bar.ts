/**
 * A progress bar on stderr for long commands (`journal-entries import`, `copy`). It draws only
 * when stderr is a terminal, so piped and scripted runs print nothing extra.
 */
export interface ProgressBar {
  /** `note` follows the counts (`12,000 entries`). */
  update(done: number, note?: string): void;
  /** Ends the bar's line; call it once, whether the work finished or failed. */
  done(): void;
}

/** `total` and each `done` are counted in one unit; `show` writes such a count for people (bytes as MiB). */
export function progressBar(total: number, show: (count: number) => string = String): ProgressBar {
  const enabled = process.stderr.isTTY === true && total > 0;
  const width = 30;
  let drawn = false;
  // Drawn again each time another hundredth is done.
  let shownPercent = -1;
  const draw = (done: number, note: string | undefined) => {
    const filled = Math.min(width, Math.round((done / total) * width));
    const counts = `${show(done)}/${show(total)}${note === undefined ? '' : `, ${note}`}`;
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counts}`);
    drawn = true;
  };
  return {
    update: (done: number, note?: string) => {
      if (!enabled) return;
      const percent = Math.floor((done * 100) / total);
      if (percent === shownPercent) return;
      shownPercent = percent;
      draw(done, note);
    },
    done: () => { if (drawn) process.stderr.write('\n'); },
  };
}
