/**
 * Lines of a tool call may name their account by `account_number`; the API takes `account_id`.
 * This turns tool lines into the API's CreateEntryInput, with the same messages as the API's
 * validation for a line that names no account, and a NOT_FOUND naming the field for an unknown number.
 */
import { LedgerError, validationError } from '../domain/errors.js';
import type { CreateEntryInput } from '../schemas/journal-entry.js';
import type { LedgerService } from '../service/ledger-service.js';
import type { ToolEntry } from './tool-inputs.js';

export async function withAccountIds(service: LedgerService, entries: readonly ToolEntry[], fieldPrefix: (index: number) => string):
  Promise<CreateEntryInput[]> {
  const needsChart = entries.some((entry) => entry.lines.some((line) => line.account_number !== undefined));
  const idsByNumber = needsChart ? new Map((await service.chartOfAccounts()).map((account) => [account.account_number, account.id])) : undefined;
  return entries.map((entry, entryIndex) => ({
    ...entry,
    lines: entry.lines.map(({ account_number, account_id, ...line }, lineIndex) => {
      const field = `${fieldPrefix(entryIndex)}lines[${lineIndex}]`;
      if (account_id !== undefined && account_number !== undefined) {
        throw validationError(`${field} names its account twice`, `${field}.account_number`, 'Give account_id or account_number, not both');
      }
      if (account_number === undefined) {
        if (account_id === undefined) throw validationError(`${field}.account_id is required`, `${field}.account_id`, 'Give account_id or account_number');
        return { ...line, account_id };
      }
      const id = idsByNumber!.get(account_number);
      if (id === undefined) {
        throw new LedgerError('NOT_FOUND', `Account number ${account_number} does not exist`, {
          field: `${field}.account_number`, suggestion: 'Call list_accounts or read ledger://accounts for the chart of accounts',
        });
      }
      return { ...line, account_id: id };
    }),
  }));
}

/**
 * The id of the account a tool call names by `account_id` or by its number (`account_number`):
 * giving both is a VALIDATION_ERROR, an unknown number NOT_FOUND naming its field. Neither gives
 * undefined (the caller decides whether the account is optional).
 */
export async function accountIdOf(service: LedgerService, id: string | undefined, number: string | undefined,
  fields: { id: string; number: string }): Promise<string | undefined> {
  if (id !== undefined && number !== undefined) {
    throw validationError(`Give ${fields.id} or ${fields.number}, not both`, fields.number, `Name the account once: by ${fields.id} or by ${fields.number}`);
  }
  if (number === undefined) return id;
  const found = (await service.chartOfAccounts()).find((account) => account.account_number === number);
  if (found === undefined) {
    throw new LedgerError('NOT_FOUND', `Account number ${number} does not exist`, {
      field: fields.number, suggestion: 'Call list_accounts or read ledger://accounts for the chart of accounts',
    });
  }
  return found.id;
}
