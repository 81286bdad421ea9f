/**
 * The use cases of the ledger, bound to one store. The HTTP routes and the CLI commands call these
 * methods and nothing else, so both faces enforce the same rules.
 */
import { randomBytes } from 'node:crypto';
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
import * as bankActions from './bank/bank-line-actions.js';
import * as bankLines from './bank/bank-lines.js';
import * as bankRules from './bank/bank-rules.js';
import * as reconciliations from './bank/reconciliations.js';
import * as bankStatements from './bank/statements.js';
import { agedBalances } from './aged-balances.js';
import type { Actor } from './actor.js';
import * as auditLog from './audit-log.js';
import { AccessTokens, assertStrongJwtSecret } from './auth/access-tokens.js';
import { LoginThrottle } from './auth/login-throttle.js';
import { ServiceContext, type PageInput, type ServiceOptions } from './context.js';
import { CursorCodec } from './cursor.js';
import * as currencies from './currencies.js';
import * as exchangeRates from './exchange-rates.js';
import * as dryRun from './dry-run.js';
import * as journal from './journal-entries.js';
import * as periods from './periods.js';
import type { LedgerStore } from './ports/ledger-store.js';
import type { Runtime } from './ports/runtime.js';
import { importJournalEntries, postJournalEntries, postJournalEntry, reverseJournalEntry } from './post-journal-entry.js';
import { closePeriod } from './close-period.js';
import * as reports from './reports.js';
import * as sessions from './sessions.js';
import * as settings from './settings.js';
import * as users from './users.js';
import { type AuthenticateOptions, authenticateBearer } from './auth/authenticate.js';
import { verifyLedger, type VerifyProgress } from './verify-ledger.js';
import { withIdempotencyClaims } from './idempotency.js';

const CURSOR_SECRET_KEY = 'secret.cursor';
const JWT_SECRET_KEY = 'secret.jwt';

export class LedgerService {
  private constructor(readonly ctx: ServiceContext) {}

  static async create(store: LedgerStore, runtime: Runtime, options: ServiceOptions = {}): Promise<LedgerService> {
    const cursorSecret = await loadOrCreateSecret(store, CURSOR_SECRET_KEY);
    if (options.jwtSecret !== undefined) assertStrongJwtSecret(options.jwtSecret);
    const jwtSecret = options.jwtSecret ?? await loadOrCreateSecret(store, JWT_SECRET_KEY);
    return new LedgerService(new ServiceContext(withIdempotencyClaims(store, runtime.clock), runtime, new CursorCodec(cursorSecret),
      new AccessTokens(jwtSecret, runtime.clock), new LoginThrottle(store, runtime.clock), options));
  }

  createCurrency(actor: Actor, input: CreateCurrencyInput) { return currencies.createCurrency(this.ctx, actor, input); }
  createFiatCurrency(actor: Actor, code: string) { return currencies.createFiatCurrency(this.ctx, actor, code); }
  getCurrency(id: string) { return currencies.getCurrency(this.ctx, id); }
  listCurrencies(input: PageInput) { return currencies.listCurrencies(this.ctx, input); }
  updateCurrency(actor: Actor, id: string, input: UpdateCurrencyInput) { return currencies.updateCurrency(this.ctx, actor, id, input); }

  setExchangeRate(actor: Actor, input: SetExchangeRateInput) { return exchangeRates.setExchangeRate(this.ctx, actor, input); }
  setExchangeRates(actor: Actor, inputs: readonly SetExchangeRateInput[]) { return exchangeRates.setExchangeRates(this.ctx, actor, inputs); }
  listExchangeRates(input: ExchangeRateListInput) { return exchangeRates.listExchangeRates(this.ctx, input); }

  createAccount(actor: Actor, input: CreateAccountInput) { return accounts.createAccount(this.ctx, actor, input); }
  getAccount(id: string) { return accounts.getAccount(this.ctx, id); }
  listAccounts(filter: AccountListFilter) { return accounts.listAccounts(this.ctx, filter); }
  listSubAccounts(id: string) { return accounts.listSubAccounts(this.ctx, id); }
  chartOfAccounts() { return accounts.chartOfAccounts(this.ctx); }
  updateAccount(actor: Actor, id: string, input: UpdateAccountInput) { return accounts.updateAccount(this.ctx, actor, id, input); }
  deleteAccount(actor: Actor, id: string) { return accounts.deleteAccount(this.ctx, actor, id); }
  getAccountBalance(id: string, periodId?: string) { return accounts.getAccountBalance(this.ctx, id, periodId); }
  listAccountTransactions(id: string, input: PageInput) { return accounts.listAccountTransactions(this.ctx, id, input); }

  createPeriod(actor: Actor, input: CreatePeriodInput) { return periods.createPeriod(this.ctx, actor, input); }
  getPeriod(id: string) { return periods.getPeriod(this.ctx, id); }
  listPeriods(input: PageInput) { return periods.listPeriods(this.ctx, input); }
  deletePeriod(actor: Actor, id: string) { return periods.deletePeriod(this.ctx, actor, id); }
  closePeriod(actor: Actor, id: string, preview: boolean) { return closePeriod(this.ctx, actor, id, preview); }

  trialBalance(input: TrialBalanceInput) { return reports.trialBalance(this.ctx, input); }
  balanceSheet(input: BalanceSheetInput) { return reports.balanceSheet(this.ctx, input); }
  incomeStatement(input: IncomeStatementInput) { return reports.incomeStatement(this.ctx, input); }
  generalLedger(input: GeneralLedgerInput) { return reports.generalLedger(this.ctx, input); }
  agedBalances(input: AgedBalancesInput) { return agedBalances(this.ctx, input); }

  postJournalEntry(actor: Actor, input: CreateEntryInput) { return postJournalEntry(this.ctx, actor, input); }
  postJournalEntries(actor: Actor, inputs: readonly CreateEntryInput[]) {
    return postJournalEntries(this.ctx, actor, inputs);
  }

  importJournalEntries(actor: Actor, open: () => AsyncIterable<CreateEntryInput>) {
    return importJournalEntries(this.ctx, actor, open);
  }
  reverseJournalEntry(actor: Actor, id: string, input: ReverseInput) { return reverseJournalEntry(this.ctx, actor, id, input); }
  dryRunJournalEntry(actor: Actor, input: CreateEntryInput) { return dryRun.dryRunJournalEntry(this.ctx, actor, input); }
  dryRunJournalEntries(actor: Actor, inputs: readonly CreateEntryInput[]) { return dryRun.dryRunJournalEntries(this.ctx, actor, inputs); }
  dryRunReversal(actor: Actor, id: string, input: ReverseInput) { return dryRun.dryRunReversal(this.ctx, actor, id, input); }
  getJournalEntry(id: string) { return journal.getJournalEntry(this.ctx, id); }
  getJournalEntries(ids: readonly string[]) { return journal.getJournalEntries(this.ctx, ids); }
  listJournalEntries(filter: EntryListFilter) { return journal.listJournalEntries(this.ctx, filter); }

  getSettings() { return settings.getSettings(this.ctx); }
  updateSettings(actor: Actor, input: UpdateSettingsInput) { return settings.updateSettings(this.ctx, actor, input); }

  createServiceAccount(actor: Actor | null, input: CreateServiceAccountInput) { return users.createServiceAccount(this.ctx, actor, input); }
  rotateApiKey(actor: Actor | null, id: string) { return users.rotateApiKey(this.ctx, actor, id); }
  createUser(actor: Actor | null, input: CreateUserInput) { return users.createUser(this.ctx, actor, input); }
  updateUser(actor: Actor | null, id: string, input: UpdateUserInput) { return users.updateUser(this.ctx, actor, id, input); }
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

  importBankStatement(actor: Actor, input: ImportStatementInput) { return bankStatements.importBankStatement(this.ctx, actor, input); }
  getBankStatement(id: string) { return bankStatements.getBankStatement(this.ctx, id); }
  listBankStatements(input: BankStatementListInput) { return bankStatements.listBankStatements(this.ctx, input); }
  listBankLines(input: BankLineListInput) { return bankLines.listBankLines(this.ctx, input); }
  getBankLine(id: string) { return bankLines.getBankLine(this.ctx, id); }
  bankLineCandidates(id: string) { return bankLines.bankLineCandidates(this.ctx, id); }
  postBankLine(actor: Actor, id: string, input: PostBankLineInput) { return bankActions.postBankLine(this.ctx, actor, id, input); }
  dryRunPostBankLine(actor: Actor, id: string, input: PostBankLineInput) { return bankActions.dryRunPostBankLine(this.ctx, actor, id, input); }
  acceptBankLines(actor: Actor, input: AcceptBankLinesInput) { return bankActions.acceptBankLines(this.ctx, actor, input); }
  dryRunAcceptBankLines(actor: Actor, input: AcceptBankLinesInput) { return bankActions.dryRunAcceptBankLines(this.ctx, actor, input); }
  matchBankLine(actor: Actor, id: string, input: MatchBankLineInput) { return bankActions.matchBankLine(this.ctx, actor, id, input); }
  excludeBankLine(actor: Actor, id: string, input: ExcludeBankLineInput) { return bankActions.excludeBankLine(this.ctx, actor, id, input); }
  unmatchBankLine(actor: Actor, id: string) { return bankActions.unmatchBankLine(this.ctx, actor, id); }
  createBankRule(actor: Actor, input: CreateBankRuleInput) { return bankRules.createBankRule(this.ctx, actor, input); }
  updateBankRule(actor: Actor, id: string, input: UpdateBankRuleInput) { return bankRules.updateBankRule(this.ctx, actor, id, input); }
  deleteBankRule(actor: Actor, id: string) { return bankRules.deleteBankRule(this.ctx, actor, id); }
  getBankRule(id: string) { return bankRules.getBankRule(this.ctx, id); }
  listBankRules(input: PageInput) { return bankRules.listBankRules(this.ctx, input); }
  previewBankRule(actor: Actor, input: PreviewBankRuleInput) { return bankRules.previewBankRule(this.ctx, actor, input); }
  startReconciliation(actor: Actor, input: StartReconciliationInput) { return reconciliations.startReconciliation(this.ctx, actor, input); }
  getReconciliation(id: string) { return reconciliations.getReconciliation(this.ctx, id); }
  listReconciliations(input: PageInput & { account_id?: string | undefined }) { return reconciliations.listReconciliations(this.ctx, input); }
  clearReconciliationLines(actor: Actor, id: string, input: ClearLinesInput) {
    return reconciliations.clearReconciliationLines(this.ctx, actor, id, input);
  }
  unclearReconciliationLines(actor: Actor, id: string, input: ClearLinesInput) {
    return reconciliations.unclearReconciliationLines(this.ctx, actor, id, input);
  }
  finishReconciliation(actor: Actor, id: string) { return reconciliations.finishReconciliation(this.ctx, actor, id); }

  verifyLedger(actor: Actor, onProgress?: VerifyProgress) { return verifyLedger(this.ctx, actor, onProgress); }

  health() { return this.ctx.store.ping(); }

  /** Runs an expensive read (a report, a long list) in one of the actor's bounded slots (context.ts). */
  expensiveRead<T>(actor: Actor, work: () => Promise<T>): Promise<T> { return this.ctx.expensiveReads.run(actor.user_id, work); }
}

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
