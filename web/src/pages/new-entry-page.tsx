/**
 * The new-entry form. Amounts are typed in major units ("250.00") and converted to minor-unit
 * strings exactly (bigint, through the server's own parseMajorUnits); the running difference is
 * shown, and the form cannot be submitted while it is not zero. Errors the API reports for a
 * field (`lines[1].credit_amount`) are shown beside that field.
 */
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { isApiError } from '../api/client.js';
import { journalEntries } from '../api/endpoints.js';
import type { AccountView, CreateEntryInput, CurrencyView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { AccountSelect } from '../components/pickers.js';
import { Button, Card, describeCode, ErrorNotice, InputField, Notice, PageHeader } from '../components/ui.js';
import { formatDate, todayIso } from '../lib/dates.js';
import { randomId } from '../lib/ids.js';
import { absolute, displayMinor, parseAmountInput } from '../lib/money.js';
import { isPostingAccount, periodCovering, useAccounts, useCurrencies, usePeriods } from '../lib/reference.js';
import { Link, navigate, useSearchParams } from '../lib/router.js';
import { toast } from '../lib/toast.js';
import { invalidate } from '../lib/use-api.js';

interface LineState {
  key: number;
  accountId: string;
  debit: string;
  credit: string;
  description: string;
}

interface LineCheck {
  debit: bigint | null;
  credit: bigint | null;
  debitError?: string;
  creditError?: string;
  accountError?: string;
  lineError?: string;
  blank: boolean;
}

let nextLineKey = 1;
function newLine(accountId = ''): LineState {
  const key = nextLineKey;
  nextLineKey += 1;
  return { key, accountId, debit: '', credit: '', description: '' };
}

const ENTRY_FIELDS = ['entry_date', 'description', 'reference'];

export function NewEntryPage() {
  const { can } = useUser();
  const search = useSearchParams();
  const accounts = useAccounts();
  const currencies = useCurrencies();
  const periods = usePeriods();
  const [date, setDate] = useState(todayIso());
  const [description, setDescription] = useState('');
  const [reference, setReference] = useState('');
  const [lines, setLines] = useState<LineState[]>(() => [newLine(search.get('account') ?? ''), newLine()]);
  const [error, setError] = useState<unknown>();
  /** Which UI line each index of the last submitted body came from, to place `lines[i]` errors. */
  const [sentKeys, setSentKeys] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const idempotency = useRef<{ body: string; key: string } | null>(null);

  const accountById = useMemo(() => new Map((accounts.data ?? []).map((account) => [account.id, account])), [accounts.data]);
  // The first line with an account sets the entry's currency; the other lines offer only its accounts.
  const currencyLine = lines.find((line) => accountById.has(line.accountId));
  const firstAccount: AccountView | undefined = currencyLine ? accountById.get(currencyLine.accountId) : undefined;
  const currency: CurrencyView | undefined = currencies.data?.find((row) => row.id === firstAccount?.currency_id)
    ?? (currencies.data?.length === 1 ? currencies.data[0] : undefined);
  const scale = currency?.asset_scale ?? 2;
  const period = periodCovering(periods.data, date);

  const checks: LineCheck[] = lines.map((line) => {
    const debit = parseAmountInput(line.debit, scale);
    const credit = parseAmountInput(line.credit, scale);
    const account = accountById.get(line.accountId);
    const check: LineCheck = {
      debit: debit.ok ? debit.minor : null, credit: credit.ok ? credit.minor : null,
      blank: !line.accountId && !line.debit.trim() && !line.credit.trim() && !line.description.trim(),
    };
    if (!debit.ok) check.debitError = debit.message;
    if (!credit.ok) check.creditError = credit.message;
    if (check.debit === 0n) check.debitError = 'Enter an amount greater than zero';
    if (check.credit === 0n) check.creditError = 'Enter an amount greater than zero';
    if (check.debit !== null && check.credit !== null && check.debit > 0n && check.credit > 0n) check.lineError = 'A line takes either a debit or a credit, not both';
    if (account && currency && account.currency_id !== currency.id) check.accountError = `All lines must be in ${currency.code}`;
    return check;
  });

  const debitTotal = checks.reduce((sum, check) => sum + (check.debit ?? 0n), 0n);
  const creditTotal = checks.reduce((sum, check) => sum + (check.credit ?? 0n), 0n);
  const difference = debitTotal - creditTotal;
  const usedLines = lines.filter((_, index) => !checks[index]!.blank);
  const problems: string[] = [];
  if (!description.trim()) problems.push('Add a description');
  if (!date) problems.push('Choose a date');
  if (usedLines.length < 2) problems.push('An entry needs at least two lines');
  lines.forEach((line, index) => {
    const check = checks[index]!;
    if (check.blank) return;
    if (!line.accountId) problems.push(`Line ${index + 1}: choose an account`);
    if (check.debitError || check.creditError || check.lineError || check.accountError) problems.push(`Line ${index + 1}: fix the amount or account`);
    else if ((check.debit ?? 0n) === 0n && (check.credit ?? 0n) === 0n) problems.push(`Line ${index + 1}: enter a debit or a credit`);
  });
  if (difference !== 0n) problems.push('Debits and credits must be equal');
  const canSubmit = problems.length === 0 && !busy;

  /** Once the user edits the field the server complained about, its message is stale. */
  const clearErrorFor = (field: string) => {
    if (isApiError(error) && error.field !== undefined && (error.field === field || error.field.startsWith(`${field}.`) || error.field.startsWith(`${field}[`))) {
      setError(undefined);
    }
  };

  const updateLine = (key: number, changes: Partial<LineState>) => {
    const index = sentKeys.indexOf(key);
    if (index >= 0) clearErrorFor(`lines[${index}]`);
    clearErrorFor('lines');
    setLines((previous) => previous.map((line) => (line.key === key ? { ...line, ...changes } : line)));
  };

  /** Rewrites a valid amount in full form on leaving the field ("1250.5" becomes "1,250.50"). */
  const normalise = (key: number, side: 'debit' | 'credit', text: string) => {
    const parsed = parseAmountInput(text, scale);
    if (parsed.ok && parsed.minor !== null && parsed.minor > 0n) updateLine(key, { [side]: displayMinor(parsed.minor, scale) });
  };

  /** Puts the amount that balances the entry on the given line. */
  const balanceOn = (key: number) => {
    const index = lines.findIndex((line) => line.key === key);
    const check = checks[index]!;
    const others = difference - ((check.debit ?? 0n) - (check.credit ?? 0n));
    if (others === 0n) return;
    const amount = displayMinor(absolute(others), scale);
    updateLine(key, others > 0n ? { credit: amount, debit: '' } : { debit: amount, credit: '' });
  };

  const serverError = (field: string) => (isApiError(error) && error.field === field ? error.message : undefined);
  const lineServerError = (key: number, part: string): string | undefined => {
    if (!isApiError(error) || !error.field) return undefined;
    const index = sentKeys.indexOf(key);
    if (index < 0) return undefined;
    return error.field === `lines[${index}]${part}` ? error.message : undefined;
  };
  const errorShownInline = isApiError(error) && error.field !== undefined
    && (ENTRY_FIELDS.includes(error.field) || /^lines\[\d+\](\.(account_id|debit_amount|credit_amount|description))?$/.test(error.field));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    const kept = lines.filter((_, index) => !checks[index]!.blank);
    const body: CreateEntryInput = {
      entry_date: date,
      description: description.trim(),
      ...(reference.trim() ? { reference: reference.trim() } : {}),
      lines: kept.map((line) => {
        const check = checks[lines.indexOf(line)]!;
        return {
          account_id: line.accountId,
          ...(check.debit !== null && check.debit > 0n ? { debit_amount: check.debit.toString() } : { credit_amount: (check.credit ?? 0n).toString() }),
          ...(line.description.trim() ? { description: line.description.trim() } : {}),
        };
      }),
    };
    const bodyText = JSON.stringify(body);
    if (idempotency.current?.body !== bodyText) idempotency.current = { body: bodyText, key: randomId() };
    setSentKeys(kept.map((line) => line.key));
    setBusy(true);
    setError(undefined);
    try {
      const created = await journalEntries.create(body, idempotency.current.key);
      invalidate();
      toast('Entry posted');
      navigate(`/journal/${created.id}`);
    } catch (caught) {
      // Only a request that may not have arrived is retried under the same key; after a definite
      // answer, a retry is a new request (the condition may have been fixed meanwhile).
      if (!(isApiError(caught) && caught.status === 0)) idempotency.current = null;
      setError(caught);
      setBusy(false);
    }
  };

  if (!can('journals:create')) {
    return (
      <>
        <PageHeader title="New journal entry" />
        <Notice tone="warning" title="You cannot post entries">Posting needs the journals:create permission. Ask an administrator.</Notice>
      </>
    );
  }

  return (
    <>
      <nav className="breadcrumbs" aria-label="Breadcrumb"><Link to="/journal">Journal entries</Link></nav>
      <PageHeader title="New journal entry" subtitle="Amounts in major units, e.g. 250.00. Debits must equal credits." />
      <form className="form" onSubmit={(event) => void submit(event)} data-testid="entry-form" noValidate>
        <Card>
          <div className="form-row form-row--entry">
            <InputField label="Date" type="date" required value={date} onChange={(event) => { setDate(event.target.value); clearErrorFor('entry_date'); }}
              error={serverError('entry_date')} data-testid="entry-date"
              hint={periods.data ? (period ? `${period.name}${period.status === 'closed' ? ' (closed)' : ''}` : 'No period covers this date') : undefined} />
            <InputField label="Description" required value={description} onChange={(event) => { setDescription(event.target.value); clearErrorFor('description'); }} maxLength={1000}
              error={serverError('description')} className="field--grow" data-testid="entry-description" />
            <InputField label="Reference" value={reference} onChange={(event) => { setReference(event.target.value); clearErrorFor('reference'); }} maxLength={200}
              placeholder="Invoice no." error={serverError('reference')} data-testid="entry-reference" />
          </div>
          {periods.data && period?.status === 'closed' ? (
            <Notice tone="warning">{period.name} is closed ({formatDate(period.start_date)} – {formatDate(period.end_date)}); choose a date in an open period.</Notice>
          ) : null}
        </Card>

        <Card title={`Lines${currency ? ` · ${currency.code}` : ''}`}>
          <div className="entry-lines" data-testid="entry-lines-editor">
            <div className="entry-lines__head" aria-hidden="true">
              <span>Account</span><span>Line description</span><span className="num">Debit</span><span className="num">Credit</span><span />
            </div>
            {lines.map((line, index) => {
              const check = checks[index]!;
              return (
                <fieldset key={line.key} className="entry-line" data-testid={`entry-line-${index}`}>
                  <legend className="visually-hidden">Line {index + 1}</legend>
                  <AccountSelect label={<span className="entry-line__label">Account, line {index + 1}</span>} accounts={accounts.data}
                    value={line.accountId} onChange={(value) => updateLine(line.key, { accountId: value })}
                    filter={(account) => isPostingAccount(account)
                      && (!firstAccount || line.key === currencyLine?.key || account.currency_id === firstAccount.currency_id)}
                    error={check.accountError ?? lineServerError(line.key, '.account_id')} data-testid={`line-${index}-account`} />
                  <InputField label={<span className="entry-line__label">Description, line {index + 1}</span>} value={line.description}
                    onChange={(event) => updateLine(line.key, { description: event.target.value })} maxLength={1000}
                    error={lineServerError(line.key, '.description')} data-testid={`line-${index}-description`} />
                  <InputField label={<span className="entry-line__label">Debit, line {index + 1}</span>} inputMode="decimal" autoComplete="off"
                    className="field--amount" value={line.debit} placeholder="0.00"
                    onChange={(event) => updateLine(line.key, { debit: event.target.value, ...(event.target.value ? { credit: '' } : {}) })}
                    onBlur={(event) => normalise(line.key, 'debit', event.target.value)}
                    error={check.debitError ?? lineServerError(line.key, '.debit_amount')} data-testid={`line-${index}-debit`} />
                  <InputField label={<span className="entry-line__label">Credit, line {index + 1}</span>} inputMode="decimal" autoComplete="off"
                    className="field--amount" value={line.credit} placeholder="0.00"
                    onChange={(event) => updateLine(line.key, { credit: event.target.value, ...(event.target.value ? { debit: '' } : {}) })}
                    onBlur={(event) => normalise(line.key, 'credit', event.target.value)}
                    error={check.creditError ?? lineServerError(line.key, '.credit_amount')} data-testid={`line-${index}-credit`} />
                  <div className="entry-line__actions">
                    {difference !== 0n && currency ? (
                      <Button variant="ghost" className="button--small" onClick={() => balanceOn(line.key)} title="Put the remaining difference on this line"
                        aria-label={`Balance the entry on line ${index + 1}`} data-testid={`line-${index}-balance`}>=</Button>
                    ) : null}
                    <Button variant="ghost" className="button--small" onClick={() => setLines((previous) => previous.filter((row) => row.key !== line.key))}
                      disabled={lines.length <= 2} aria-label={`Remove line ${index + 1}`} data-testid={`line-${index}-remove`}>×</Button>
                  </div>
                  {check.lineError ?? lineServerError(line.key, '') ? (
                    <p className="field__error entry-line__error" role="alert">{check.lineError ?? lineServerError(line.key, '')}</p>
                  ) : null}
                </fieldset>
              );
            })}
            <div className="entry-lines__foot">
              <Button onClick={() => setLines((previous) => [...previous, newLine()])} data-testid="entry-add-line">+ Add line</Button>
              <dl className="entry-totals" data-testid="entry-totals">
                <div><dt>Debits</dt><dd data-testid="entry-total-debit">{displayMinor(debitTotal, scale)}</dd></div>
                <div><dt>Credits</dt><dd data-testid="entry-total-credit">{displayMinor(creditTotal, scale)}</dd></div>
                <div className={difference !== 0n ? 'entry-totals__unbalanced' : debitTotal > 0n ? 'entry-totals__balanced' : ''}>
                  <dt>Difference</dt>
                  <dd data-testid="entry-difference" data-balanced={difference === 0n && debitTotal > 0n} aria-live="polite">
                    {displayMinor(absolute(difference), scale)}
                    {difference > 0n ? ' more debit' : difference < 0n ? ' more credit' : debitTotal > 0n ? ' ✓ balanced' : ''}
                  </dd>
                </div>
              </dl>
            </div>
            {serverError('lines') ? <p className="field__error" role="alert">{serverError('lines')}</p> : null}
          </div>
        </Card>

        {error && !errorShownInline ? <ErrorNotice error={error} /> : null}
        {error && errorShownInline && isApiError(error) ? (
          <Notice tone="warning" title={describeCode(error.code)} data-testid="entry-error-summary">The entry was not posted; see the highlighted field.</Notice>
        ) : null}
        <div className="form-actions form-actions--sticky">
          {problems.length > 0 ? <p className="muted form-actions__reason" data-testid="entry-blocker">{problems[0]}</p> : null}
          <Button onClick={() => navigate('/journal')}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={!canSubmit} busy={busy} data-testid="entry-submit">Post entry</Button>
        </div>
      </form>
    </>
  );
}
