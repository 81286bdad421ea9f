/** One typed function per API endpoint the UI uses. */
import { request, requestWithStatus, type QueryValue } from './client.js';
import type {
  AcceptBankLinesInput, BankLineListInput, BankLineView, BankRuleView, BankStatementDryRunView, BankStatementView, CandidateView, ClearLinesInput,
  CreateBankRuleInput, ExcludeBankLineInput, ImportStatementInput, MatchBankLineInput, PostBankLineInput, PreviewBankRuleInput, ReconciliationDetailView,
  ReconciliationView, RulePreviewView, StartReconciliationInput, UpdateBankRuleInput,
  AgedBalancesInput, AgedBalancesView, AccountBalanceView, AccountView, BalanceSheetInput, BalanceSheetView, ClosePeriodResult, CreateAccountInput, CreateCurrencyInput,
  CreateEntryInput, CreatePeriodInput, ExchangeRateListInput, ExchangeRateView, SetExchangeRateInput, CreateServiceAccountInput, CreateUserInput, CurrencyView, EntryListFilter, EntryView,
  GeneralLedgerInput, GeneralLedgerView, IncomeStatementInput, IncomeStatementView, LoginInput, Page, PeriodView, ReverseInput,
  ServiceAccountCreatedView, SettingsView, SetupInput, TokenPairView, TrialBalanceInput, TrialBalanceView, UpdateAccountInput,
  UpdateCurrencyInput, UpdateSettingsInput, UpdateUserInput, UserView,
  CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WebhookDeliveryView, WebhookEndpointCreatedView, WebhookEndpointView,
} from './types.js';

const API = '/api/v1';
type Envelope<T> = { data: T };
type Query = Record<string, QueryValue>;

async function get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
  return (await request<Envelope<T>>('GET', path, { query, signal })).data;
}
async function page<T>(path: string, query?: Query): Promise<Page<T>> {
  return request<Page<T>>('GET', path, { query });
}
async function post<T>(path: string, body?: unknown, query?: Query, idempotencyKey?: string): Promise<T> {
  const headers = idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined;
  return (await request<Envelope<T>>('POST', path, { body: body ?? {}, query, headers })).data;
}
async function patch<T>(path: string, body: unknown): Promise<T> {
  return (await request<Envelope<T>>('PATCH', path, { body })).data;
}
async function remove<T>(path: string): Promise<T> {
  return (await request<Envelope<T>>('DELETE', path)).data;
}
const id = (value: string) => encodeURIComponent(value);

/** Walks every page of a list endpoint (200 rows a request, the largest page). */
export async function fetchAll<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const result = await fetchPage(cursor);
    rows.push(...result.data);
    if (!result.has_more || result.next_cursor === null) return rows;
    cursor = result.next_cursor;
  }
}

export const auth = {
  setupStatus: async () => (await request<Envelope<{ needs_setup: boolean }>>('GET', '/auth/setup', { anonymous: true })).data,
  setup: async (input: SetupInput) => (await request<Envelope<TokenPairView>>('POST', '/auth/setup', { body: input, anonymous: true })).data,
  login: async (input: LoginInput) => (await request<Envelope<TokenPairView>>('POST', '/auth/login', { body: input, anonymous: true })).data,
  logout: async (refreshToken: string) =>
    (await request<Envelope<{ revoked: boolean }>>('POST', '/auth/logout', { body: { refresh_token: refreshToken }, anonymous: true })).data,
  me: () => get<UserView>('/auth/me'),
};

export const currencies = {
  list: (cursor?: string) => page<CurrencyView>(`${API}/currencies`, { limit: 200, cursor }),
  all: () => fetchAll((cursor) => currencies.list(cursor)),
  create: (input: CreateCurrencyInput) => post<CurrencyView>(`${API}/currencies`, input),
  update: (currencyId: string, input: UpdateCurrencyInput) => patch<CurrencyView>(`${API}/currencies/${id(currencyId)}`, input),
};

export const accounts = {
  list: (cursor?: string) => page<AccountView>(`${API}/accounts`, { limit: 200, cursor }),
  all: () => fetchAll((cursor) => accounts.list(cursor)),
  get: (accountId: string) => get<AccountView>(`${API}/accounts/${id(accountId)}`),
  create: (input: CreateAccountInput) => post<AccountView>(`${API}/accounts`, input),
  update: (accountId: string, input: UpdateAccountInput) => patch<AccountView>(`${API}/accounts/${id(accountId)}`, input),
  balance: (accountId: string, periodId?: string) =>
    get<AccountBalanceView>(`${API}/accounts/${id(accountId)}/balance`, { period_id: periodId }),
};

export const journalEntries = {
  list: (filter: EntryListFilter) => page<EntryView>(`${API}/journal-entries`, { ...filter }),
  get: (entryId: string) => get<EntryView>(`${API}/journal-entries/${id(entryId)}`),
  /** `idempotencyKey`: a retry of the same body with the same key returns the first answer instead of posting twice. */
  create: (input: CreateEntryInput, idempotencyKey?: string) => post<EntryView>(`${API}/journal-entries`, input, undefined, idempotencyKey),
  reverse: (entryId: string, input: ReverseInput) => post<EntryView>(`${API}/journal-entries/${id(entryId)}/reverse`, input),
};

export const periods = {
  list: (cursor?: string) => page<PeriodView>(`${API}/periods`, { limit: 200, cursor }),
  all: () => fetchAll((cursor) => periods.list(cursor)),
  create: (input: CreatePeriodInput) => post<PeriodView>(`${API}/periods`, input),
  close: (periodId: string, preview: boolean) =>
    post<ClosePeriodResult>(`${API}/periods/${id(periodId)}/close`, undefined, preview ? { preview: true } : undefined),
};

export const reports = {
  trialBalance: (input: TrialBalanceInput) => get<TrialBalanceView>(`${API}/reports/trial-balance`, { ...input }),
  balanceSheet: (input: BalanceSheetInput) => get<BalanceSheetView>(`${API}/reports/balance-sheet`, { ...input }),
  incomeStatement: (input: IncomeStatementInput) => get<IncomeStatementView>(`${API}/reports/income-statement`, { ...input }),
  generalLedger: (input: GeneralLedgerInput) => get<GeneralLedgerView>(`${API}/reports/general-ledger`, { ...input }),
  agedBalances: (input: AgedBalancesInput) => get<AgedBalancesView>(`${API}/reports/aged-balances`, { ...input }),
};

/** Exchange rates (CONTRACT.md, "Several currencies in one picture"): the value of one major unit in the base currency from a day on. */
export const exchangeRates = {
  list: (filter: ExchangeRateListInput) => page<ExchangeRateView>(`${API}/exchange-rates`, { ...filter }),
  /** Sets a currency's rate for a day; `replaced` when it replaced that day's rate (200), not a new one (201). */
  set: async (input: SetExchangeRateInput): Promise<{ rate: ExchangeRateView; replaced: boolean }> => {
    const answer = await requestWithStatus<Envelope<ExchangeRateView>>('POST', `${API}/exchange-rates`, { body: input });
    return { rate: answer.body.data, replaced: answer.status === 200 };
  },
};

export const settings = {
  get: () => get<SettingsView>(`${API}/settings`),
  update: (input: UpdateSettingsInput) => patch<SettingsView>(`${API}/settings`, input),
};

export const users = {
  list: (cursor?: string) => page<UserView>(`${API}/users`, { limit: 200, cursor }),
  all: () => fetchAll((cursor) => users.list(cursor)),
  create: (input: CreateUserInput) => post<UserView>(`${API}/users`, input),
  createServiceAccount: (input: CreateServiceAccountInput) => post<ServiceAccountCreatedView>(`${API}/users/service-accounts`, input),
  get: (userId: string) => get<UserView>(`${API}/users/${id(userId)}`),
  update: (userId: string, input: UpdateUserInput) => patch<UserView>(`${API}/users/${id(userId)}`, input),
};

/** Bank statements, bank lines, rules and reconciliations (CONTRACT.md, "Bank statements and reconciliation"). */
export const bankStatements = {
  /** Every account's statements when `accountId` is undefined; in import order. */
  list: (accountId: string | undefined, cursor?: string) =>
    page<BankStatementView>(`${API}/bank-statements`, { account_id: accountId, limit: 200, cursor }),
  all: (accountId: string | undefined) => fetchAll((cursor) => bankStatements.list(accountId, cursor)),
  import: (input: ImportStatementInput) => post<BankStatementView>(`${API}/bank-statements`, input),
  /** The import's dry run: what it would store (new and duplicate lines, period, balances); nothing is. */
  check: (input: ImportStatementInput) => post<BankStatementDryRunView>(`${API}/bank-statements`, input, { dry_run: true }),
};

export const bankLines = {
  list: (filter: BankLineListInput) => page<BankLineView>(`${API}/bank-lines`, { ...filter }),
  all: (filter: Omit<BankLineListInput, 'limit' | 'cursor'>) => fetchAll((cursor) => bankLines.list({ ...filter, limit: 200, cursor })),
  candidates: async (lineId: string) => (await request<Envelope<CandidateView[]>>('GET', `${API}/bank-lines/${id(lineId)}/candidates`)).data,
  /** `idempotencyKey`: a retry after a network failure returns the first answer instead of posting twice. */
  post: (lineId: string, input: PostBankLineInput, idempotencyKey?: string) =>
    post<BankLineView>(`${API}/bank-lines/${id(lineId)}/post`, input, undefined, idempotencyKey),
  match: (lineId: string, input: MatchBankLineInput) => post<BankLineView>(`${API}/bank-lines/${id(lineId)}/match`, input),
  exclude: (lineId: string, input: ExcludeBankLineInput) => post<BankLineView>(`${API}/bank-lines/${id(lineId)}/exclude`, input),
  unmatch: (lineId: string) => post<BankLineView>(`${API}/bank-lines/${id(lineId)}/unmatch`),
  accept: (input: AcceptBankLinesInput, idempotencyKey?: string) =>
    post<BankLineView[]>(`${API}/bank-lines/accept`, input, undefined, idempotencyKey),
};

export const bankRules = {
  list: (cursor?: string) => page<BankRuleView>(`${API}/bank-rules`, { limit: 200, cursor }),
  all: () => fetchAll((cursor) => bankRules.list(cursor)),
  create: (input: CreateBankRuleInput) => post<BankRuleView>(`${API}/bank-rules`, input),
  update: (ruleId: string, input: UpdateBankRuleInput) => patch<BankRuleView>(`${API}/bank-rules/${id(ruleId)}`, input),
  delete: (ruleId: string) => remove<BankRuleView>(`${API}/bank-rules/${id(ruleId)}`),
  preview: (input: PreviewBankRuleInput) => post<RulePreviewView>(`${API}/bank-rules/preview`, input),
};

export const reconciliations = {
  list: (cursor?: string) => page<ReconciliationView>(`${API}/reconciliations`, { limit: 200, cursor }),
  all: () => fetchAll((cursor) => reconciliations.list(cursor)),
  get: (reconciliationId: string) => get<ReconciliationDetailView>(`${API}/reconciliations/${id(reconciliationId)}`),
  start: (input: StartReconciliationInput) => post<ReconciliationDetailView>(`${API}/reconciliations`, input),
  clear: (reconciliationId: string, input: ClearLinesInput) =>
    post<ReconciliationDetailView>(`${API}/reconciliations/${id(reconciliationId)}/clear`, input),
  unclear: (reconciliationId: string, input: ClearLinesInput) =>
    post<ReconciliationDetailView>(`${API}/reconciliations/${id(reconciliationId)}/unclear`, input),
  finish: (reconciliationId: string) => post<ReconciliationDetailView>(`${API}/reconciliations/${id(reconciliationId)}/finish`),
};

/** Webhook endpoints (CONTRACT.md, "Events and webhooks"; docs/events.md): the secret is in the answers of create and rotate only. */
export const webhookEndpoints = {
  /** Every endpoint, oldest first (the server answers them all in one page). */
  all: () => fetchAll((cursor) => page<WebhookEndpointView>(`${API}/webhook-endpoints`, { cursor })),
  get: (endpointId: string) => get<WebhookEndpointView>(`${API}/webhook-endpoints/${id(endpointId)}`),
  create: (input: CreateWebhookEndpointInput) => post<WebhookEndpointCreatedView>(`${API}/webhook-endpoints`, input),
  update: (endpointId: string, input: UpdateWebhookEndpointInput) =>
    patch<WebhookEndpointView>(`${API}/webhook-endpoints/${id(endpointId)}`, input),
  delete: (endpointId: string) => remove<WebhookEndpointView>(`${API}/webhook-endpoints/${id(endpointId)}`),
  rotateSecret: (endpointId: string) => post<WebhookEndpointCreatedView>(`${API}/webhook-endpoints/${id(endpointId)}/rotate-secret`),
  /** Delivers again every event after `afterSeq` (a decimal integer string), in order. */
  replay: (endpointId: string, afterSeq: string) =>
    post<WebhookEndpointView>(`${API}/webhook-endpoints/${id(endpointId)}/replay`, { after_seq: afterSeq }),
  /** Delivery attempts, newest first. */
  deliveries: (endpointId: string, cursor?: string) =>
    page<WebhookDeliveryView>(`${API}/webhook-endpoints/${id(endpointId)}/deliveries`, { limit: 50, cursor }),
};
