import Type, { type Static } from 'typebox';
import { accountLineFields, NormalBalance } from './account.js';
import { Amount, DateString, DisplayAmount, Id, Nullable, PageQuery } from './common.js';
import { CompanyName } from './settings.js';

/** Every report names the company it is about (the company_name setting), for printouts and files. */
const companyField = { company_name: CompanyName };

/** The account a report is about (the general ledger's account, the aged balances' control account). */
const reportAccountFields = {
  account_id: Id,
  account_number: Type.String(),
  account_name: Type.String(),
  normal_balance: NormalBalance,
  currency_id: Id,
};

/** Translated reports (docs/currencies.md): the currency asked for, which must be the base currency for now. */
const presentationQuery = {
  presentation_currency_id: Type.Optional(Type.String({
    minLength: 1, maxLength: 100,
    description: 'Translate every account into this currency (only the base currency is accepted): balance-sheet accounts at the rate of the report date, revenue and expense at each day\'s rate; a row "Exchange differences on translation" balances it. Not with currency_id',
  })),
};

/** On a translated report: the currency it is shown in (absent otherwise). */
const presentedIn = {
  presentation_currency_id: Type.Optional(Id),
};

/** On a translated report's rows: the row's own figure in its account's currency. */
const originalFields = {
  original_amount: Type.Optional(Amount),
  display_original_amount: Type.Optional(DisplayAmount),
};

export const TrialBalanceQuery = Type.Object({
  period_id: Type.Optional(Id),
  as_of_date: Type.Optional(DateString),
  start_date: Type.Optional(DateString),
  end_date: Type.Optional(DateString),
  currency_id: Type.Optional(Id),
  ...presentationQuery,
}, { additionalProperties: false });
export type TrialBalanceInput = Static<typeof TrialBalanceQuery>;

export const TrialBalance = Type.Object({
  ...companyField,
  period_id: Nullable(Id),
  currency_id: Nullable(Id),
  as_of_date: Nullable(DateString),
  start_date: Nullable(DateString),
  end_date: Nullable(DateString),
  basis: Type.Union([Type.Literal('balance'), Type.Literal('movement')], {
    description: 'balance: cumulative balances (all time or through as_of_date); movement: only the activity of a period or range',
  }),
  label: Type.String({ description: 'What the report shows, in words ("Movement from 2026-01-01 to 2026-03-31")' }),
  ...presentedIn,
  rows: Type.Array(Type.Object({
    account_id: Nullable(Id, { description: 'null only on a translated report\'s "Exchange differences on translation" row' }),
    account_number: Nullable(Type.String()), account_name: Type.String(), account_type: Type.String(),
    currency_id: Id, parent_id: Nullable(Id), ...originalFields,
    debit_total: Amount, credit_total: Amount, net_balance: Amount,
    debit_balance: Amount, credit_balance: Amount,
    display_debit_total: DisplayAmount, display_credit_total: DisplayAmount, display_net_balance: DisplayAmount,
    display_debit_balance: DisplayAmount, display_credit_balance: DisplayAmount,
  })),
  totals: Type.Array(Type.Object({
    currency_id: Id, debit_total: Amount, credit_total: Amount,
    display_debit_total: DisplayAmount, display_credit_total: DisplayAmount, is_balanced: Type.Boolean(),
    debit_balance: Amount, credit_balance: Amount, display_debit_balance: DisplayAmount, display_credit_balance: DisplayAmount,
  })),
  is_balanced: Type.Boolean(),
});

export const BalanceSheetQuery = Type.Object({
  period_id: Type.Optional(Id),
  as_of_date: Type.Optional(DateString),
  currency_id: Type.Optional(Id),
  ...presentationQuery,
}, { additionalProperties: false });
export type BalanceSheetInput = Static<typeof BalanceSheetQuery>;

const BalanceSheetSection = Type.Object({
  accounts: Type.Array(Type.Object({
    account_id: Nullable(Id), account_number: Nullable(Type.String()), account_name: Type.String(), parent_id: Nullable(Id),
    balance: Amount, display_balance: DisplayAmount,
    currency_id: Type.Optional(Id), ...originalFields,
  })),
  total: Amount,
  display_total: DisplayAmount,
});

export const BalanceSheet = Type.Object({
  ...companyField,
  currency_id: Id,
  ...presentedIn,
  as_of_date: Nullable(DateString),
  period_id: Nullable(Id),
  assets: BalanceSheetSection,
  liabilities: BalanceSheetSection,
  equity: BalanceSheetSection,
  total_assets: Amount,
  display_total_assets: DisplayAmount,
  total_liabilities_and_equity: Amount,
  display_total_liabilities_and_equity: DisplayAmount,
  is_balanced: Type.Boolean(),
});

export const ColumnInterval = Type.Union([Type.Literal('month'), Type.Literal('quarter')], {
  description: 'Split the range into calendar months or quarters, side by side (the first and last are cut to the range)',
});

export const IncomeStatementQuery = Type.Object({
  period_id: Type.Optional(Id),
  start_date: Type.Optional(DateString),
  end_date: Type.Optional(DateString),
  currency_id: Type.Optional(Id),
  columns: Type.Optional(ColumnInterval),
  ...presentationQuery,
}, { additionalProperties: false });
export type IncomeStatementInput = Static<typeof IncomeStatementQuery>;

const ColumnAmount = Type.Object({ amount: Amount, display_amount: DisplayAmount });

const IncomeRow = Type.Object({
  account_id: Id, account_number: Type.String(), account_name: Type.String(), parent_id: Nullable(Id),
  amount: Amount, display_amount: DisplayAmount,
  currency_id: Type.Optional(Id), ...originalFields,
  column_amounts: Type.Optional(Type.Array(ColumnAmount, { description: 'With columns: the amount of each column, in column order' })),
});

/** An income statement's totals, for the whole range and for each column. */
const IncomeTotals = {
  total_revenue: Amount,
  display_total_revenue: DisplayAmount,
  total_expenses: Amount,
  display_total_expenses: DisplayAmount,
  net_income: Amount,
  display_net_income: DisplayAmount,
};

const IncomeColumn = Type.Object({
  label: Type.String({ description: '2026-01 for a month, 2026-Q1 for a quarter' }),
  start_date: DateString,
  end_date: DateString,
  ...IncomeTotals,
});

export const IncomeStatement = Type.Object({
  ...companyField,
  currency_id: Id,
  ...presentedIn,
  period_id: Nullable(Id),
  start_date: Nullable(DateString),
  end_date: Nullable(DateString),
  revenue: Type.Array(IncomeRow),
  expenses: Type.Array(IncomeRow),
  ...IncomeTotals,
  columns: Type.Optional(Type.Array(IncomeColumn, { description: 'Only with the columns option' })),
});

export const GeneralLedgerQuery = Type.Object({
  account_id: Type.Optional(Id),
  period_id: Type.Optional(Id),
  start_date: Type.Optional(DateString),
  end_date: Type.Optional(DateString),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'asc (default, oldest first) or desc' })),
  ...PageQuery,
}, { additionalProperties: false });
export type GeneralLedgerInput = Static<typeof GeneralLedgerQuery>;

export const GeneralLedgerLine = Type.Object({
  ...accountLineFields,
  running_balance: Amount,
  display_running_balance: DisplayAmount,
});
export type GeneralLedgerLineView = Static<typeof GeneralLedgerLine>;

export const GeneralLedger = Type.Object({
  ...companyField,
  ...reportAccountFields,
  start_date: Nullable(DateString),
  end_date: Nullable(DateString),
  sort: Type.Union([Type.Literal('asc'), Type.Literal('desc')]),
  starting_balance: Amount,
  display_starting_balance: DisplayAmount,
  ending_balance: Amount,
  display_ending_balance: DisplayAmount,
  lines: Type.Array(GeneralLedgerLine),
  has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String()),
});
export type GeneralLedgerView = Static<typeof GeneralLedger>;

export const AgedBalancesQuery = Type.Object({
  account_id: Type.Optional(Id),
  as_of_date: Type.Optional(DateString),
  terms_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650,
    description: 'Payment terms in days: an amount falls due this many days after its entry date, unless its entry\'s metadata.due_date says when; default 30' })),
}, { additionalProperties: false });
export type AgedBalancesInput = Static<typeof AgedBalancesQuery>;

/**
 * The five age buckets by days past due on the as-of date (current: not yet due; then 1-30,
 * 31-60, 61-90 and over 90 days past due) and their sum, the balance as of the date, each with its
 * display form.
 */
const AgeBuckets = {
  current: Amount,
  days_1_30: Amount,
  days_31_60: Amount,
  days_61_90: Amount,
  days_over_90: Amount,
  total: Amount,
  display_current: DisplayAmount,
  display_days_1_30: DisplayAmount,
  display_days_31_60: DisplayAmount,
  display_days_61_90: DisplayAmount,
  display_days_over_90: DisplayAmount,
  display_total: DisplayAmount,
};

export const AgedBalances = Type.Object({
  ...companyField,
  ...reportAccountFields,
  as_of_date: DateString,
  terms_days: Type.Integer({ description: 'The payment terms the amounts without a due date were aged by' }),
  rows: Type.Array(Type.Object({
    account_id: Id, account_number: Type.String(), account_name: Type.String(), entity_id: Nullable(Type.String()),
    ...AgeBuckets,
  }), { description: 'Sub-accounts with a non-zero balance as of the date, by account number' }),
  totals: Type.Object(AgeBuckets, { description: 'Each bucket summed over the sub-accounts; total is the control account\'s balance' }),
});
export type AgedBalancesView = Static<typeof AgedBalances>;
