import Type, { type Static } from 'typebox';
import { Amount, DisplayAmount, Id, NonEmpty, Nullable, PageQuery, Timestamp, DateString } from './common.js';

const AccountType = Type.Union([
  Type.Literal('asset'), Type.Literal('liability'), Type.Literal('equity'), Type.Literal('revenue'), Type.Literal('expense'),
]);
export const NormalBalance = Type.Union([Type.Literal('debit'), Type.Literal('credit')]);

export const Account = Type.Object({
  id: Id,
  account_number: Type.String(),
  name: Type.String(),
  currency_id: Id,
  account_type: AccountType,
  normal_balance: NormalBalance,
  has_subledger: Type.Boolean(),
  parent_id: Nullable(Id),
  entity_id: Nullable(Type.String()),
  xbrl_tag: Nullable(Type.String()),
  is_active: Type.Boolean(),
  created_at: Timestamp,
});
export type AccountView = Static<typeof Account>;

export const CreateAccountBody = Type.Object({
  account_number: NonEmpty('Unique account number', 50),
  name: NonEmpty('Display name', 200),
  currency_id: Type.Optional(Id),
  account_type: Type.Optional(AccountType),
  normal_balance: Type.Optional(NormalBalance),
  has_subledger: Type.Optional(Type.Boolean({ description: 'Makes this a control account that takes sub-accounts' })),
  parent_id: Type.Optional(Nullable(Id)),
  entity_id: Type.Optional(Nullable(NonEmpty('Entity the sub-account tracks; required with parent_id', 200))),
  xbrl_tag: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
}, { additionalProperties: false });
export type CreateAccountInput = Static<typeof CreateAccountBody>;

export const UpdateAccountBody = Type.Object({
  name: Type.Optional(NonEmpty('Display name', 200)),
  is_active: Type.Optional(Type.Boolean()),
  xbrl_tag: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
}, { additionalProperties: false, minProperties: 1 });
export type UpdateAccountInput = Static<typeof UpdateAccountBody>;

export const AccountListQuery = Type.Object({
  account_type: Type.Optional(AccountType),
  currency_id: Type.Optional(Id),
  is_active: Type.Optional(Type.Boolean()),
  parent_id: Type.Optional(Id),
  ...PageQuery,
}, { additionalProperties: false });
export type AccountListFilter = Static<typeof AccountListQuery>;

export const BalanceQuery = Type.Object({ period_id: Type.Optional(Id) }, { additionalProperties: false });

export const AccountBalance = Type.Object({
  account_id: Id,
  period_id: Nullable(Id),
  total_debits: Amount,
  total_credits: Amount,
  net_balance: Amount,
  display_debits: DisplayAmount,
  display_credits: DisplayAmount,
  display_balance: DisplayAmount,
});
export type AccountBalanceView = Static<typeof AccountBalance>;

/** The fields of an account's line in /transactions and in the general ledger. */
export const accountLineFields = {
  line_id: Id,
  journal_entry_id: Id,
  entry_number: Type.Integer({ description: 'The journal entry\'s number (1, 2, ... in posting order)' }),
  entry_date: DateString,
  description: Type.String({ description: "The journal entry's description" }),
  line_description: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  account_id: Id,
  account_number: Type.String(),
  debit_amount: Amount,
  credit_amount: Amount,
  display_debit: DisplayAmount,
  display_credit: DisplayAmount,
};

export const AccountTransaction = Type.Object({ ...accountLineFields, account_name: Type.String() });
export type AccountTransactionView = Static<typeof AccountTransaction>;
