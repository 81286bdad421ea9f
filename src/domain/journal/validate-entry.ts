/**
 * Validation of a journal entry before it is posted. Pure: the caller supplies the accounts the
 * lines name and the period that contains the entry date.
 *
 * When an entry breaks several rules, the first failing check in this order is reported
 * (documented in docs/errors.md):
 *  1. fewer than 2 lines                                    VALIDATION_ERROR (field `lines`)
 *  2. every line in order: amount format, then both or neither side
 *                                                           VALIDATION_ERROR (field `lines[i]...`)
 *  3. every line in order: the account exists               VALIDATION_ERROR (`lines[i].account_id`)
 *  4. every line in order: inactive account                 INACTIVE_ACCOUNT (not for closing entries)
 *  5. every line in order: control account                  CONTROL_ACCOUNT
 *  6. lines in more than one currency                       CURRENCY_MISMATCH
 *  7. debits differ from credits, then a total above 2^127-1 UNBALANCED_ENTRY / VALIDATION_ERROR
 *  8. entry date outside every open period                  NO_OPEN_PERIOD
 * Steps 1-2 are `parseLines` (no ledger state needed); 3-8 are `validateEntry`.
 */
import { LedgerError, validationError } from '../errors.js';
import { type AmountMinor, type CurrencyLabel, MAX_AMOUNT, ZERO, formatWithCode, parseLineAmount } from '../money/amount.js';
import type { Account, Period } from '../types.js';

export interface LineInput {
  account_id?: unknown;
  debit_amount?: unknown;
  credit_amount?: unknown;
  description?: unknown;
}

export interface EntryInput {
  entry_date: string;
  description: string;
  reference?: string | null | undefined;
  metadata?: Record<string, unknown> | null | undefined;
  lines: readonly LineInput[];
}

export interface ParsedLine {
  account_id: string;
  debit_amount: AmountMinor;
  credit_amount: AmountMinor;
  description: string | null;
}

export interface ValidatedEntry {
  period: Period;
  currency_id: string;
  lines: ParsedLine[];
  total: AmountMinor;
}

export interface EntryContext {
  /** The accounts named by the lines that exist; missing ids are absent. */
  accounts: ReadonlyMap<string, Account>;
  /** The period whose inclusive bounds contain the entry date, open or closed, if any. */
  period: Period | undefined;
  /**
   * A closing entry zeroes every revenue and expense account that moved in the period, including
   * accounts deactivated since; only it may post to an inactive account.
   */
  allowInactiveAccounts?: boolean;
  /**
   * The code and scale of the accounts' currencies, by currency id, so that messages name amounts
   * as people write them ("92.40 USD"). A currency missing here is named by its id, in minor units.
   */
  currencies: ReadonlyMap<string, CurrencyLabel>;
}

/** Checks the shape of the lines (steps 1-2 without account lookups). */
export function parseLines(lines: readonly LineInput[]): ParsedLine[] {
  if (!Array.isArray(lines) || lines.length < 2) {
    throw validationError('A journal entry needs at least 2 lines', 'lines',
      'Add a debit line and a credit line');
  }
  return lines.map((line, index) => parseLine(line, index));
}

function parseLine(line: LineInput, index: number): ParsedLine {
  const at = `lines[${index}]`;
  if (typeof line !== 'object' || line === null) {
    throw validationError(`${at} must be an object`, at);
  }
  if (typeof line.account_id !== 'string' || line.account_id.length === 0) {
    throw validationError(`${at}.account_id is required`, `${at}.account_id`);
  }
  const debit = parseLineAmount(line.debit_amount, `${at}.debit_amount`) ?? ZERO;
  const credit = parseLineAmount(line.credit_amount, `${at}.credit_amount`) ?? ZERO;
  if ((debit > 0n) === (credit > 0n)) {
    const both = debit > 0n;
    throw validationError(
      both ? `${at} has both a debit and a credit amount` : `${at} has neither a debit nor a credit amount`,
      at, 'Give exactly one of debit_amount or credit_amount as a positive amount per line');
  }
  const description = line.description;
  if (description !== undefined && description !== null && typeof description !== 'string') {
    throw validationError(`${at}.description must be a string`, `${at}.description`);
  }
  return { account_id: line.account_id, debit_amount: debit, credit_amount: credit, description: description ?? null };
}

/** Runs the rules that need the ledger's state (steps 2-7) on lines from `parseLines`. */
export function validateEntry(entryDate: string, lines: readonly ParsedLine[], context: EntryContext): ValidatedEntry {
  const accounts = lines.map((line, index) => {
    const account = context.accounts.get(line.account_id);
    if (!account) {
      throw validationError(`Account ${line.account_id} does not exist`, `lines[${index}].account_id`,
        'Use the id of an existing account (GET /api/v1/accounts)');
    }
    return account;
  });
  accounts.forEach((account, index) => {
    if (!account.is_active && context.allowInactiveAccounts !== true) {
      throw new LedgerError('INACTIVE_ACCOUNT', `Account ${account.account_number} is inactive`, {
        field: `lines[${index}].account_id`, suggestion: 'Reactivate the account or post to an active one',
      });
    }
  });
  accounts.forEach((account, index) => {
    if (account.has_subledger) {
      throw new LedgerError('CONTROL_ACCOUNT', `Account ${account.account_number} is a control account`, {
        field: `lines[${index}].account_id`, suggestion: 'Post to one of its sub-accounts instead',
      });
    }
  });
  const currencyId = accounts[0]!.currency_id;
  const mismatch = accounts.findIndex((account) => account.currency_id !== currencyId);
  if (mismatch >= 0) {
    throw new LedgerError('CURRENCY_MISMATCH', 'All lines of an entry must be in the same currency', {
      field: `lines[${mismatch}].account_id`, suggestion: 'Post one entry per currency',
    });
  }
  const total = sumSides(lines, context.currencies.get(currencyId) ?? { code: currencyId, asset_scale: 0 });
  if (context.period === undefined || context.period.status !== 'open') {
    throw new LedgerError('NO_OPEN_PERIOD',
      context.period ? `Period ${context.period.name} containing ${entryDate} is closed`
        : `No period contains ${entryDate}`,
      { field: 'entry_date', suggestion: 'Date the entry inside an open period, or create a period for it' });
  }
  return { period: context.period, currency_id: currencyId, lines: [...lines], total };
}

function sumSides(lines: readonly ParsedLine[], currency: CurrencyLabel): AmountMinor {
  let debits = 0n;
  let credits = 0n;
  for (const line of lines) {
    debits += line.debit_amount;
    credits += line.credit_amount;
  }
  if (debits !== credits) {
    const more = debits > credits ? 'debits' : 'credits';
    const difference = debits > credits ? debits - credits : credits - debits;
    throw new LedgerError('UNBALANCED_ENTRY',
      `Debits ${formatWithCode(debits, currency)} differ from credits ${formatWithCode(credits, currency)}`, {
        field: 'lines',
        suggestion: `Adjust the lines so both sides total the same: the ${more} are ${formatWithCode(difference, currency)} more `
          + `(${difference} in the minor units of debit_amount and credit_amount)`,
      });
  }
  if (debits > MAX_AMOUNT) {
    throw validationError(`The entry total ${formatWithCode(debits, currency)} exceeds the largest amount, `
      + `${formatWithCode(MAX_AMOUNT, currency)} (2^127 - 1 minor units)`, 'lines', 'Split the entry into several smaller entries');
  }
  return debits as AmountMinor;
}
