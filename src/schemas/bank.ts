/**
 * Bank statements, bank lines, rules and reconciliations on the wire (CONTRACT.md, "Bank
 * statements and reconciliation"; docs/banking.md).
 */
import Type, { type Static } from 'typebox';
import { Amount, AmountInput, DateString, DisplayAmount, Id, NonEmpty, Nullable, PageQuery, Timestamp } from './common.js';

const Column = Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer({ minimum: 1, maximum: 1000 })],
  { description: 'A header name (trimmed, case-insensitive) or a 1-based column number' });

export const CsvMappingBody = Type.Object({
  delimiter: Type.Optional(Type.Union([Type.Literal(','), Type.Literal(';'), Type.Literal('\t')], { description: 'Default ","' })),
  header: Type.Optional(Type.Boolean({ description: 'Whether the first row (after skip_rows) names the columns; default true' })),
  skip_rows: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'Lines skipped before the header row (a preamble); default 0' })),
  date_column: Column,
  date_format: Type.Union([Type.Literal('YYYY-MM-DD'), Type.Literal('DD/MM/YYYY'), Type.Literal('MM/DD/YYYY'), Type.Literal('DD.MM.YYYY')]),
  description_column: Column,
  amount_column: Type.Optional(Column),
  debit_column: Type.Optional(Column),
  credit_column: Type.Optional(Column),
  decimal_separator: Type.Optional(Type.Union([Type.Literal('.'), Type.Literal(',')], {
    description: 'Default "."; the other one, spaces and apostrophes are grouping' })),
  id_column: Type.Optional(Column),
  balance_column: Type.Optional(Column),
}, { additionalProperties: false, description: 'How a CSV file\'s columns map to bank lines: amount_column, or debit_column and credit_column' });
export type CsvMappingInput = Static<typeof CsvMappingBody>;

export const StatementFormat = Type.Union([Type.Literal('csv'), Type.Literal('ofx'), Type.Literal('camt053')]);

export const ImportStatementBody = Type.Object({
  account_id: Id,
  format: StatementFormat,
  content: Type.Optional(Type.String({ description: 'The file\'s text (exactly one of content and content_base64)' })),
  content_base64: Type.Optional(Type.String({ description: 'The file\'s bytes, base64: read as UTF-8 (with or without a BOM), as the XML declaration or OFX header says, else as Windows-1252' })),
  csv: Type.Optional(CsvMappingBody),
}, { additionalProperties: false });
export type ImportStatementInput = Static<typeof ImportStatementBody>;

export const BankStatement = Type.Object({
  id: Id,
  account_id: Id,
  format: StatementFormat,
  file_sha256: Type.String(),
  imported_at: Timestamp,
  imported_by: Nullable(Id),
  start_date: Nullable(DateString),
  end_date: Nullable(DateString),
  opening_balance: Nullable(Amount),
  closing_balance: Nullable(Amount),
  display_opening_balance: Nullable(DisplayAmount),
  display_closing_balance: Nullable(DisplayAmount),
  line_count: Type.Integer(),
  new_count: Type.Integer(),
  duplicate_count: Type.Integer(),
});
export type BankStatementView = Static<typeof BankStatement>;

export const BankStatementDryRun = Type.Object({
  dry_run: Type.Literal(true),
  statement: BankStatement,
}, { description: 'What the import would store (its id and imported_at are provisional): the period, the balances and how many lines are new or already in the books' });
export type BankStatementDryRunView = Static<typeof BankStatementDryRun>;

export const BankStatementListQuery = Type.Object({ account_id: Type.Optional(Id), ...PageQuery }, { additionalProperties: false });
export type BankStatementListInput = Static<typeof BankStatementListQuery>;

const BankLineStatus = Type.Union([Type.Literal('unmatched'), Type.Literal('matched'), Type.Literal('excluded')]);

export const Suggestion = Type.Object({
  counter_account_id: Id,
  counter_account_number: Type.String(),
  counter_account_name: Type.String(),
  rule_id: Id,
  rule_name: Type.String(),
  description: Type.String({ description: 'The description the posted entry would get' }),
  reason: Type.String(),
});

export const BankLine = Type.Object({
  id: Id,
  statement_id: Id,
  account_id: Id,
  posted_date: DateString,
  amount: Amount,
  display_amount: DisplayAmount,
  description: Type.String(),
  external_id: Nullable(Type.String()),
  line_number: Type.Integer({ description: 'Where the transaction starts in its statement file' }),
  status: BankLineStatus,
  excluded_reason: Nullable(Type.String()),
  journal_entry_ids: Type.Array(Id),
  reconciliation_id: Nullable(Id),
  suggestion: Nullable(Suggestion),
});
export type BankLineView = Static<typeof BankLine>;

export const BankLineListQuery = Type.Object({
  account_id: Type.Optional(Id),
  statement_id: Type.Optional(Id),
  status: Type.Optional(BankLineStatus),
  start_date: Type.Optional(DateString),
  end_date: Type.Optional(DateString),
  ...PageQuery,
}, { additionalProperties: false });
export type BankLineListInput = Static<typeof BankLineListQuery>;

export const Candidate = Type.Object({
  journal_entry_id: Id,
  entry_number: Type.Optional(Type.Integer()),
  entry_date: DateString,
  description: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  reason: Type.String(),
});
export type CandidateView = Static<typeof Candidate>;

export const PostBankLineBody = Type.Object({
  counter_account_id: Type.Optional(Id),
  description: Type.Optional(NonEmpty('The entry\'s description (default: the suggestion\'s, else the bank line\'s)', 1000)),
  entry_date: Type.Optional(DateString),
}, { additionalProperties: false });
export type PostBankLineInput = Static<typeof PostBankLineBody>;

export const MatchBankLineBody = Type.Object({
  journal_entry_ids: Type.Array(Id, { minItems: 1, maxItems: 100, uniqueItems: true }),
}, { additionalProperties: false });
export type MatchBankLineInput = Static<typeof MatchBankLineBody>;

export const ExcludeBankLineBody = Type.Object({ reason: NonEmpty('Why the line is not in the books', 500) }, { additionalProperties: false });
export type ExcludeBankLineInput = Static<typeof ExcludeBankLineBody>;

export const AcceptBankLinesBody = Type.Object({
  line_ids: Type.Array(Id, { minItems: 1, maxItems: 1000, uniqueItems: true }),
}, { additionalProperties: false });
export type AcceptBankLinesInput = Static<typeof AcceptBankLinesBody>;


const RuleMatchBody = Type.Object({
  description_contains: Type.Optional(NonEmpty('Case-insensitive text the description contains', 200)),
  description_regex: Type.Optional(NonEmpty('A case-insensitive regular expression (JavaScript syntax) the description matches', 200)),
  amount_min: Type.Optional(AmountInput),
  amount_max: Type.Optional(AmountInput),
  direction: Type.Optional(Type.Union([Type.Literal('in'), Type.Literal('out')])),
}, { additionalProperties: false, description: 'Every given condition must hold; amounts compare the absolute amount' });

export const CreateBankRuleBody = Type.Object({
  name: NonEmpty('Display name', 200),
  priority: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'Lower first; default 100' })),
  account_id: Type.Optional(Nullable(Id)),
  match: RuleMatchBody,
  counter_account_id: Id,
  description: Type.Optional(Nullable(NonEmpty('The posted entry\'s description (default: the bank line\'s)', 1000))),
}, { additionalProperties: false });
export type CreateBankRuleInput = Static<typeof CreateBankRuleBody>;

export const UpdateBankRuleBody = Type.Object({
  name: Type.Optional(NonEmpty('Display name', 200)),
  priority: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  account_id: Type.Optional(Nullable(Id)),
  match: Type.Optional(RuleMatchBody),
  counter_account_id: Type.Optional(Id),
  description: Type.Optional(Nullable(NonEmpty(undefined, 1000))),
}, { additionalProperties: false, minProperties: 1 });
export type UpdateBankRuleInput = Static<typeof UpdateBankRuleBody>;

export const BankRule = Type.Object({
  id: Id,
  name: Type.String(),
  priority: Type.Integer(),
  account_id: Nullable(Id),
  match: Type.Object({
    description_contains: Type.Optional(Type.String()),
    description_regex: Type.Optional(Type.String()),
    amount_min: Type.Optional(AmountInput),
    amount_max: Type.Optional(AmountInput),
    direction: Type.Optional(Type.Union([Type.Literal('in'), Type.Literal('out')])),
  }),
  counter_account_id: Id,
  description: Nullable(Type.String()),
  created_at: Timestamp,
});
export type BankRuleView = Static<typeof BankRule>;

export const BankRuleListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const PreviewBankRuleBody = Type.Object({
  rule: CreateBankRuleBody,
  account_id: Type.Optional(Id),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
}, { additionalProperties: false });
export type PreviewBankRuleInput = Static<typeof PreviewBankRuleBody>;

export const RulePreview = Type.Object({
  matches: Type.Array(Type.Object({ line: BankLine, reason: Type.String(), current_suggestion_rule_id: Nullable(Id) })),
  examined: Type.Integer({ description: 'Unmatched lines looked at' }),
});

export const StartReconciliationBody = Type.Object({
  account_id: Id,
  statement_date: DateString,
  statement_balance: Type.String({ pattern: '^-?(0|[1-9][0-9]*)$', maxLength: 40,
    description: 'The statement\'s closing balance in minor units, signed by the account\'s normal side' }),
}, { additionalProperties: false });
export type StartReconciliationInput = Static<typeof StartReconciliationBody>;

export const ReconciliationLine = Type.Object({
  journal_line_id: Id,
  journal_entry_id: Id,
  entry_date: DateString,
  description: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  amount: Amount,
  display_amount: DisplayAmount,
  cleared_by: Nullable(Type.Union([Type.Literal('bank_match'), Type.Literal('mark')], {
    description: 'Why an open reconciliation counts the line cleared: matched to a bank line dated on or before the statement date, or marked; '
      + 'null for outstanding lines and the lines of a finished reconciliation' })),
  bank_line_id: Nullable(Id),
});

export const Reconciliation = Type.Object({
  id: Id,
  account_id: Id,
  statement_date: DateString,
  statement_balance: Amount,
  display_statement_balance: DisplayAmount,
  status: Type.Union([Type.Literal('open'), Type.Literal('finished')]),
  cleared_balance: Amount,
  display_cleared_balance: DisplayAmount,
  difference: Amount,
  display_difference: DisplayAmount,
  created_at: Timestamp,
  created_by: Nullable(Id),
  finished_at: Nullable(Timestamp),
  finished_by: Nullable(Id),
});
export type ReconciliationView = Static<typeof Reconciliation>;

export const ReconciliationDetail = Type.Intersect([Reconciliation, Type.Object({
  previously_reconciled_balance: Amount,
  display_previously_reconciled_balance: DisplayAmount,
  cleared_lines: Type.Array(Id),
  cleared: Type.Array(ReconciliationLine),
  outstanding: Type.Array(ReconciliationLine),
  unmatched_bank_lines: Type.Array(BankLine),
})]);
export type ReconciliationDetailView = Static<typeof ReconciliationDetail>;

export const ReconciliationListQuery = Type.Object({ account_id: Type.Optional(Id), ...PageQuery }, { additionalProperties: false });

export const ClearLinesBody = Type.Object({
  journal_line_ids: Type.Array(Id, { minItems: 1, maxItems: 1000, uniqueItems: true }),
}, { additionalProperties: false });
export type ClearLinesInput = Static<typeof ClearLinesBody>;
