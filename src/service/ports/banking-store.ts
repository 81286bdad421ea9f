/**
 * The storage port's banking concern: statements, bank lines, rules, matches and reconciliations
 * (domain/bank/banking.ts). Composed into LedgerReads and LedgerWrites (ledger-store.ts).
 *
 * Inside a write transaction, `lockBankAccount` holds one bank account's statements, lines and
 * reconciliations against every other writer until the transaction ends (SQLite's single writer
 * does already; PostgreSQL takes a transaction lock): an import reads which fingerprints exist and
 * then inserts the rest, matching reads a line's status and then changes it, a reconciliation reads
 * what is cleared and then finishes. The database's own constraints keep the rest: one statement
 * per file per account, one line per fingerprint per account, a journal line matched to at most one
 * bank line, one open reconciliation per account, a journal line reconciled once.
 */
import type {
  BankAccountLine, BankLine, BankLineStatus, BankMatchLine, BankRule, BankStatement, NewBankLine, Reconciliation,
} from '../../domain/bank/banking.js';
import type { PageRequest, StorePage } from './store-pages.js';

export interface BankLineFilter {
  account_id?: string | undefined;
  statement_id?: string | undefined;
  status?: BankLineStatus | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

/** What a reconciliation of an account as of a date reads: every journal line dated on or before it not reconciled before. */
export interface UnreconciledLine extends BankAccountLine {
  /** Matched to a bank line dated on or before the statement date. */
  matched_on_or_before: boolean;
  /** Marked cleared in the open reconciliation asked about. */
  marked: boolean;
  /** The bank line it is matched to, if any. */
  bank_line_id: string | null;
}

export interface BankingReads {
  getBankStatement(id: string): Promise<BankStatement | undefined>;
  findBankStatementByFile(accountId: string, fileSha256: string): Promise<BankStatement | undefined>;
  /** In import order, keyset-paged on [imported_at, id]. */
  listBankStatements(filter: { account_id?: string | undefined }, page: PageRequest): Promise<StorePage<BankStatement>>;
  /** Which of the fingerprints the account's lines already have. */
  existingFingerprints(accountId: string, fingerprints: readonly string[]): Promise<Set<string>>;

  getBankLine(id: string): Promise<BankLine | undefined>;
  getBankLines(ids: readonly string[]): Promise<BankLine[]>;
  /** Oldest first: by posted_date, then import order; keyset-paged on [posted_date, seq]. */
  listBankLines(filter: BankLineFilter, page: PageRequest): Promise<StorePage<BankLine>>;

  getBankRule(id: string): Promise<BankRule | undefined>;
  /** Every rule, in the order they apply: priority, then creation (created_at, then id). */
  allBankRules(): Promise<BankRule[]>;
  /** The rules that name the account as their counter account or their bank account. */
  countBankRulesUsingAccount(accountId: string): Promise<number>;

  /** The account's journal lines of exactly `amount` (debit - credit) dated from..through, not matched to a bank line. */
  listUnmatchedAccountLines(accountId: string, amount: bigint, fromDate: string, throughDate: string, limit: number): Promise<BankAccountLine[]>;
  /** The account's journal lines in these entries, with which bank line (if any) each is matched to. */
  accountLinesOfEntries(accountId: string, entryIds: readonly string[]): Promise<(BankAccountLine & { bank_line_id: string | null })[]>;

  getReconciliation(id: string): Promise<Reconciliation | undefined>;
  /** Newest statement date first, keyset-paged on [statement_date, id]. */
  listReconciliations(filter: { account_id?: string | undefined }, page: PageRequest): Promise<StorePage<Reconciliation>>;
  findOpenReconciliation(accountId: string): Promise<Reconciliation | undefined>;
  lastFinishedReconciliation(accountId: string): Promise<Reconciliation | undefined>;
  /** The account's journal lines dated on or before the date, or matched to a bank line dated on or before it, not reconciled before. */
  unreconciledLines(accountId: string, statementDate: string, reconciliationId: string): Promise<UnreconciledLine[]>;
  /** The journal lines a finished reconciliation reconciled. */
  reconciledLinesOf(reconciliationId: string): Promise<BankAccountLine[]>;
  /** Sum of debit - credit of every journal line of the account reconciled so far. */
  reconciledTotal(accountId: string): Promise<bigint>;
  /** Which of these journal lines were reconciled before. */
  reconciledLineIds(journalLineIds: readonly string[]): Promise<Set<string>>;
}

/** What an update of a bank rule may change. */
export type BankRuleChanges = Partial<Omit<BankRule, 'id' | 'created_at'>>;

export interface BankingWrites {
  /** Holds the account's banking rows against other writers until the transaction ends (see above). */
  lockBankAccount(accountId: string): Promise<void>;
  insertBankStatement(statement: BankStatement, lines: readonly NewBankLine[]): Promise<void>;
  /** Matches an unmatched line to journal lines: status matched. */
  matchBankLine(id: string, lines: readonly BankMatchLine[]): Promise<void>;
  excludeBankLine(id: string, reason: string): Promise<void>;
  /** Back to unmatched: its matches (or its exclusion) are forgotten. */
  unmatchBankLine(id: string): Promise<void>;

  insertBankRule(rule: BankRule): Promise<void>;
  updateBankRule(id: string, changes: BankRuleChanges): Promise<void>;
  deleteBankRule(id: string): Promise<void>;

  insertReconciliation(reconciliation: Reconciliation): Promise<void>;
  markReconciliationLines(reconciliationId: string, journalLineIds: readonly string[]): Promise<void>;
  unmarkReconciliationLines(reconciliationId: string, journalLineIds: readonly string[]): Promise<void>;
  /** Finishes it: the lines become reconciled for good, and the bank lines locked. */
  finishReconciliation(id: string, finishedAt: string, finishedBy: string | null, journalLineIds: readonly string[],
    lockedBankLineIds: readonly string[], report: string): Promise<void>;
}
