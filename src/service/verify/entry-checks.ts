/**
 * Checks of each entry on its own: its lines, its balance, its currency, its period, and that it
 * was not posted into a period after that period closed.
 */
import { formatWithCode } from '../../domain/money/amount.js';
import type { JournalEntryView } from '../../domain/types.js';
import type { Books } from './books.js';
import type { CheckDefinition } from './check.js';

export const entryLinesCheck: CheckDefinition = {
  name: 'entry_lines',
  description: 'every entry has at least two lines, each with exactly one positive side',
  create: ({ report }) => ({
    entry(entry) {
      if (entry.lines.length < 2) {
        report({ entry_id: entry.id, message: `Entry ${entry.id} has ${entry.lines.length} line${entry.lines.length === 1 ? '' : 's'}; every entry has at least 2`,
          expected: 'at least 2 lines', found: String(entry.lines.length) });
      }
      for (const line of entry.lines) {
        const oneSide = (line.debit_amount > 0n && line.credit_amount === 0n) || (line.credit_amount > 0n && line.debit_amount === 0n);
        if (!oneSide) {
          report({ entry_id: entry.id, account_id: line.account_id,
            message: `Line ${line.id} of entry ${entry.id} has debit ${line.debit_amount} and credit ${line.credit_amount}; a line has exactly one positive side` });
        }
      }
    },
  }),
};

/** An amount as people write it ("45.00 USD"); in minor units after the id of a currency the books lack. */
function written(amount: bigint, currencyId: string, books: Books): string {
  const currency = books.currencies.find((candidate) => candidate.id === currencyId);
  return currency === undefined ? `${amount} (minor units of ${currencyId})` : formatWithCode(amount, currency);
}

export const entryBalanceCheck: CheckDefinition = {
  name: 'entry_balance',
  description: 'every entry\'s debits equal its credits',
  create: ({ report, books }) => ({
    entry(entry) {
      let debits = 0n;
      let credits = 0n;
      for (const line of entry.lines) {
        debits += line.debit_amount;
        credits += line.credit_amount;
      }
      if (debits !== credits) {
        report({ entry_id: entry.id, currency_id: entry.currency_id,
          message: `Entry ${entry.id} (${entry.entry_date}) does not balance: debits ${written(debits, entry.currency_id, books)}, `
            + `credits ${written(credits, entry.currency_id, books)}`,
          expected: `credits ${debits}`, found: `credits ${credits}` });
      }
    },
  }),
};

export const entryCurrencyCheck: CheckDefinition = {
  name: 'entry_currency',
  description: 'every line posts to an existing posting account (not a control account) in its entry\'s currency',
  create: ({ books, report }) => ({
    entry(entry) {
      if (!books.currencyIds.has(entry.currency_id)) {
        report({ entry_id: entry.id, currency_id: entry.currency_id, message: `Entry ${entry.id} names currency ${entry.currency_id}, which does not exist` });
      }
      for (const line of entry.lines) {
        const account = books.accounts.get(line.account_id);
        if (account === undefined) {
          report({ entry_id: entry.id, account_id: line.account_id, message: `Line ${line.id} of entry ${entry.id} posts to account ${line.account_id}, which does not exist` });
        } else if (account.currency_id !== entry.currency_id) {
          report({ entry_id: entry.id, account_id: account.id, currency_id: entry.currency_id,
            message: `Entry ${entry.id} is in currency ${entry.currency_id} but its line ${line.id} posts to account ${account.account_number}, in ${account.currency_id}`,
            expected: entry.currency_id, found: account.currency_id });
        } else if (account.has_subledger) {
          report({ entry_id: entry.id, account_id: account.id,
            message: `Line ${line.id} of entry ${entry.id} posts to control account ${account.account_number}; only its sub-accounts take lines` });
        }
      }
    },
  }),
};

export const entryPeriodCheck: CheckDefinition = {
  name: 'entry_period',
  description: 'every entry is dated inside its period, and its period is the one that contains its date',
  create: ({ books, report }) => ({
    entry(entry: JournalEntryView) {
      const period = books.periodsById.get(entry.period_id);
      if (period === undefined) {
        report({ entry_id: entry.id, period_id: entry.period_id, message: `Entry ${entry.id} belongs to period ${entry.period_id}, which does not exist` });
        return;
      }
      if (entry.entry_date < period.start_date || entry.entry_date > period.end_date) {
        const containing = books.periodContaining(entry.entry_date);
        report({ entry_id: entry.id, period_id: period.id,
          message: `Entry ${entry.id} is dated ${entry.entry_date}, outside its period ${period.name} (${period.start_date} to ${period.end_date})`
            + (containing ? `; that date is in period ${containing.name}` : '; no period contains that date'),
          expected: `${period.start_date} to ${period.end_date}`, found: entry.entry_date });
      }
    },
  }),
};

export const postedAfterCloseCheck: CheckDefinition = {
  name: 'posted_after_close',
  description: 'no entry of a closed period was posted after the period closed',
  create: ({ books, report }) => ({
    entry(entry) {
      const period = books.periodsById.get(entry.period_id);
      if (period?.status !== 'closed' || period.closed_at === null) return;
      if (entry.posted_at > period.closed_at) {
        report({ entry_id: entry.id, period_id: period.id,
          message: `Entry ${entry.id} was posted at ${entry.posted_at}, after its period ${period.name} closed at ${period.closed_at}`,
          expected: `posted at or before ${period.closed_at}`, found: entry.posted_at });
      }
    },
  }),
};

export const periodsCheck: CheckDefinition = {
  name: 'periods',
  description: 'periods do not overlap, and a closed period records when it closed',
  create: ({ books, report }) => ({
    finish() {
      let previous: (typeof books.periods)[number] | undefined;
      for (const period of books.periods) {
        if (previous !== undefined && period.start_date <= previous.end_date) {
          report({ period_id: period.id,
            message: `Period ${period.name} (${period.start_date} to ${period.end_date}) overlaps period ${previous.name} (${previous.start_date} to ${previous.end_date})` });
        }
        if (period.status === 'closed' && period.closed_at === null) {
          report({ period_id: period.id, message: `Period ${period.name} is closed but has no closed_at` });
        }
        if (period.status === 'open' && (period.closed_at !== null || period.closing_entry_id !== null)) {
          report({ period_id: period.id, message: `Period ${period.name} is open but records a close (closed_at or closing_entry_id)` });
        }
        if (previous === undefined || period.end_date > previous.end_date) previous = period;
      }
    },
  }),
};

export const entryNumbersCheck: CheckDefinition = {
  name: 'entry_numbers',
  description: 'entries are numbered 1, 2, ... in posting order, without gaps or repeats',
  create: ({ report }) => {
    let expected = 1;
    return {
      entry(entry) {
        if (entry.entry_number !== expected) {
          report({ entry_id: entry.id, message: `Entry ${entry.id} is number ${entry.entry_number}; in posting order it is number ${expected}`,
            expected: String(expected), found: String(entry.entry_number) });
        }
        expected += 1;
      },
    };
  },
};
