/**
 * Bank rules: create, edit, order (priority) and delete them, audited; try one on the unmatched
 * lines before saving it. A regular expression is checked when the rule is saved: one that does
 * not compile, or that could take more than linear time on some input (catastrophic or polynomial
 * backtracking, as the `recheck` analyser finds it), is refused, so no rule can stall a server.
 */
import { fieldChanges, initialValues } from '../../domain/audit.js';
import type { BankRule, BankRuleMatch } from '../../domain/bank/banking.js';
import { compileRule, ruleReason } from '../../domain/bank/rules.js';
import { notFound, validationError } from '../../domain/errors.js';
import { parseLineAmount } from '../../domain/money/amount.js';
import type {
  BankRuleView, CreateBankRuleInput, PreviewBankRuleInput, UpdateBankRuleInput,
} from '../../schemas/bank.js';
import { type Actor, requirePermission } from '../actor.js';
import { recordAudit } from '../audit-log.js';
import { confirmCredential } from '../auth/authenticate.js';
import type { Page, PageInput, ServiceContext } from '../context.js';
import type { Work } from '../use-case.js';
import type { LedgerReads } from '../ports/ledger-store.js';
import { bankAccount } from './bank-accounts.js';
import { bankLineView, bankRuleView } from './bank-views.js';
import { TimeSlice } from '../time-slice.js';
import { suggestionsFor } from './suggestions.js';

const DEFAULT_PRIORITY = 100;
/** A preview looks at this many unmatched lines at most, oldest first. */
const MAX_EXAMINED = 20_000;
/** How long the analysis of one expression may take before the expression is refused as unproven. */
const REGEX_CHECK_TIMEOUT_MS = 2000;
const RULE_FIELDS = ['name', 'priority', 'account_id', 'match', 'counter_account_id', 'description'] as const;

type MatchInput = CreateBankRuleInput['match'];

// recheck's analysis in its worker thread, in JavaScript: no Java or native agent process is started.
process.env.RECHECK_BACKEND ??= 'worker';

/** The conditions as stored: amounts parsed exactly, the expression proven safe. */
export async function ruleMatchOf(input: MatchInput, field = 'match'): Promise<BankRuleMatch> {
  const match: BankRuleMatch = {};
  if (input.description_contains !== undefined) match.description_contains = input.description_contains;
  if (input.description_regex !== undefined) {
    await assertSafeRegex(input.description_regex, `${field}.description_regex`);
    match.description_regex = input.description_regex;
  }
  if (input.amount_min !== undefined) match.amount_min = parseLineAmount(input.amount_min, `${field}.amount_min`);
  if (input.amount_max !== undefined) match.amount_max = parseLineAmount(input.amount_max, `${field}.amount_max`);
  if (match.amount_min !== undefined && match.amount_max !== undefined && match.amount_min > match.amount_max) {
    throw validationError('amount_min is greater than amount_max', `${field}.amount_min`, 'Swap them, or leave one out');
  }
  if (input.direction !== undefined) match.direction = input.direction;
  return match;
}

export async function assertSafeRegex(pattern: string, field: string): Promise<void> {
  try {
    new RegExp(pattern, 'iu');
  } catch (error) {
    throw validationError(`The regular expression does not compile: ${(error as Error).message}`, field,
      'Write a JavaScript regular expression, e.g. "^card payment" or "(starbucks|costa)"; or use description_contains');
  }
  // Loaded when a rule is saved, not when the program starts: it is a third of the start-up of every
  // `ledger` command otherwise (about 300 ms of module loading).
  const { check } = await import('recheck');
  const diagnosis = await check(pattern, 'iu', { timeout: REGEX_CHECK_TIMEOUT_MS });
  if (diagnosis.status !== 'safe') {
    const why = diagnosis.status === 'vulnerable' ? `it can backtrack catastrophically (${diagnosis.complexity.type} time) on input such as `
      + `${JSON.stringify(diagnosis.attack.pattern)}` : 'its running time could not be shown to be linear';
    throw validationError(`The regular expression is refused: ${why}`, field,
      'Avoid nested or adjacent repetitions of what can match the same text (such as (a+)+ or \\d+\\s*\\d+); '
        + 'description_contains often does the job');
  }
}

/**
 * The rule's bank account (when it names one) and counter account exist and fit: a posting
 * counter account in the bank account's currency, since an entry has one currency. A rule for every
 * account suggests only for lines of accounts in its counter account's currency (suggestions.ts).
 */
async function checkAccounts(reads: LedgerReads, accountId: string | null | undefined, counterAccountId: string | undefined): Promise<void> {
  const bank = accountId !== undefined && accountId !== null ? await bankAccount(reads, accountId) : undefined;
  if (counterAccountId !== undefined) {
    const counter = await reads.getAccount(counterAccountId);
    if (!counter) throw notFound('Account', counterAccountId, 'counter_account_id');
    if (counter.has_subledger) {
      throw validationError(`Account ${counter.account_number} ${counter.name} is a control account`, 'counter_account_id',
        'Name one of its sub-accounts: entries post to posting accounts only');
    }
    if (bank !== undefined && bank.currency_id !== counter.currency_id) {
      throw validationError(`Account ${counter.account_number} ${counter.name} is in another currency than bank account ${bank.account_number}`,
        'counter_account_id', 'Name a counter account in the bank account\'s currency: an entry has one currency');
    }
  }
}

async function newRule(ctx: ServiceContext, input: CreateBankRuleInput): Promise<BankRule> {
  return {
    id: ctx.runtime.newId(), name: input.name, priority: input.priority ?? DEFAULT_PRIORITY, account_id: input.account_id ?? null,
    match: await ruleMatchOf(input.match), counter_account_id: input.counter_account_id, description: input.description ?? null,
    created_at: ctx.now(),
  };
}

export async function createBankRule(ctx: ServiceContext, actor: Actor, input: CreateBankRuleInput): Promise<Work<BankRuleView>> {
  const rule = await newRule(ctx, input);
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
    await checkAccounts(tx, rule.account_id, rule.counter_account_id);
    await tx.insertBankRule(rule);
    const view = bankRuleView(rule);
    await recordAudit(ctx, tx, confirmed, { action: 'bank_rule.create', target_type: 'bank_rule', target_id: rule.id,
      changes: initialValues(view, RULE_FIELDS) }, { occurredAt: rule.created_at });
    return view;
  };
}

export async function updateBankRule(ctx: ServiceContext, actor: Actor, id: string, input: UpdateBankRuleInput): Promise<Work<BankRuleView>> {
  const match = input.match === undefined ? undefined : await ruleMatchOf(input.match);
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
    const before = await tx.getBankRule(id);
    if (!before) throw notFound('Bank rule', id);
    await checkAccounts(tx, input.account_id === undefined ? before.account_id : input.account_id,
      input.counter_account_id ?? before.counter_account_id);
    const changes = { name: input.name, priority: input.priority, account_id: input.account_id, match, counter_account_id: input.counter_account_id,
      description: input.description };
    await tx.updateBankRule(id, changes);
    const after = (await tx.getBankRule(id))!;
    await recordAudit(ctx, tx, confirmed, { action: 'bank_rule.update', target_type: 'bank_rule', target_id: id,
      changes: fieldChanges(bankRuleView(before), bankRuleView(after), RULE_FIELDS) });
    return bankRuleView(after);
  };
}

export function deleteBankRule(ctx: ServiceContext, actor: Actor, id: string): Work<BankRuleView> {
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'bank:write');
    const rule = await tx.getBankRule(id);
    if (!rule) throw notFound('Bank rule', id);
    await tx.deleteBankRule(id);
    const view = bankRuleView(rule);
    await recordAudit(ctx, tx, confirmed, { action: 'bank_rule.delete', target_type: 'bank_rule', target_id: id,
      changes: Object.fromEntries(RULE_FIELDS.map((field) => [field, { old: view[field], new: null }])) });
    return view;
  };
}

export async function getBankRule(ctx: ServiceContext, id: string): Promise<BankRuleView> {
  const rule = await ctx.store.getBankRule(id);
  if (!rule) throw notFound('Bank rule', id);
  return bankRuleView(rule);
}

/** In the order they apply: priority, then creation. Rules are few: they are paged from the whole list. */
export async function listBankRules(ctx: ServiceContext, input: PageInput): Promise<Page<BankRuleView>> {
  const rules = await ctx.store.allBankRules();
  const request = ctx.pageRequest('bank-rules', input);
  // Keyset on (priority, created_at, id), the rules' order: a rule deleted or moved between pages
  // neither restarts the walk nor repeats a row.
  const after = request.after as readonly [number, string, string] | undefined;
  const rest = after === undefined ? rules : rules.filter((rule) => compareRuleKeys(ruleKey(rule), after) > 0);
  const items = rest.slice(0, request.limit);
  const next = rest.length > request.limit ? ruleKey(items[items.length - 1]!) : undefined;
  return ctx.toPage('bank-rules', { items, next }, bankRuleView);
}

function ruleKey(rule: BankRule): [number, string, string] {
  return [rule.priority, rule.created_at, rule.id];
}

function compareRuleKeys(a: readonly [number, string, string], b: readonly [number, string, string]): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0;
}

/**
 * What a rule would suggest, before it is saved: the unmatched lines (of one account, or all) it
 * matches, with its reason and the rule that suggests something for the line now. Nothing is stored.
 */
export async function previewBankRule(ctx: ServiceContext, actor: Actor, input: PreviewBankRuleInput) {
  requirePermission(actor, 'bank:write');
  const rule = await newRule(ctx, input.rule);
  const compiled = compileRule(rule);
  const limit = input.limit ?? 50;
  return ctx.store.read(async (reads) => {
    await checkAccounts(reads, rule.account_id, rule.counter_account_id);
    if (input.account_id !== undefined) await bankAccount(reads, input.account_id);
    const matches: { line: ReturnType<typeof bankLineView>; reason: string; current_suggestion_rule_id: string | null }[] = [];
    let examined = 0;
    let after: readonly (string | number)[] | undefined;
    const suggest = await suggestionsFor(ctx, reads);
    const slice = new TimeSlice();
    do {
      await slice.pause();
      const page = await reads.listBankLines({ account_id: input.account_id ?? rule.account_id ?? undefined, status: 'unmatched' },
        { limit: 500, after });
      for (const line of page.items) {
        examined += 1;
        const scale = await suggest.scaleOf(line.account_id);
        const reason = ruleReason(compiled, line, scale);
        if (reason === undefined) continue;
        const current = await suggest.suggestion(line);
        matches.push({ line: bankLineView(line, scale, current), reason, current_suggestion_rule_id: current?.rule_id ?? null });
        if (matches.length >= limit) break;
      }
      after = page.next;
    } while (after !== undefined && matches.length < limit && examined < MAX_EXAMINED);
    return { matches, examined };
  });
}

