/**
 * The ledger's use cases, each declared once: its name, the permission it needs, the schema of its
 * input (from src/schemas), whether it writes, and for a write whether it has a dry run and whether
 * an idempotency key replays it. Every face calls these through the one executor
 * (execute-command.ts) with one command envelope: the HTTP routes and the MCP tools are derived
 * from this table (http/use-case-routes.ts, mcp/ledger-tool.ts), and the command line's commands
 * keep their own words and help over it.
 *
 * Adding a use case: its function in its own file (a write answers the work of its one write
 * transaction, `Work`), one entry here, and the route or tool that exposes it.
 */
import Type, { type TProperties } from 'typebox';
import { AccountListQuery, BalanceQuery, CreateAccountBody, UpdateAccountBody } from '../schemas/account.js';
import { AuditLogQuery } from '../schemas/audit.js';
import {
  AcceptBankLinesBody, BankLineListQuery, BankRuleListQuery, BankStatementListQuery, ClearLinesBody, CreateBankRuleBody, ExcludeBankLineBody,
  ImportStatementBody, MatchBankLineBody, PostBankLineBody, PreviewBankRuleBody, ReconciliationListQuery, StartReconciliationBody, UpdateBankRuleBody,
} from '../schemas/bank.js';
import { Id, IdParams, NonEmpty, PageQuery } from '../schemas/common.js';
import { CreateCurrencyBody, UpdateCurrencyBody } from '../schemas/currency.js';
import { SetExchangeRateBody, SetExchangeRatesBody, ExchangeRateListQuery } from '../schemas/exchange-rate.js';
import { BatchBody, CreateEntryBody, EntryListQuery, ReverseBody } from '../schemas/journal-entry.js';
import { EventListQuery } from '../schemas/event.js';
import { CreateWebhookEndpointBody, ReplayWebhookBody, UpdateWebhookEndpointBody, WebhookDeliveriesQuery } from '../schemas/webhook.js';
import { CreatePeriodBody } from '../schemas/period.js';
import { AgedBalancesQuery, BalanceSheetQuery, GeneralLedgerQuery, IncomeStatementQuery, TrialBalanceQuery } from '../schemas/report.js';
import { UpdateSettingsBody } from '../schemas/settings.js';
import { CreateServiceAccountBody, CreateUserBody, UpdateUserBody } from '../schemas/user.js';
import * as accounts from './accounts.js';
import { type Actor, isLocalOperator } from './actor.js';
import { agedBalances } from './aged-balances.js';
import * as auditLog from './audit-log.js';
import * as bankActions from './bank/bank-line-actions.js';
import * as bankLines from './bank/bank-lines.js';
import * as bankRules from './bank/bank-rules.js';
import * as reconciliations from './bank/reconciliations.js';
import * as bankStatements from './bank/statements.js';
import { closePeriod } from './close-period.js';
import * as currencies from './currencies.js';
import * as events from './events.js';
import * as webhooks from './webhooks/endpoints.js';
import { dryRunEntries, dryRunEntry } from './dry-run.js';
import * as exchangeRates from './exchange-rates.js';
import * as journal from './journal-entries.js';
import * as periods from './periods.js';
import { postJournalEntries, postJournalEntry, reverseJournalEntry } from './post-journal-entry.js';
import * as reports from './reports.js';
import * as settings from './settings.js';
import { readUseCase, writeUseCase } from './use-case.js';
import * as users from './users.js';
import { verifyLedger } from './verify-ledger.js';

const closed = { additionalProperties: false } as const;

/** The path's id and a body's fields: the input of a use case that acts on one thing. */
function withId<P extends TProperties>(properties: P) {
  return Type.Object({ id: Id, ...properties }, closed);
}

const ById = Type.Object(IdParams.properties, closed);
const Page = Type.Object(PageQuery, closed);
const NoInput = Type.Object({}, closed);

/** The users' use cases take null for the command line's local operator, who may do anything and is recorded as nobody. */
function userOrOperator(actor: Actor): Actor | null {
  return isLocalOperator(actor) ? null : actor;
}

export const USE_CASES = {
  // Currencies and exchange rates.
  create_currency: writeUseCase({
    name: 'create_currency', event: { type: 'currency.created' }, permission: 'currencies:write', input: CreateCurrencyBody, idempotent: 'answer', creates: true,
    prepare: (ctx, actor, input) => currencies.createCurrency(ctx, actor, input),
  }),
  create_fiat_currency: writeUseCase({
    name: 'create_fiat_currency', event: { type: 'currency.created' }, permission: 'currencies:write', idempotent: 'answer', creates: true,
    input: Type.Object({ code: NonEmpty('ISO 4217 code, e.g. "EUR"', 3) }, closed),
    prepare: (ctx, actor, { code }) => currencies.createFiatCurrency(ctx, actor, code),
  }),
  update_currency: writeUseCase({
    name: 'update_currency', event: { type: 'currency.updated' }, permission: 'currencies:write', input: withId(UpdateCurrencyBody.properties), idempotent: false,
    prepare: (ctx, actor, { id, ...input }) => currencies.updateCurrency(ctx, actor, id, input),
  }),
  get_currency: readUseCase({
    name: 'get_currency', permission: null, input: ById, run: (ctx, _actor, { id }) => currencies.getCurrency(ctx, id),
  }),
  list_currencies: readUseCase({
    name: 'list_currencies', permission: null, input: Page, run: (ctx, _actor, input) => currencies.listCurrencies(ctx, input),
  }),
  set_exchange_rate: writeUseCase({
    name: 'set_exchange_rate', event: { type: 'exchange_rate.set' }, permission: 'rates:write', input: SetExchangeRateBody, idempotent: 'answer',
    prepare: (ctx, actor, input) => exchangeRates.setExchangeRate(ctx, actor, input),
    // A new rate is created; one that replaced the rate of its currency and day is an update.
    answer: (set) => ({ data: set.rate, created: !set.replaced }),
  }),
  set_exchange_rates: writeUseCase({
    name: 'set_exchange_rates', event: { type: 'exchange_rate.set', each: true }, permission: 'rates:write', input: SetExchangeRatesBody, idempotent: 'answer',
    prepare: (ctx, actor, { rates }) => exchangeRates.setExchangeRates(ctx, actor, rates),
  }),
  list_exchange_rates: readUseCase({
    name: 'list_exchange_rates', permission: null, input: ExchangeRateListQuery,
    run: (ctx, _actor, input) => exchangeRates.listExchangeRates(ctx, input),
  }),

  // Accounts.
  create_account: writeUseCase({
    name: 'create_account', event: { type: 'account.created' }, permission: 'accounts:write', input: CreateAccountBody, idempotent: 'answer', creates: true,
    prepare: (ctx, actor, input) => accounts.createAccount(ctx, actor, input),
  }),
  update_account: writeUseCase({
    name: 'update_account', event: { type: 'account.updated' }, permission: 'accounts:write', input: withId(UpdateAccountBody.properties), idempotent: false,
    prepare: (ctx, actor, { id, ...input }) => accounts.updateAccount(ctx, actor, id, input),
  }),
  delete_account: writeUseCase({
    name: 'delete_account', event: { type: 'account.deleted' }, permission: 'accounts:write', input: ById, idempotent: false,
    prepare: (ctx, actor, { id }) => accounts.deleteAccount(ctx, actor, id),
  }),
  get_account: readUseCase({
    name: 'get_account', permission: null, input: ById, run: (ctx, _actor, { id }) => accounts.getAccount(ctx, id),
  }),
  list_accounts: readUseCase({
    name: 'list_accounts', permission: null, input: AccountListQuery, run: (ctx, _actor, filter) => accounts.listAccounts(ctx, filter),
  }),
  list_sub_accounts: readUseCase({
    name: 'list_sub_accounts', permission: null, input: ById, run: (ctx, _actor, { id }) => accounts.listSubAccounts(ctx, id),
  }),
  get_account_balance: readUseCase({
    name: 'get_account_balance', permission: null, input: withId(BalanceQuery.properties),
    run: (ctx, _actor, { id, period_id }) => accounts.getAccountBalance(ctx, id, period_id),
  }),
  list_account_transactions: readUseCase({
    name: 'list_account_transactions', permission: null, input: withId(PageQuery), expensive: true,
    run: (ctx, _actor, { id, ...page }) => accounts.listAccountTransactions(ctx, id, page),
  }),

  // Periods.
  create_period: writeUseCase({
    name: 'create_period', event: { type: 'period.created' }, permission: 'periods:write', input: CreatePeriodBody, idempotent: 'answer', creates: true,
    prepare: (ctx, actor, input) => periods.createPeriod(ctx, actor, input),
  }),
  delete_period: writeUseCase({
    name: 'delete_period', event: { type: 'period.deleted' }, permission: 'periods:write', input: ById, idempotent: false,
    prepare: (ctx, actor, { id }) => periods.deletePeriod(ctx, actor, id),
  }),
  /** Its dry run is the close's preview: the very close, rolled back, answering `preview: true`. */
  close_period: writeUseCase({
    name: 'close_period', event: { type: 'period.closed' }, permission: 'periods:close', input: ById, idempotent: 'answer',
    prepare: (ctx, actor, { id }, dryRun) => closePeriod(ctx, actor, id, dryRun),
    dryRun: (_ctx, _tx, result) => result,
  }),
  get_period: readUseCase({
    name: 'get_period', permission: null, input: ById, run: (ctx, _actor, { id }) => periods.getPeriod(ctx, id),
  }),
  list_periods: readUseCase({
    name: 'list_periods', permission: null, input: Page, run: (ctx, _actor, input) => periods.listPeriods(ctx, input),
  }),

  // Journal entries.
  post_journal_entry: writeUseCase({
    name: 'post_journal_entry', permission: 'journals:create', input: CreateEntryBody, idempotent: 'answer', postsEntries: true,
    prepare: (ctx, actor, input) => postJournalEntry(ctx, actor, input),
    answer: (entries) => ({ data: entries[0]!, created: true }),
    dryRun: dryRunEntry,
  }),
  post_journal_entries: writeUseCase({
    name: 'post_journal_entries', permission: 'journals:create', input: BatchBody, idempotent: 'entry-ids', creates: true, alone: true,
    postsEntries: true,
    prepare: (ctx, actor, { entries }) => postJournalEntries(ctx, actor, entries),
    dryRun: dryRunEntries,
  }),
  reverse_journal_entry: writeUseCase({
    name: 'reverse_journal_entry', permission: 'journals:reverse', input: withId(ReverseBody.properties), idempotent: 'answer', postsEntries: true,
    prepare: (ctx, actor, { id, ...input }) => reverseJournalEntry(ctx, actor, id, input),
    answer: (entries) => ({ data: entries[0]!, created: true }),
    dryRun: dryRunEntry,
  }),
  get_journal_entry: readUseCase({
    name: 'get_journal_entry', permission: null, input: ById, run: (ctx, _actor, { id }) => journal.getJournalEntry(ctx, id),
  }),
  list_journal_entries: readUseCase({
    name: 'list_journal_entries', permission: null, input: EntryListQuery, expensive: true,
    run: (ctx, _actor, filter) => journal.listJournalEntries(ctx, filter),
  }),

  // Reports.
  trial_balance: readUseCase({
    name: 'trial_balance', permission: null, input: TrialBalanceQuery, expensive: true, run: (ctx, _actor, input) => reports.trialBalance(ctx, input),
  }),
  balance_sheet: readUseCase({
    name: 'balance_sheet', permission: null, input: BalanceSheetQuery, expensive: true, run: (ctx, _actor, input) => reports.balanceSheet(ctx, input),
  }),
  income_statement: readUseCase({
    name: 'income_statement', permission: null, input: IncomeStatementQuery, expensive: true,
    run: (ctx, _actor, input) => reports.incomeStatement(ctx, input),
  }),
  general_ledger: readUseCase({
    name: 'general_ledger', permission: null, input: GeneralLedgerQuery, expensive: true, run: (ctx, _actor, input) => reports.generalLedger(ctx, input),
  }),
  aged_balances: readUseCase({
    name: 'aged_balances', permission: null, input: AgedBalancesQuery, expensive: true, run: (ctx, _actor, input) => agedBalances(ctx, input),
  }),

  // Settings, users, the audit log and verification.
  update_settings: writeUseCase({
    name: 'update_settings', event: { type: 'settings.updated' }, permission: 'settings:write', input: UpdateSettingsBody, idempotent: false,
    prepare: (ctx, actor, input) => settings.updateSettings(ctx, actor, input),
  }),
  get_settings: readUseCase({
    name: 'get_settings', permission: null, input: NoInput, run: (ctx) => settings.getSettings(ctx),
  }),
  create_user: writeUseCase({
    name: 'create_user', event: { type: 'user.created' }, permission: 'users:manage', input: CreateUserBody, idempotent: 'answer', creates: true,
    prepare: (ctx, actor, input) => users.createUser(ctx, userOrOperator(actor), input),
  }),
  create_service_account: writeUseCase({
    name: 'create_service_account', event: { type: 'user.created' }, permission: 'users:manage', input: CreateServiceAccountBody, idempotent: 'answer', creates: true,
    prepare: (ctx, actor, input) => users.createServiceAccount(ctx, userOrOperator(actor), input),
  }),
  update_user: writeUseCase({
    name: 'update_user', event: { type: 'user.updated' }, permission: 'users:manage', input: withId(UpdateUserBody.properties), idempotent: false,
    prepare: (ctx, actor, { id, ...input }) => users.updateUser(ctx, userOrOperator(actor), id, input),
  }),
  /** Not kept for a retry: the new key is shown once, and a replay without it would be no answer. */
  rotate_api_key: writeUseCase({
    name: 'rotate_api_key', event: { type: 'user.api_key_rotated' }, permission: 'users:manage', input: ById, idempotent: false,
    prepare: (ctx, actor, { id }) => users.rotateApiKey(ctx, userOrOperator(actor), id),
  }),
  get_user: readUseCase({
    name: 'get_user', permission: null, input: ById, run: (ctx, _actor, { id }) => users.getUser(ctx, id),
  }),
  list_users: readUseCase({
    name: 'list_users', permission: null, input: Page, run: (ctx, _actor, input) => users.listUsers(ctx, input),
  }),
  list_audit_log: readUseCase({
    name: 'list_audit_log', permission: 'admin', input: AuditLogQuery, expensive: true, run: (ctx, actor, input) => auditLog.listAuditLog(ctx, actor, input),
  }),
  list_events: readUseCase({
    name: 'list_events', permission: 'events:read', input: EventListQuery, run: (ctx, actor, input) => events.listEvents(ctx, actor, input),
  }),
  last_event: readUseCase({
    name: 'last_event', permission: 'events:read', input: NoInput, run: async (ctx) => ({ seq: String(await ctx.store.lastEventSeq()) }),
  }),
  create_webhook_endpoint: writeUseCase({
    name: 'create_webhook_endpoint', permission: 'webhooks:manage', input: CreateWebhookEndpointBody, idempotent: 'answer', creates: true,
    prepare: (ctx, actor, input) => webhooks.createWebhookEndpoint(ctx, actor, input),
  }),
  list_webhook_endpoints: readUseCase({
    name: 'list_webhook_endpoints', permission: 'webhooks:manage', input: NoInput, run: (ctx) => webhooks.listWebhookEndpoints(ctx),
  }),
  get_webhook_endpoint: readUseCase({
    name: 'get_webhook_endpoint', permission: 'webhooks:manage', input: ById, run: (ctx, _actor, { id }) => webhooks.getWebhookEndpoint(ctx, id),
  }),
  update_webhook_endpoint: writeUseCase({
    name: 'update_webhook_endpoint', permission: 'webhooks:manage', input: withId(UpdateWebhookEndpointBody.properties), idempotent: false,
    prepare: (ctx, actor, { id, ...input }) => webhooks.updateWebhookEndpoint(ctx, actor, id, input),
  }),
  delete_webhook_endpoint: writeUseCase({
    name: 'delete_webhook_endpoint', permission: 'webhooks:manage', input: ById, idempotent: false,
    prepare: (ctx, actor, { id }) => webhooks.deleteWebhookEndpoint(ctx, actor, id),
  }),
  rotate_webhook_secret: writeUseCase({
    name: 'rotate_webhook_secret', permission: 'webhooks:manage', input: ById, idempotent: false,
    prepare: (ctx, actor, { id }) => webhooks.rotateWebhookSecret(ctx, actor, id),
  }),
  replay_webhook_endpoint: writeUseCase({
    name: 'replay_webhook_endpoint', permission: 'webhooks:manage', input: withId(ReplayWebhookBody.properties), idempotent: false,
    prepare: (ctx, actor, { id, after_seq }) => webhooks.replayWebhookEndpoint(ctx, actor, id, after_seq),
  }),
  list_webhook_deliveries: readUseCase({
    name: 'list_webhook_deliveries', permission: 'webhooks:manage', input: withId(WebhookDeliveriesQuery.properties),
    run: (ctx, _actor, { id, ...input }) => webhooks.listWebhookDeliveries(ctx, id, input),
  }),
  verify: readUseCase({
    name: 'verify', permission: 'admin', input: NoInput, expensive: true, run: (ctx, actor) => verifyLedger(ctx, actor),
  }),

  // Bank statements, lines, rules and reconciliations.
  import_bank_statement: writeUseCase({
    name: 'import_bank_statement', event: { type: 'bank_statement.imported' }, permission: 'bank:write', input: ImportStatementBody, idempotent: 'answer', creates: true,
    prepare: (ctx, actor, input) => bankStatements.importBankStatement(ctx, actor, input),
    dryRun: (_ctx, _tx, statement) => ({ dry_run: true as const, statement }),
  }),
  get_bank_statement: readUseCase({
    name: 'get_bank_statement', permission: null, input: ById, run: (ctx, _actor, { id }) => bankStatements.getBankStatement(ctx, id),
  }),
  list_bank_statements: readUseCase({
    name: 'list_bank_statements', permission: null, input: BankStatementListQuery, run: (ctx, _actor, input) => bankStatements.listBankStatements(ctx, input),
  }),
  list_bank_lines: readUseCase({
    name: 'list_bank_lines', permission: null, input: BankLineListQuery, expensive: true, run: (ctx, _actor, input) => bankLines.listBankLines(ctx, input),
  }),
  get_bank_line: readUseCase({
    name: 'get_bank_line', permission: null, input: ById, run: (ctx, _actor, { id }) => bankLines.getBankLine(ctx, id),
  }),
  get_bank_line_candidates: readUseCase({
    name: 'get_bank_line_candidates', permission: null, input: ById, run: (ctx, _actor, { id }) => bankLines.bankLineCandidates(ctx, id),
  }),
  post_bank_line: writeUseCase({
    name: 'post_bank_line', event: { type: 'bank_line.updated' }, permission: 'bank:write', input: withId(PostBankLineBody.properties), idempotent: 'answer',
    prepare: (ctx, actor, { id, ...input }) => bankActions.postBankLine(ctx, actor, id, input),
    answer: (result) => ({ data: result.lines[0]!, created: false }),
    dryRun: (_ctx, _tx, result) => ({ dry_run: true as const, ...result }),
  }),
  accept_bank_lines: writeUseCase({
    name: 'accept_bank_lines', event: { type: 'bank_line.updated', each: true }, permission: 'bank:write', input: AcceptBankLinesBody, idempotent: 'answer',
    prepare: (ctx, actor, input) => bankActions.acceptBankLines(ctx, actor, input),
    answer: (result) => ({ data: result.lines, created: false }),
    dryRun: (_ctx, _tx, result) => ({ dry_run: true as const, ...result }),
  }),
  match_bank_line: writeUseCase({
    name: 'match_bank_line', event: { type: 'bank_line.updated' }, permission: 'bank:write', input: withId(MatchBankLineBody.properties), idempotent: 'answer',
    prepare: (ctx, actor, { id, ...input }) => bankActions.matchBankLine(ctx, actor, id, input),
  }),
  exclude_bank_line: writeUseCase({
    name: 'exclude_bank_line', event: { type: 'bank_line.updated' }, permission: 'bank:write', input: withId(ExcludeBankLineBody.properties), idempotent: 'answer',
    prepare: (ctx, actor, { id, ...input }) => bankActions.excludeBankLine(ctx, actor, id, input),
  }),
  unmatch_bank_line: writeUseCase({
    name: 'unmatch_bank_line', event: { type: 'bank_line.updated' }, permission: 'bank:write', input: ById, idempotent: 'answer',
    prepare: (ctx, actor, { id }) => bankActions.unmatchBankLine(ctx, actor, id),
  }),
  create_bank_rule: writeUseCase({
    name: 'create_bank_rule', event: { type: 'bank_rule.created' }, permission: 'bank:write', input: CreateBankRuleBody, idempotent: 'answer', creates: true,
    prepare: (ctx, actor, input) => bankRules.createBankRule(ctx, actor, input),
  }),
  update_bank_rule: writeUseCase({
    name: 'update_bank_rule', event: { type: 'bank_rule.updated' }, permission: 'bank:write', input: withId(UpdateBankRuleBody.properties), idempotent: false,
    prepare: (ctx, actor, { id, ...input }) => bankRules.updateBankRule(ctx, actor, id, input),
  }),
  delete_bank_rule: writeUseCase({
    name: 'delete_bank_rule', event: { type: 'bank_rule.deleted' }, permission: 'bank:write', input: ById, idempotent: false,
    prepare: (ctx, actor, { id }) => bankRules.deleteBankRule(ctx, actor, id),
  }),
  /** Tries a rule on the unmatched lines without saving it: a read that needs bank:write. */
  preview_bank_rule: readUseCase({
    name: 'preview_bank_rule', permission: 'bank:write', input: PreviewBankRuleBody,
    run: (ctx, actor, input) => bankRules.previewBankRule(ctx, actor, input),
  }),
  get_bank_rule: readUseCase({
    name: 'get_bank_rule', permission: null, input: ById, run: (ctx, _actor, { id }) => bankRules.getBankRule(ctx, id),
  }),
  list_bank_rules: readUseCase({
    name: 'list_bank_rules', permission: null, input: BankRuleListQuery, run: (ctx, _actor, input) => bankRules.listBankRules(ctx, input),
  }),
  start_reconciliation: writeUseCase({
    name: 'start_reconciliation', event: { type: 'reconciliation.created' }, permission: 'bank:write', input: StartReconciliationBody, idempotent: 'answer', creates: true,
    prepare: (ctx, actor, input) => reconciliations.startReconciliation(ctx, actor, input),
  }),
  clear_reconciliation_lines: writeUseCase({
    name: 'clear_reconciliation_lines', event: { type: 'reconciliation.updated' }, permission: 'bank:write', input: withId(ClearLinesBody.properties), idempotent: 'answer',
    prepare: (ctx, actor, { id, ...input }) => reconciliations.clearReconciliationLines(ctx, actor, id, input),
  }),
  unclear_reconciliation_lines: writeUseCase({
    name: 'unclear_reconciliation_lines', event: { type: 'reconciliation.updated' }, permission: 'bank:write', input: withId(ClearLinesBody.properties), idempotent: 'answer',
    prepare: (ctx, actor, { id, ...input }) => reconciliations.unclearReconciliationLines(ctx, actor, id, input),
  }),
  finish_reconciliation: writeUseCase({
    name: 'finish_reconciliation', event: { type: 'reconciliation.finished' }, permission: 'bank:write', input: ById, idempotent: 'answer',
    prepare: (ctx, actor, { id }) => reconciliations.finishReconciliation(ctx, actor, id),
  }),
  get_reconciliation: readUseCase({
    name: 'get_reconciliation', permission: null, input: ById, expensive: true,
    run: (ctx, _actor, { id }) => reconciliations.getReconciliation(ctx, id),
  }),
  list_reconciliations: readUseCase({
    name: 'list_reconciliations', permission: null, input: ReconciliationListQuery, expensive: true,
    run: (ctx, _actor, input) => reconciliations.listReconciliations(ctx, input),
  }),
} as const;

export type UseCaseName = keyof typeof USE_CASES;
