/** The short readable text that accompanies each tool's structured result. */
import type { DryRunBatchView, DryRunEntryView } from '../schemas/dry-run.js';
import type { EntryView } from '../schemas/journal-entry.js';

export function entryLine(entry: EntryView): string {
  const lines = entry.lines.map((line) => line.debit_amount !== '0'
    ? `Dr ${line.account_number} ${line.account_name} ${line.display_debit}`
    : `Cr ${line.account_number} ${line.account_name} ${line.display_credit}`);
  return `${entry.entry_type} entry ${entry.id} on ${entry.entry_date} "${entry.description}": ${lines.join('; ')}`;
}

export function dryRunText(result: DryRunEntryView | DryRunBatchView): string {
  const entries = 'entry' in result ? [result.entry] : result.entries;
  const balances = result.balances.map((change) => `${change.account_number} ${change.before.display_balance} -> ${change.after.display_balance}`);
  return [`Dry run, nothing was posted. Would post ${entries.length === 1 ? 'this entry' : `${entries.length} entries`}:`,
    ...entries.map(entryLine), `Balances: ${balances.join('; ')}`].join('\n');
}

export function pageText(noun: string, count: number, hasMore: boolean, rows: string[]): string {
  const head = `${count} ${noun}${hasMore ? ' (more: pass next_cursor as cursor)' : ''}`;
  return [head, ...rows].join('\n');
}
