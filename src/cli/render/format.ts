/** Small text helpers for human-readable CLI output. */
export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** Prints `label: value` pairs aligned on the colon. */
export function printFields(fields: readonly (readonly [string, string | number | boolean | null | undefined])[]): void {
  const width = Math.max(...fields.map(([label]) => label.length));
  for (const [label, value] of fields) {
    const text = value === null || value === undefined || value === '' ? '-' : String(value);
    process.stdout.write(`${`${label}:`.padEnd(width + 2)}${text}\n`);
  }
}
