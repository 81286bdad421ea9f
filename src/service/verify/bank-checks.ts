/**
 * The bank's side of the books, checked after the fact. `bank_matches`: every matched bank line
 * still stands for journal lines on its own account that sum to exactly its amount, and an
 * unmatched or excluded line stands for none. `reconciliations`: the journal lines each finished
 * reconciliation of an account reconciled, added to those of the ones before it, still make its
 * statement balance (signed by the account's normal side), so every finished reconciliation still
 * adds up. Both read the banking rows once, after the entries have streamed past.
 */
import type { BankLine, Reconciliation } from '../../domain/bank/banking.js';
import type { LedgerReads } from '../ports/ledger-store.js';
import type { StorePage } from '../ports/store-pages.js';
import { TimeSlice } from '../time-slice.js';
import type { CheckDefinition } from './check.js';

async function* everyItem<T>(list: (after: readonly (string | number)[] | undefined) => Promise<StorePage<T>>): AsyncGenerator<T> {
  let after: readonly (string | number)[] | undefined;
  const slice = new TimeSlice();
  do {
    await slice.pause();
    const page = await list(after);
    yield* page.items;
    after = page.next;
  } while (after !== undefined);
}

const everyBankLine = (reads: LedgerReads) => everyItem<BankLine>((after) => reads.listBankLines({}, { limit: 500, after }));

export const bankMatchesCheck: CheckDefinition = {
  name: 'bank_matches',
  description: 'every matched bank line stands for journal lines on its account that sum to exactly its amount',
  create: ({ reads, report }) => ({
    async finish() {
      for await (const line of everyBankLine(reads)) {
        const lines = line.journal_entry_ids.length === 0 ? [] : (await reads.accountLinesOfEntries(line.account_id, line.journal_entry_ids))
          .filter((accountLine) => accountLine.bank_line_id === line.id);
        if (line.status !== 'matched') {
          if (lines.length > 0 || line.journal_entry_ids.length > 0) {
            report({ account_id: line.account_id, message: `Bank line ${line.id} is ${line.status} but is matched to entries ${line.journal_entry_ids.join(', ')}` });
          }
          continue;
        }
        const sum = lines.reduce((total, accountLine) => total + accountLine.debit_amount - accountLine.credit_amount, 0n);
        if (lines.length === 0 || sum !== line.amount) {
          report({ account_id: line.account_id, entry_id: line.journal_entry_ids[0],
            message: `Bank line ${line.id} of ${line.posted_date} is matched to journal lines that do not sum to its amount`,
            expected: line.amount.toString(), found: sum.toString() });
        }
      }
    },
  }),
};

export const reconciliationsCheck: CheckDefinition = {
  name: 'reconciliations',
  description: 'every finished reconciliation still adds up: the lines reconciled through it make its statement balance',
  create: ({ reads, books, report }) => ({
    async finish() {
      const finished: Reconciliation[] = [];
      for await (const reconciliation of everyItem<Reconciliation>((after) => reads.listReconciliations({}, { limit: 500, after }))) {
        if (reconciliation.status === 'finished') finished.push(reconciliation);
      }
      // Oldest first per account (the list is newest first).
      finished.sort((a, b) => (a.account_id < b.account_id ? -1 : a.account_id > b.account_id ? 1
        : a.statement_date < b.statement_date ? -1 : a.statement_date > b.statement_date ? 1 : 0));
      const running = new Map<string, bigint>();
      for (const reconciliation of finished) {
        const account = books.accounts.get(reconciliation.account_id);
        if (account === undefined) {
          report({ account_id: reconciliation.account_id, message: `Reconciliation ${reconciliation.id} is of an account that does not exist` });
          continue;
        }
        const net = (await reads.reconciledLinesOf(reconciliation.id)).reduce((sum, line) => sum + line.debit_amount - line.credit_amount, 0n);
        const total = (running.get(account.id) ?? 0n) + (account.normal_balance === 'debit' ? net : -net);
        running.set(account.id, total);
        if (total !== reconciliation.statement_balance) {
          report({ account_id: account.id, date: reconciliation.statement_date,
            message: `Reconciliation ${reconciliation.id} of ${reconciliation.statement_date} no longer adds up to its statement balance`,
            expected: reconciliation.statement_balance.toString(), found: total.toString() });
        }
      }
    },
  }),
};
