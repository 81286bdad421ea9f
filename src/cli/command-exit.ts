/**
 * Ends a command that has printed its full answer with a non-zero exit code: `ledger verify`
 * prints the problems it found (under --json the usual envelope on stdout) and then exits 1, so
 * scripts can test the exit code alone.
 */
export class CommandExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = 'CommandExit';
  }
}
