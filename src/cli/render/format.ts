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

/** "-54.20 EUR": a display amount with the code of its currency; '' for no amount. */
export function withCode(display: string | null, code: string): string {
  if (display === null) return '';
  return code === '' ? display : `${display} ${code}`;
}

/**
 * A display amount ("-1234567.50", as the service formats it) with its whole part grouped in
 * thousands ("-1,234,567.50"), for people reading reports. Text only: the digits stay as they are.
 */
export function groupThousands(display: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(display);
  if (!match) return display;
  const [, sign, whole, fraction] = match;
  return `${sign}${whole!.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction ?? ''}`;
}
