/**
 * Response and request types of the API, taken from the server's TypeBox schemas so the UI and
 * the server cannot drift apart. Type-only imports: nothing from the server lands in the bundle.
 */
import type { Static } from 'typebox';
import type { AccountBalanceView, AccountView, CreateAccountInput, UpdateAccountInput } from '../../../src/schemas/account.js';
import type { ErrorBody } from '../../../src/schemas/common.js';
import type { CreateCurrencyInput, CurrencyView, UpdateCurrencyInput } from '../../../src/schemas/currency.js';
import type { CreateEntryInput, EntryListFilter, EntryView, ReverseInput } from '../../../src/schemas/journal-entry.js';
import type { CreatePeriodInput, PeriodView } from '../../../src/schemas/period.js';
import type {
  AgedBalancesInput, AgedBalancesView, BalanceSheet, BalanceSheetInput, GeneralLedgerInput, GeneralLedgerView, IncomeStatement, IncomeStatementInput, TrialBalance,
  TrialBalanceInput,
} from '../../../src/schemas/report.js';
import type { SettingsView, UpdateSettingsInput } from '../../../src/schemas/settings.js';
import type { ExchangeRateListInput, ExchangeRateView, SetExchangeRateInput } from '../../../src/schemas/exchange-rate.js';
import type {
  CreateServiceAccountInput, CreateUserInput, LoginInput, ServiceAccountCreatedView, SetupInput, TokenPairView, UpdateUserInput,
  UserView,
} from '../../../src/schemas/user.js';
import type { PermissionKey } from '../../../src/service/actor.js';
import type {
  AcceptBankLinesInput, BankLineListInput, BankLineView, BankRuleView, BankStatementDryRunView, BankStatementView, CandidateView, ClearLinesInput,
  CreateBankRuleInput, CsvMappingInput, ExcludeBankLineInput, ImportStatementInput, MatchBankLineInput, PostBankLineInput, PreviewBankRuleInput,
  ReconciliationDetailView, ReconciliationView, StartReconciliationInput, UpdateBankRuleInput, RulePreview,
} from '../../../src/schemas/bank.js';
import type {
  CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WebhookDeliveryView as WebhookDeliverySchema, WebhookEndpointViewType,
  WebhookEndpointWithSecret,
} from '../../../src/schemas/webhook.js';

export type {
  AccountBalanceView, AccountView, CreateAccountInput, UpdateAccountInput, CreateCurrencyInput, CurrencyView, UpdateCurrencyInput,
  CreateEntryInput, EntryListFilter, EntryView, ReverseInput, CreatePeriodInput, PeriodView, BalanceSheetInput, GeneralLedgerInput,
  GeneralLedgerView, IncomeStatementInput, TrialBalanceInput, SettingsView, UpdateSettingsInput, CreateServiceAccountInput,
  CreateUserInput, LoginInput, ServiceAccountCreatedView, SetupInput, TokenPairView, UpdateUserInput, UserView, PermissionKey,
  AgedBalancesInput, AgedBalancesView, ExchangeRateListInput, ExchangeRateView, SetExchangeRateInput,
  AcceptBankLinesInput, BankLineListInput, BankLineView, BankRuleView, BankStatementDryRunView, BankStatementView, CandidateView, ClearLinesInput,
  CreateBankRuleInput, CsvMappingInput, ExcludeBankLineInput, ImportStatementInput, MatchBankLineInput, PostBankLineInput, PreviewBankRuleInput,
  ReconciliationDetailView, ReconciliationView, StartReconciliationInput, UpdateBankRuleInput,
  CreateWebhookEndpointInput, UpdateWebhookEndpointInput,
};

export type WebhookEndpointView = WebhookEndpointViewType;
/** The answer of a create or a secret rotation: the endpoint and its secret, which no other answer shows. */
export type WebhookEndpointCreatedView = Static<typeof WebhookEndpointWithSecret>;
export type WebhookDeliveryView = Static<typeof WebhookDeliverySchema>;

export type RulePreviewView = Static<typeof RulePreview>;
export type ReconciliationLineView = ReconciliationDetailView['outstanding'][number];
export type StatementFormat = ImportStatementInput['format'];

export type ErrorBodyView = Static<typeof ErrorBody>;
export type TrialBalanceView = Static<typeof TrialBalance>;
export type BalanceSheetView = Static<typeof BalanceSheet>;
export type BalanceSheetSectionView = BalanceSheetView['assets'];
export type IncomeStatementView = Static<typeof IncomeStatement>;
export type GeneralLedgerLineView = GeneralLedgerView['lines'][number];
export type EntryLineView = EntryView['lines'][number];
export type AccountType = AccountView['account_type'];
export type ClosePeriodResult = { period: PeriodView; closing_entry: EntryView | null; closing_entries: EntryView[]; preview: boolean };

/** The list envelope of every collection endpoint (pageOf in src/schemas/common.ts). */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const satisfies readonly AccountType[];

/**
 * The permission keys of CONTRACT.md. The checks below stop the build when the server's list
 * (PERMISSION_KEYS in src/service/actor.ts) gains or loses a key this list does not match.
 */
export const PERMISSION_KEYS = [
  'admin', 'currencies:write', 'accounts:write', 'periods:write', 'periods:close', 'journals:create',
  'journals:reverse', 'settings:write', 'users:manage', 'bank:write', 'periods:override', 'rates:write', 'events:read',
  'webhooks:manage',
] as const satisfies readonly PermissionKey[];
type MissingPermissionKey = Exclude<PermissionKey, (typeof PERMISSION_KEYS)[number]>;
const everyPermissionKeyListed: [MissingPermissionKey] extends [never] ? true : MissingPermissionKey = true;
void everyPermissionKeyListed;
