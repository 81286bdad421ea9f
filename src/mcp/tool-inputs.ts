/**
 * The input schemas of the MCP tools, derived from the API's TypeBox schemas (never a second copy):
 * a tool takes the fields of the matching request body or query, plus what the HTTP face carries
 * outside the body (`dry_run`, `preview`, the Idempotency-Key header, the path's id). A journal
 * line may name its account by `account_number` instead of `account_id`.
 */
import Type, { type Static, type TSchema } from 'typebox';
import { AccountListQuery } from '../schemas/account.js';
import { Id, IdParams, NonEmpty, PageQuery } from '../schemas/common.js';
import { DryRunQuery } from '../schemas/dry-run.js';
import { BatchBody, CreateEntryBody, EntryListQuery, LineInput, ReverseBody } from '../schemas/journal-entry.js';
import { CloseQuery } from '../schemas/period.js';
import { ExchangeRateListQuery, SetExchangeRateBody } from '../schemas/exchange-rate.js';
import { AgedBalancesQuery, BalanceSheetQuery, GeneralLedgerQuery, IncomeStatementQuery, TrialBalanceQuery } from '../schemas/report.js';
import {
  AcceptBankLinesBody, BankLineListQuery, BankRuleListQuery, BankStatementListQuery, ClearLinesBody, ExcludeBankLineBody, MatchBankLineBody,
  PostBankLineBody, StartReconciliationBody,
} from '../schemas/bank.js';

const closed = { additionalProperties: false } as const;

/** An array schema's bounds and description, to give the same rules to an array of other items. */
function annotationsOf(schema: TSchema): { description?: string; minItems?: number; maxItems?: number } {
  const { description, minItems, maxItems } = schema as { description?: string; minItems?: number; maxItems?: number };
  return { ...(description === undefined ? {} : { description }), ...(minItems === undefined ? {} : { minItems }),
    ...(maxItems === undefined ? {} : { maxItems }) };
}

const AccountNumber = NonEmpty('The account\'s number in the chart of accounts, e.g. "1000"; instead of account_id', 50);

/** LineInput with `account_id` optional and `account_number` as the alternative (exactly one is required). */
export const ToolLineInput = Type.Object({
  ...LineInput.properties,
  account_id: Type.Optional(Id),
  account_number: Type.Optional(AccountNumber),
}, closed);

/** CreateEntryBody whose lines are ToolLineInput. */
export const ToolEntryInput = Type.Object({
  ...CreateEntryBody.properties,
  lines: Type.Array(ToolLineInput, annotationsOf(CreateEntryBody.properties.lines)),
}, closed);
export type ToolEntry = Static<typeof ToolEntryInput>;

/** DryRunQuery's flag, described for a tool call rather than an HTTP answer. */
const DryRun = Type.Optional(Type.Boolean({
  ...DryRunQuery.properties.dry_run,
  description: 'true: run every rule of the real post in a transaction that is rolled back; returns what would be posted and each touched account\'s balance before and after, and changes nothing',
}));

const IdempotencyKey = Type.Optional(Type.String({
  minLength: 1, maxLength: 255,
  description: 'Retrying with the same key and the same arguments returns the first result instead of posting again (kept 24 hours); like the API\'s Idempotency-Key header',
}));

export const PostEntryArguments = Type.Object({
  ...ToolEntryInput.properties,
  dry_run: DryRun,
  idempotency_key: IdempotencyKey,
}, closed);

export const PostEntriesArguments = Type.Object({
  entries: Type.Array(ToolEntryInput, annotationsOf(BatchBody.properties.entries)),
  dry_run: DryRun,
  idempotency_key: IdempotencyKey,
}, closed);

export const ReverseArguments = Type.Object({
  id: Type.String({ ...IdParams.properties.id, description: 'Id of the journal entry to reverse' }),
  ...ReverseBody.properties,
  dry_run: DryRun,
}, closed);

export const ClosePeriodArguments = Type.Object({
  id: Type.String({ ...IdParams.properties.id, description: 'Id of the period to close' }),
  ...CloseQuery.properties,
}, closed);

export const GetByIdArguments = Type.Object(IdParams.properties, closed);

export const GetAccountArguments = Type.Object({
  id: Type.Optional(Id),
  account_number: Type.Optional(NonEmpty('The account\'s number, instead of id', 50)),
  period_id: Type.Optional(Type.String({ ...Id, description: 'Also give the balance within this period' })),
}, closed);

export const ListAccountsArguments = Type.Object({
  ...AccountListQuery.properties,
  balance_period_id: Type.Optional(Type.String({ ...Id, description: 'Balances within this period instead of all time' })),
}, closed);

export const PageArguments = Type.Object(PageQuery, closed);

/** The path's id, described for the tool. */
const IdOf = (what: string) => Type.String({ ...IdParams.properties.id, description: `Id of the ${what}` });

const AccountNumberOf = (what: string, instead: string) =>
  Type.Optional(NonEmpty(`The ${what}'s number in the chart of accounts, e.g. "1000"; instead of ${instead}`, 50));

/** A bank post's dry run answers the bank lines as they would be and the entries it would post. */
const BankDryRun = Type.Optional(Type.Boolean({
  ...DryRunQuery.properties.dry_run,
  description: 'true: run every rule of the real post in a transaction that is rolled back; returns the bank lines as they would be and the entries that would be posted, and changes nothing',
}));

export const ListBankLinesArguments = Type.Object({
  ...BankLineListQuery.properties,
  account_number: AccountNumberOf('bank or card account', 'account_id'),
}, closed);

export const ListBankStatementsArguments = Type.Object({
  ...BankStatementListQuery.properties,
  account_number: AccountNumberOf('bank or card account', 'account_id'),
}, closed);

export const ListBankRulesArguments = Type.Object(BankRuleListQuery.properties, closed);

export const BankLineArguments = Type.Object({ id: IdOf('bank line') }, closed);

export const PostBankLineArguments = Type.Object({
  id: IdOf('bank line'),
  ...PostBankLineBody.properties,
  counter_account_number: AccountNumberOf('counter account', 'counter_account_id'),
  dry_run: BankDryRun,
  idempotency_key: IdempotencyKey,
}, closed);

export const AcceptBankLinesArguments = Type.Object({
  ...AcceptBankLinesBody.properties,
  dry_run: BankDryRun,
  idempotency_key: IdempotencyKey,
}, closed);

export const MatchBankLineArguments = Type.Object({
  id: IdOf('bank line'),
  ...MatchBankLineBody.properties,
  idempotency_key: IdempotencyKey,
}, closed);

export const ExcludeBankLineArguments = Type.Object({ id: IdOf('bank line'), ...ExcludeBankLineBody.properties }, closed);

export const StartReconciliationArguments = Type.Object({
  ...StartReconciliationBody.properties,
  account_id: Type.Optional(StartReconciliationBody.properties.account_id),
  account_number: AccountNumberOf('bank or card account', 'account_id'),
}, closed);

export const ReconciliationArguments = Type.Object({ id: IdOf('reconciliation') }, closed);

export const ClearReconciliationLinesArguments = Type.Object({ id: IdOf('reconciliation'), ...ClearLinesBody.properties }, closed);
export const NoArguments = Type.Object({}, closed);

const CurrencyCode = Type.Optional(NonEmpty('The currency\'s code, e.g. "EUR"; instead of currency_id', 32));

/** SetExchangeRateBody, the currency by currency_id or by currency_code (exactly one). */
export const SetExchangeRateArguments = Type.Object({
  ...SetExchangeRateBody.properties,
  currency_id: Type.Optional(SetExchangeRateBody.properties.currency_id),
  currency_code: CurrencyCode,
}, closed);

export const ListExchangeRatesArguments = Type.Object({
  ...ExchangeRateListQuery.properties,
  currency_code: CurrencyCode,
}, closed);

export {
  AgedBalancesQuery, BalanceSheetQuery, EntryListQuery, GeneralLedgerQuery, IncomeStatementQuery, TrialBalanceQuery,
};

/** The plain JSON Schema of a TypeBox schema, as MCP's tools/list publishes it. */
export function jsonSchemaOf(schema: TSchema): { type: 'object'; [key: string]: unknown } {
  return JSON.parse(JSON.stringify(schema)) as { type: 'object'; [key: string]: unknown };
}
