/**
 * The ledger's service, bound to one store: what every face holds. Faces run use cases through
 * `execute` (the table in use-cases.ts, one command envelope each) or the named methods below, and
 * never reach past them into the context or the store.
 */
import { randomBytes } from 'node:crypto';
import type { Static, TSchema } from 'typebox';
import type { AccountListFilter, CreateAccountInput, UpdateAccountInput } from '../schemas/account.js';
import type { AuditLogInput } from '../schemas/audit.js';
import type { CreateCurrencyInput, UpdateCurrencyInput } from '../schemas/currency.js';
import type { ExchangeRateListInput, SetExchangeRateInput } from '../schemas/exchange-rate.js';
import type { CreateEntryInput, EntryListFilter, ReverseInput } from '../schemas/journal-entry.js';
import type { CreatePeriodInput } from '../schemas/period.js';
import type {
  AgedBalancesInput, BalanceSheetInput, GeneralLedgerInput, IncomeStatementInput, TrialBalanceInput,
} from '../schemas/report.js';
import type { UpdateSettingsInput } from '../schemas/settings.js';
import type {
  CreateServiceAccountInput, CreateUserInput, LoginInput, ChangePasswordInput, RefreshInput, SetupInput, UpdateUserInput,
} from '../schemas/user.js';
import type {
  AcceptBankLinesInput, BankLineListInput, BankStatementListInput, ClearLinesInput, CreateBankRuleInput, ExcludeBankLineInput,
  ImportStatementInput, MatchBankLineInput, PostBankLineInput, PreviewBankRuleInput, StartReconciliationInput, UpdateBankRuleInput,
} from '../schemas/bank.js';
import * as accounts from './accounts.js';
import * as bankLines from './bank/bank-lines.js';
import * as bankRules from './bank/bank-rules.js';
import * as reconciliations from './bank/reconciliations.js';
import * as bankStatements from './bank/statements.js';
import { agedBalances } from './aged-balances.js';
import { type Actor, LOCAL_OPERATOR } from './actor.js';
import * as auditLog from './audit-log.js';
import { AccessTokens, assertStrongJwtSecret } from './auth/access-tokens.js';
import { LoginThrottle } from './auth/login-throttle.js';
import { ServiceContext, type PageInput, type ServiceOptions } from './context.js';
import { CursorCodec } from './cursor.js';
import * as currencies from './currencies.js';
import * as exchangeRates from './exchange-rates.js';
import * as journal from './journal-entries.js';
import * as periods from './periods.js';
import type { LedgerStore, SchemaState } from './ports/ledger-store.js';
import type { Runtime } from './ports/runtime.js';
import type { ConnectionPoolUse } from './ports/observer.js';
import { importJournalEntries } from './post-journal-entry.js';
import * as reports from './reports.js';
import * as sessions from './sessions.js';
import * as settings from './settings.js';
import * as users from './users.js';
import { type AuthenticateOptions, authenticateBearer } from './auth/authenticate.js';
import { verifyLedger, type VerifyProgress } from './verify-ledger.js';
import { executeRead, executeWrite } from './execute-command.js';
import { type DelivererOptions, WebhookDeliverer } from './webhooks/delivery.js';
import type { Command, Outcome, ReadUseCase, UseCase, WriteUseCase } from './use-case.js';
import { USE_CASES } from './use-cases.js';

const CURSOR_SECRET_KEY = 'secret.cursor';
const JWT_SECRET_KEY = 'secret.jwt';

export class LedgerService {
  /** The use cases' shared pieces: for the service's own files and white-box tests, never for the faces (they call use cases). */
  readonly ctx: ServiceContext;

  private constructor(ctx: ServiceContext) {
    this.ctx = ctx;
  }

  static async create(store: LedgerStore, runtime: Runtime, options: ServiceOptions = {}): Promise<LedgerService> {
    const cursorSecret = await loadOrCreateSecret(store, CURSOR_SECRET_KEY);
    if (options.jwtSecret !== undefined) assertStrongJwtSecret(options.jwtSecret);
    const jwtSecret = options.jwtSecret ?? await loadOrCreateSecret(store, JWT_SECRET_KEY);
    return new LedgerService(new ServiceContext(store, runtime, new CursorCodec(cursorSecret),
      new AccessTokens(jwtSecret, runtime.clock), new LoginThrottle(store, runtime.clock), options));
  }

  /**
   * Runs a use case of the table (use-cases.ts) with one command envelope: what every face calls.
   * A write answers its outcome (done, replayed or a dry run), a read its answer.
   */
  execute<S extends TSchema, R, A, D>(useCase: WriteUseCase<S, R, A, D>, command: Command<Static<S>>): Promise<Outcome<A, D>>;
  execute<S extends TSchema, A>(useCase: ReadUseCase<S, A>, command: Command<Static<S>>): Promise<A>;
  execute(useCase: UseCase, command: Command<unknown>): Promise<unknown> {
    return useCase.writes ? executeWrite(this.ctx, useCase, command) : executeRead(this.ctx, useCase, command);
  }

  /*
   * The use cases by name, for callers that need neither a dry run nor a key: the service's own
   * tests, the test fixtures and the command line's plain commands. Each one goes through the
   * executor like any face.
   */

  private async write<S extends TSchema, R, A, D>(useCase: WriteUseCase<S, R, A, D>, actor: Actor, input: Static<S>): Promise<A> {
    const outcome = await executeWrite(this.ctx, useCase, { actor, input });
    if (outcome.kind === 'dry-run') throw new Error('a plain call answered a dry run');
    return outcome.data;
  }

  createCurrency(actor: Actor, input: CreateCurrencyInput) { return this.write(USE_CASES.create_currency, actor, input); }
  createFiatCurrency(actor: Actor, code: string) { return this.write(USE_CASES.create_fiat_currency, actor, { code }); }
  getCurrency(id: string) { return currencies.getCurrency(this.ctx, id); }
  listCurrencies(input: PageInput) { return currencies.listCurrencies(this.ctx, input); }
  updateCurrency(actor: Actor, id: string, input: UpdateCurrencyInput) { return this.write(USE_CASES.update_currency, actor, { id, ...input }); }
  /** A currency by id (its code and scale never change: cached). */
  currency(id: string) { return this.ctx.currency(id); }

  setExchangeRate(actor: Actor, input: SetExchangeRateInput) { return this.write(USE_CASES.set_exchange_rate, actor, input); }
  setExchangeRates(actor: Actor, inputs: readonly SetExchangeRateInput[]) {
    return this.write(USE_CASES.set_exchange_rates, actor, { rates: [...inputs] });
  }
  listExchangeRates(input: ExchangeRateListInput) { return exchangeRates.listExchangeRates(this.ctx, input); }

  createAccount(actor: Actor, input: CreateAccountInput) { return this.write(USE_CASES.create_account, actor, input); }
  getAccount(id: string) { return accounts.getAccount(this.ctx, id); }
  listAccounts(filter: AccountListFilter) { return accounts.listAccounts(this.ctx, filter); }
  listSubAccounts(id: string) { return accounts.listSubAccounts(this.ctx, id); }
  chartOfAccounts() { return accounts.chartOfAccounts(this.ctx); }
  /** Every account, active or not, in one read (an export's chart). */
  allAccounts() { return this.ctx.store.allAccounts(); }
  updateAccount(actor: Actor, id: string, input: UpdateAccountInput) { return this.write(USE_CASES.update_account, actor, { id, ...input }); }
  deleteAccount(actor: Actor, id: string) { return this.write(USE_CASES.delete_account, actor, { id }); }
  getAccountBalance(id: string, periodId?: string) { return accounts.getAccountBalance(this.ctx, id, periodId); }
  listAccountTransactions(id: string, input: PageInput) { return accounts.listAccountTransactions(this.ctx, id, input); }

  createPeriod(actor: Actor, input: CreatePeriodInput) { return this.write(USE_CASES.create_period, actor, input); }
  getPeriod(id: string) { return periods.getPeriod(this.ctx, id); }
  listPeriods(input: PageInput) { return periods.listPeriods(this.ctx, input); }
  deletePeriod(actor: Actor, id: string) { return this.write(USE_CASES.delete_period, actor, { id }); }
  /** Closes the period, or with `preview` answers what the close would do (its dry run). */
  async closePeriod(actor: Actor, id: string, preview: boolean) {
    return (await this.execute(USE_CASES.close_period, { actor, input: { id }, dryRun: preview })).data;
  }

  trialBalance(input: TrialBalanceInput) { return reports.trialBalance(this.ctx, input); }
  balanceSheet(input: BalanceSheetInput) { return reports.balanceSheet(this.ctx, input); }
  incomeStatement(input: IncomeStatementInput) { return reports.incomeStatement(this.ctx, input); }
  generalLedger(input: GeneralLedgerInput) { return reports.generalLedger(this.ctx, input); }
  agedBalances(input: AgedBalancesInput) { return agedBalances(this.ctx, input); }

  postJournalEntry(actor: Actor, input: CreateEntryInput) { return this.write(USE_CASES.post_journal_entry, actor, input); }
  postJournalEntries(actor: Actor, inputs: readonly CreateEntryInput[]) {
    return this.write(USE_CASES.post_journal_entries, actor, { entries: [...inputs] });
  }

  /** `ledger journal-entries import`: a stream of entries too large for a command's input, posted all or none. */
  importJournalEntries(actor: Actor, open: () => AsyncIterable<CreateEntryInput>) {
    return importJournalEntries(this.ctx, actor, open);
  }
  reverseJournalEntry(actor: Actor, id: string, input: ReverseInput) { return this.write(USE_CASES.reverse_journal_entry, actor, { id, ...input }); }
  getJournalEntry(id: string) { return journal.getJournalEntry(this.ctx, id); }
  getJournalEntries(ids: readonly string[]) { return journal.getJournalEntries(this.ctx, ids); }
  listJournalEntries(filter: EntryListFilter) { return journal.listJournalEntries(this.ctx, filter); }

  getSettings() { return settings.getSettings(this.ctx); }
  updateSettings(actor: Actor, input: UpdateSettingsInput) { return this.write(USE_CASES.update_settings, actor, input); }

  // The users' use cases take null for the command line's local operator (recorded as nobody).
  createServiceAccount(actor: Actor | null, input: CreateServiceAccountInput) {
    return this.write(USE_CASES.create_service_account, actor ?? LOCAL_OPERATOR, input);
  }
  rotateApiKey(actor: Actor | null, id: string) { return this.write(USE_CASES.rotate_api_key, actor ?? LOCAL_OPERATOR, { id }); }
  createUser(actor: Actor | null, input: CreateUserInput) { return this.write(USE_CASES.create_user, actor ?? LOCAL_OPERATOR, input); }
  updateUser(actor: Actor | null, id: string, input: UpdateUserInput) {
    return this.write(USE_CASES.update_user, actor ?? LOCAL_OPERATOR, { id, ...input });
  }
  getUser(id: string) { return users.getUser(this.ctx, id); }
  listUsers(input: PageInput) { return users.listUsers(this.ctx, input); }
  authenticate(token: string, options?: AuthenticateOptions) { return authenticateBearer(this.ctx, token, options); }

  // requestId: the HTTP request's id, for the audit log (these run before anyone is authenticated).
  login(input: LoginInput, clientKey: string, requestId?: string) { return sessions.login(this.ctx, input, clientKey, requestId); }
  refresh(input: RefreshInput, requestId?: string) { return sessions.refresh(this.ctx, input, requestId); }
  logout(input: RefreshInput, requestId?: string) { return sessions.logout(this.ctx, input, requestId); }
  logoutAll(actor: Actor) { return sessions.logoutAll(this.ctx, actor); }
  changePassword(actor: Actor, input: ChangePasswordInput, clientKey: string) { return sessions.changePassword(this.ctx, actor, input, clientKey); }
  me(actor: Actor) { return sessions.me(this.ctx, actor); }
  needsSetup() { return sessions.needsSetup(this.ctx); }
  setup(input: SetupInput, requestId?: string) { return sessions.setup(this.ctx, input, requestId); }

  listAuditLog(actor: Actor, input: AuditLogInput) { return auditLog.listAuditLog(this.ctx, actor, input); }

  importBankStatement(actor: Actor, input: ImportStatementInput) { return this.write(USE_CASES.import_bank_statement, actor, input); }
  getBankStatement(id: string) { return bankStatements.getBankStatement(this.ctx, id); }
  listBankStatements(input: BankStatementListInput) { return bankStatements.listBankStatements(this.ctx, input); }
  listBankLines(input: BankLineListInput) { return bankLines.listBankLines(this.ctx, input); }
  getBankLine(id: string) { return bankLines.getBankLine(this.ctx, id); }
  bankLineCandidates(id: string) { return bankLines.bankLineCandidates(this.ctx, id); }
  postBankLine(actor: Actor, id: string, input: PostBankLineInput) { return this.write(USE_CASES.post_bank_line, actor, { id, ...input }); }
  acceptBankLines(actor: Actor, input: AcceptBankLinesInput) { return this.write(USE_CASES.accept_bank_lines, actor, input); }
  matchBankLine(actor: Actor, id: string, input: MatchBankLineInput) { return this.write(USE_CASES.match_bank_line, actor, { id, ...input }); }
  excludeBankLine(actor: Actor, id: string, input: ExcludeBankLineInput) { return this.write(USE_CASES.exclude_bank_line, actor, { id, ...input }); }
  unmatchBankLine(actor: Actor, id: string) { return this.write(USE_CASES.unmatch_bank_line, actor, { id }); }
  createBankRule(actor: Actor, input: CreateBankRuleInput) { return this.write(USE_CASES.create_bank_rule, actor, input); }
  updateBankRule(actor: Actor, id: string, input: UpdateBankRuleInput) { return this.write(USE_CASES.update_bank_rule, actor, { id, ...input }); }
  deleteBankRule(actor: Actor, id: string) { return this.write(USE_CASES.delete_bank_rule, actor, { id }); }
  getBankRule(id: string) { return bankRules.getBankRule(this.ctx, id); }
  listBankRules(input: PageInput) { return bankRules.listBankRules(this.ctx, input); }
  previewBankRule(actor: Actor, input: PreviewBankRuleInput) { return bankRules.previewBankRule(this.ctx, actor, input); }
  startReconciliation(actor: Actor, input: StartReconciliationInput) { return this.write(USE_CASES.start_reconciliation, actor, input); }
  getReconciliation(id: string) { return reconciliations.getReconciliation(this.ctx, id); }
  listReconciliations(input: PageInput & { account_id?: string | undefined }) { return reconciliations.listReconciliations(this.ctx, input); }
  clearReconciliationLines(actor: Actor, id: string, input: ClearLinesInput) {
    return this.write(USE_CASES.clear_reconciliation_lines, actor, { id, ...input });
  }
  unclearReconciliationLines(actor: Actor, id: string, input: ClearLinesInput) {
    return this.write(USE_CASES.unclear_reconciliation_lines, actor, { id, ...input });
  }
  finishReconciliation(actor: Actor, id: string) { return this.write(USE_CASES.finish_reconciliation, actor, { id }); }

  verifyLedger(actor: Actor, onProgress?: VerifyProgress) { return verifyLedger(this.ctx, actor, onProgress); }

  health() { return this.ctx.store.ping(); }

  /** Whether this process can serve: the database answers and holds every migration this code knows (/readyz). */
  async readiness(): Promise<Readiness> {
    let state: SchemaState;
    try {
      state = await this.ctx.store.schemaState();
    } catch {
      // No detail: /readyz answers anyone, and a driver's message can name hosts and users.
      return { ready: false, reason: 'the database does not answer' };
    }
    if (state.missing.length > 0) {
      return { ready: false, reason: `the database lacks migration${state.missing.length === 1 ? '' : 's'} ${state.missing.join(', ')}: run \`ledger init\`` };
    }
    return { ready: true, schema_version: state.expected };
  }

  /**
   * What the operator's gauges show at a scrape: the connection pool, the change feed's last seq and
   * how far each webhook endpoint is behind it (events not yet delivered).
   */
  async gauges(): Promise<ServiceGauges> {
    const { store } = this.ctx;
    const [lastSeq, endpoints] = await store.read(async (reads) => [await reads.lastEventSeq(), await reads.listWebhookEndpoints()] as const);
    return {
      pool: store.connectionPool(),
      lastEventSeq: lastSeq,
      webhooks: endpoints.map((endpoint) => ({ id: endpoint.id, active: endpoint.is_active, backlog: Math.max(0, lastSeq - endpoint.cursor_seq) })),
    };
  }

  /** A new id (UUIDv7 in production): the HTTP face names each request with one. */
  newId() { return this.ctx.runtime.newId(); }

  /** Closes the store: the composition roots call it when the process is done with the ledger. */
  close() { return this.ctx.store.close(); }

  /** Starts delivering webhooks from this process (`ledger serve`); `stop()` ends it once the attempts under way are recorded. */
  startWebhookDelivery(options: DelivererOptions): WebhookDeliverer {
    const deliverer = new WebhookDeliverer(this.ctx, options);
    deliverer.start();
    return deliverer;
  }

  /** Runs an expensive read (a report, a long list) in one of the actor's bounded slots (context.ts). */
  expensiveRead<T>(actor: Actor, work: () => Promise<T>): Promise<T> { return this.ctx.expensiveReads.run(actor.user_id, work); }
}

export interface ServiceGauges {
  pool: ConnectionPoolUse | undefined;
  lastEventSeq: number;
  /** Each endpoint: whether it delivers, and how many events of the feed follow its cursor (of every type: an upper bound of its own). */
  webhooks: { id: string; active: boolean; backlog: number }[];
}

export type Readiness = { ready: true; schema_version: number } | { ready: false; reason: string };

/**
 * Secrets live in the database so that every process on the same database agrees on them; two
 * processes starting at once both keep whichever secret was stored first.
 */
export async function loadOrCreateSecret(store: LedgerStore, key: string): Promise<string> {
  const existing = await store.getSetting(key);
  if (existing) return existing;
  return store.write(async (tx) => {
    await tx.setSettingIfAbsent(key, randomBytes(32).toString('base64url'));
    return (await tx.getSetting(key))!;
  });
}
