/**
 * A progress bar on stderr for long commands (`journal-entries import`, `copy`). It draws only
 * when stderr is a terminal, so piped and scripted runs print nothing extra.
 */
export interface ProgressBar {
  update(done: number): void;
  /** Ends the bar's line; call it once, whether the work finished or failed. */
  done(): void;
}

export function progressBar(total: number): ProgressBar {
  const enabled = process.stderr.isTTY === true && total > 0;
  const step = Math.max(1, Math.floor(total / 100));
  const width = 30;
  let drawn = false;
  const draw = (done: number) => {
    const filled = Math.round((done / total) * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    drawn = true;
  };
  return {
    update: (done: number) => { if (enabled && (done % step === 0 || done === total)) draw(done); },
    done: () => { if (drawn) process.stderr.write('\n'); },
  };
}
