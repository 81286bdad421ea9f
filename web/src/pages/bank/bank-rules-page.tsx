/**
 * Bank rules (`/bank/rules`): the rules in the order they apply (priority, then creation), each
 * with its conditions in words; create, edit and delete them. "Try it" shows which unmatched
 * lines a rule would suggest for, before it is saved. A refusal of the server (an expression
 * that could run away, say) is shown beside the field it names.
 */
import { type FormEvent, useState } from 'react';
import { isApiError } from '../../api/client.js';
import { bankRules } from '../../api/endpoints.js';
import type { AccountView, BankRuleView, CreateBankRuleInput, CurrencyView, RulePreviewView } from '../../api/types.js';
import { useUser } from '../../auth/auth.js';
import { AccountPicker } from '../../components/pickers.js';
import { Badge, Button, Dialog, EmptyState, ErrorNotice, InputField, Loading, PageHeader, SelectField } from '../../components/ui.js';
import { formatDate } from '../../lib/dates.js';
import { displayMinor, formatAmountInput, parseAmountInput } from '../../lib/money.js';
import { accountLabel, isPostingAccount, useAccountMap, useAccounts, useCurrencyMap } from '../../lib/reference.js';
import { toast } from '../../lib/toast.js';
import { invalidate, useApi } from '../../lib/use-api.js';
import { useSubmit } from '../../lib/use-submit.js';
import { Amount, isBankAccount } from './bank-shared.js';
import './bank.css';

/** The currency a rule's amounts are in: its bank account's, else its counter account's. */
function ruleCurrency(accountId: string | null, counterId: string, accounts: Map<string, AccountView>, currencies: Map<string, CurrencyView>) {
  const account = (accountId ? accounts.get(accountId) : undefined) ?? accounts.get(counterId);
  return account ? currencies.get(account.currency_id) : undefined;
}

/** The conditions in words: `contains "rewe" · money out · at most 500.00 EUR`. */
export function describeConditions(rule: Pick<BankRuleView, 'match'>, currency: CurrencyView | undefined): string[] {
  const parts: string[] = [];
  const { match } = rule;
  const amount = (minor: string) => `${displayMinor(minor, currency?.asset_scale ?? 0)}${currency ? ` ${currency.code}` : ''}`;
  if (match.description_contains !== undefined) parts.push(`description contains “${match.description_contains}”`);
  if (match.description_regex !== undefined) parts.push(`description matches /${match.description_regex}/`);
  if (match.direction !== undefined) parts.push(match.direction === 'in' ? 'money in' : 'money out');
  if (match.amount_min !== undefined) parts.push(`at least ${amount(match.amount_min)}`);
  if (match.amount_max !== undefined) parts.push(`at most ${amount(match.amount_max)}`);
  return parts.length > 0 ? parts : ['every line'];
}

export function BankRulesPage() {
  const { can } = useUser();
  const canWrite = can('bank:write');
  const rules = useApi('bank-rules', bankRules.all);
  const accounts = useAccountMap();
  const currencies = useCurrencyMap();
  const [editing, setEditing] = useState<BankRuleView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<BankRuleView | null>(null);

  return (
    <div className="bank-page">
      <PageHeader title="Bank rules"
        subtitle="A rule suggests how to post the bank lines it matches. The first matching rule, by priority (lower first), wins."
        actions={canWrite ? <Button variant="primary" onClick={() => setEditing('new')} data-testid="rule-new">New rule</Button> : undefined} />
      {rules.error ? <ErrorNotice error={rules.error} onRetry={rules.reload} /> : null}
      {rules.loading && !rules.data ? <Loading /> : null}
      {rules.data && rules.data.length === 0 ? (
        <EmptyState title="No rules yet">Rules turn the lines that come every month (fees, rent, subscriptions) into one click each.</EmptyState>
      ) : null}
      {rules.data && rules.data.length > 0 ? (
        <div className="card card--flush">
          <div className="table-wrap">
            <table className="table table--stack bank-rules-table" data-testid="rules-table">
              <thead>
                <tr>
                  <th scope="col" className="num">Priority</th>
                  <th scope="col">Rule</th>
                  <th scope="col">Posts to</th>
                  <th scope="col" className="hide-narrow">Bank account</th>
                  <th scope="col" className="col-actions"><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {rules.data.map((rule) => {
                  const counter = accounts.get(rule.counter_account_id);
                  const bank = rule.account_id ? accounts.get(rule.account_id) : undefined;
                  const currency = ruleCurrency(rule.account_id, rule.counter_account_id, accounts, currencies);
                  return (
                    <tr key={rule.id} data-testid="rule-row" data-rule-id={rule.id}>
                      <td className="num mono" data-testid="rule-priority">{rule.priority}</td>
                      <td className="cell-key">
                        <span className="bank-rule__name">{rule.name}</span>
                        <span className="bank-rule__conditions muted small" data-testid="rule-conditions">{describeConditions(rule, currency).join(' · ')}</span>
                        {rule.description ? <span className="muted small bank-rule__conditions">Entry description: “{rule.description}”</span> : null}
                      </td>
                      <td>{counter ? accountLabel(counter) : rule.counter_account_id}</td>
                      <td className="hide-narrow">{rule.account_id === null ? <span className="muted">All bank accounts</span> : bank ? accountLabel(bank) : rule.account_id}</td>
                      <td className="col-actions">
                        {canWrite ? (
                          <div className="row-actions">
                            <Button variant="ghost" className="button--small" onClick={() => setEditing(rule)} aria-label={`Edit ${rule.name}`} data-testid="rule-edit">Edit</Button>
                            <Button variant="ghost" className="button--small" onClick={() => setDeleting(rule)} aria-label={`Delete ${rule.name}`} data-testid="rule-delete">Delete</Button>
                          </div>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
      <Dialog open={editing !== null} title={editing === 'new' ? 'New rule' : editing ? `Edit ${editing.name}` : 'Rule'} onClose={() => setEditing(null)} wide
        data-testid="rule-dialog">
        {editing !== null ? <RuleForm rule={editing === 'new' ? null : editing} onDone={() => setEditing(null)} /> : null}
      </Dialog>
      <Dialog open={deleting !== null} title="Delete rule" onClose={() => setDeleting(null)} data-testid="rule-delete-dialog">
        {deleting ? <DeleteRule rule={deleting} onDone={() => setDeleting(null)} /> : null}
      </Dialog>
    </div>
  );
}

function DeleteRule({ rule, onDone }: { rule: BankRuleView; onDone: () => void }) {
  const { busy, error, run } = useSubmit();
  return (
    <div className="form">
      <p>Delete the rule <strong>{rule.name}</strong>? Lines it suggested for lose the suggestion (or get the next matching rule's). Entries already posted stay.</p>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button variant="danger" busy={busy} data-testid="rule-delete-confirm" onClick={() => void run(async () => {
          await bankRules.delete(rule.id);
          toast(`Rule ${rule.name} deleted`);
          invalidate();
          onDone();
        })}>Delete rule</Button>
      </div>
    </div>
  );
}

/** A field error of the rule, whichever way the server names it (`match.description_regex`, or `rule.…` from the preview). */
function ruleError(error: unknown, field: string): string | undefined {
  if (!isApiError(error) || error.field === undefined) return undefined;
  return error.field === field || error.field === `rule.${field}` ? error.message : undefined;
}

const RULE_FIELDS = ['name', 'priority', 'account_id', 'counter_account_id', 'description', 'match', 'match.description_contains', 'match.description_regex',
  'match.amount_min', 'match.amount_max', 'match.direction'];

function RuleForm({ rule, onDone }: { rule: BankRuleView | null; onDone: () => void }) {
  const { data: accountRows } = useAccounts();
  const accounts = useAccountMap();
  const currencies = useCurrencyMap();
  const [name, setName] = useState(rule?.name ?? '');
  const [priority, setPriority] = useState(String(rule?.priority ?? 100));
  const [accountId, setAccountId] = useState(rule?.account_id ?? '');
  const [contains, setContains] = useState(rule?.match.description_contains ?? '');
  const [regex, setRegex] = useState(rule?.match.description_regex ?? '');
  const [direction, setDirection] = useState<'' | 'in' | 'out'>(rule?.match.direction ?? '');
  const [counterId, setCounterId] = useState(rule?.counter_account_id ?? '');
  const [description, setDescription] = useState(rule?.description ?? '');
  const currency = ruleCurrency(accountId || null, counterId, accounts, currencies);
  const initialAmount = (minor: string | undefined) => (minor === undefined || !currency ? '' : formatAmountInput(BigInt(minor), currency.asset_scale));
  const [minText, setMinText] = useState(() => initialAmount(rule?.match.amount_min));
  const [maxText, setMaxText] = useState(() => initialAmount(rule?.match.amount_max));
  const [preview, setPreview] = useState<RulePreviewView | null>(null);
  const save = useSubmit();
  const trial = useSubmit();

  const scale = currency?.asset_scale ?? 2;
  const options = currency ? { currency: { code: currency.code, symbol: currency.symbol } } : {};
  const min = parseAmountInput(minText, scale, options);
  const max = parseAmountInput(maxText, scale, options);
  const localErrors = {
    priority: /^-?\d+$/.test(priority.trim()) ? undefined : 'A whole number; lower runs first',
    min: min.ok ? undefined : min.message,
    max: max.ok ? undefined : max.message,
    counter: counterId ? undefined : 'Choose the account the lines are posted to',
  };
  const valid = !localErrors.priority && !localErrors.min && !localErrors.max;

  const body = (): CreateBankRuleInput => {
    const match: CreateBankRuleInput['match'] = {};
    if (contains.trim()) match.description_contains = contains.trim();
    if (regex.trim()) match.description_regex = regex.trim();
    if (min.ok && min.minor !== null) match.amount_min = min.minor.toString();
    if (max.ok && max.minor !== null) match.amount_max = max.minor.toString();
    if (direction) match.direction = direction;
    return {
      name: name.trim() || 'Untitled rule', priority: Number(priority.trim()), account_id: accountId || null, match, counter_account_id: counterId,
      description: description.trim() || null,
    };
  };

  const tryIt = () => {
    if (!valid || !counterId) return;
    void trial.run(async () => {
      setPreview(null);
      setPreview(await bankRules.preview({ rule: body(), ...(accountId ? { account_id: accountId } : {}), limit: 50 }));
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || !counterId || !name.trim()) return;
    void save.run(async () => {
      const input = body();
      if (rule) await bankRules.update(rule.id, input);
      else await bankRules.create(input);
      toast(rule ? `Rule ${input.name} saved` : `Rule ${input.name} created`);
      invalidate();
      onDone();
    });
  };

  const error = save.error ?? trial.error;
  const bankAccounts = (accountRows ?? []).filter(isBankAccount);
  return (
    <form className="form" onSubmit={submit} data-testid="rule-form">
      <div className="form-row">
        <InputField label="Name" required value={name} maxLength={200} onChange={(event) => setName(event.target.value)} autoFocus
          error={ruleError(error, 'name')} data-testid="rule-name" />
        <InputField label="Priority" value={priority} inputMode="numeric" onChange={(event) => setPriority(event.target.value)}
          hint="Lower runs first" error={localErrors.priority ?? ruleError(error, 'priority')} data-testid="rule-priority-input" />
        <SelectField label="Bank account" value={accountId} onChange={(event) => setAccountId(event.target.value)} error={ruleError(error, 'account_id')}
          data-testid="rule-account">
          <option value="">All bank accounts</option>
          {bankAccounts.map((account) => <option key={account.id} value={account.id}>{accountLabel(account)}</option>)}
        </SelectField>
      </div>
      <fieldset className="bank-rule-conditions">
        <legend className="field__label">When a line… (every condition given must hold; text ignores case)</legend>
        <div className="form-row">
          <InputField label="Description contains" value={contains} maxLength={200} onChange={(event) => setContains(event.target.value)}
            error={ruleError(error, 'match.description_contains')} data-testid="rule-contains" />
          <InputField label="Description matches (regular expression)" value={regex} maxLength={200} spellCheck={false} className="field--mono"
            placeholder="e.g. (rewe|edeka|aldi)" onChange={(event) => setRegex(event.target.value)}
            error={ruleError(error, 'match.description_regex')} data-testid="rule-regex" />
        </div>
        <div className="form-row">
          <SelectField label="Direction" value={direction} onChange={(event) => setDirection(event.target.value as '' | 'in' | 'out')}
            error={ruleError(error, 'match.direction')} data-testid="rule-direction">
            <option value="">In or out</option>
            <option value="in">Money in</option>
            <option value="out">Money out</option>
          </SelectField>
          <InputField label={`At least${currency ? ` (${currency.code})` : ''}`} value={minText} inputMode="decimal" className="field--amount"
            onChange={(event) => setMinText(event.target.value)} hint="The amount without its sign"
            error={localErrors.min ?? ruleError(error, 'match.amount_min')} data-testid="rule-min" />
          <InputField label={`At most${currency ? ` (${currency.code})` : ''}`} value={maxText} inputMode="decimal" className="field--amount"
            onChange={(event) => setMaxText(event.target.value)} error={localErrors.max ?? ruleError(error, 'match.amount_max')} data-testid="rule-max" />
        </div>
      </fieldset>
      <div className="form-row">
        <AccountPicker label="…post it to" accounts={accountRows} value={counterId} onChange={setCounterId}
          filter={(account) => isPostingAccount(account) && account.id !== accountId} error={ruleError(error, 'counter_account_id')} data-testid="rule-counter" />
        <InputField label="Entry description (optional)" value={description} maxLength={1000} placeholder="The bank line's description"
          onChange={(event) => setDescription(event.target.value)} error={ruleError(error, 'description')} data-testid="rule-description" />
      </div>
      {error && !(isApiError(error) && error.field !== undefined && (RULE_FIELDS.includes(error.field) || RULE_FIELDS.includes(error.field.replace(/^rule\./, ''))))
        ? <ErrorNotice error={error} /> : null}
      {preview ? <RulePreview preview={preview} ruleId={rule?.id} accounts={accounts} currencies={currencies} /> : null}
      <div className="form-actions">
        {!counterId ? <p className="form-actions__reason muted small">{localErrors.counter} to try or save the rule.</p> : null}
        <Button onClick={onDone}>Cancel</Button>
        <Button onClick={tryIt} busy={trial.busy} disabled={!valid || !counterId} data-testid="rule-try">Try it</Button>
        <Button type="submit" variant="primary" busy={save.busy} disabled={!valid || !counterId || !name.trim()} data-testid="rule-save">
          {rule ? 'Save rule' : 'Create rule'}
        </Button>
      </div>
    </form>
  );
}

function RulePreview({ preview, ruleId, accounts, currencies }: { preview: RulePreviewView; ruleId: string | undefined; accounts: Map<string, AccountView>; currencies: Map<string, CurrencyView> }) {
  return (
    <div className="bank-rule-preview" data-testid="rule-preview" aria-live="polite">
      <p className="field__label" data-testid="rule-preview-summary">
        {preview.matches.length === 0 ? 'No unmatched line matches this rule' : `It would suggest for ${preview.matches.length} line${preview.matches.length === 1 ? '' : 's'}`}
        <span className="muted"> (of {preview.examined} unmatched line{preview.examined === 1 ? '' : 's'} looked at)</span>
      </p>
      {preview.matches.length > 0 ? (
        <div className="table-wrap">
          <table className="table table--compact">
            <thead>
              <tr><th scope="col" className="col-date hide-narrow">Date</th><th scope="col">Line</th><th scope="col" className="num">Amount</th></tr>
            </thead>
            <tbody>
              {preview.matches.map(({ line, reason, current_suggestion_rule_id }) => {
                const currency = currencies.get(accounts.get(line.account_id)?.currency_id ?? '');
                return (
                  <tr key={line.id} data-testid="rule-preview-row">
                    <td className="nowrap hide-narrow">{formatDate(line.posted_date)}</td>
                    <td>
                      <span className="show-narrow muted small">{formatDate(line.posted_date)}<br /></span>
                      {line.description}
                      <span className="muted small bank-rule__conditions">{reason}</span>
                      {current_suggestion_rule_id !== null && current_suggestion_rule_id !== ruleId && line.suggestion ? (
                        <span className="small bank-rule__conditions"><Badge tone="warn">now</Badge> suggested by the rule “{line.suggestion.rule_name}”</span>
                      ) : null}
                    </td>
                    <td className="num"><Amount value={line.amount} currency={currency} /></td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
