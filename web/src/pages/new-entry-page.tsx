/**
 * The new-entry form. Amounts are typed in major units in the browser's own number format
 * ("1,234.56" in en-US, "1.234,56" in de-DE, a currency sign allowed) and read exactly into
 * minor units (bigint, lib/money.ts), or refused beside the field with the reason. The running
 * difference is shown, and the form cannot be submitted while it is not zero. Errors the API
 * reports for a field (`lines[1].credit_amount`) are shown beside that field.
 *
 * "Post entry" shows the posted entry; "Post and new" stays here with an empty form for the
 * next one (the date kept); Ctrl+Enter (Cmd+Enter on a Mac) is "Post entry" from anywhere in the
 * form. `?copy=<entry id>` starts from a copy of a standard entry: its description and lines, no
 * reference, a date in an open period (lib/copy-date.ts); nothing is posted until the user posts it.
 *
 * The action bar sticks to the bottom of the window, and the totals stick just above it, so that
 * neither the buttons nor the difference ever scroll out of sight or under one another.
 */
import { type FormEvent, type KeyboardEvent, type ReactNode, useMemo, useRef, useState } from 'react';
import { isApiError } from '../api/client.js';
import { journalEntries } from '../api/endpoints.js';
import type { AccountView, CreateEntryInput, CurrencyView, EntryView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { AccountPicker } from '../components/pickers.js';
import { Button, Card, describeCode, ErrorNotice, InputField, Loading, Notice, PageHeader } from '../components/ui.js';
import { copyDate, type CopyDateReason } from '../lib/copy-date.js';
import { formatDate, todayIso } from '../lib/dates.js';
import { randomId } from '../lib/ids.js';
import { absolute, formatAmountInput, parseAmountInput } from '../lib/money.js';
import { isPostingAccount, periodCovering, useAccounts, useCurrencies, usePeriods, useSettings } from '../lib/reference.js';
import { Link, navigate, useSearchParams } from '../lib/router.js';
import { useStickyBarHeight } from '../lib/sticky-bar.js';
import { toast } from '../lib/toast.js';
import { invalidate, useApi } from '../lib/use-api.js';

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
function newLine(fields: Partial<Omit<LineState, 'key'>> = {}): LineState {
  const key = nextLineKey;
  nextLineKey += 1;
  return { key, accountId: '', debit: '', credit: '', description: '', ...fields };
}

/** What the form starts from: empty, or a copy of an entry. */
interface Draft {
  date: string;
  description: string;
  lines: LineState[];
}

function emptyDraft(date: string, accountId = ''): Draft {
  return { date, description: '', lines: [newLine({ accountId }), newLine()] };
}

/**
 * A copy of `entry` to post again: description, accounts, amounts (written in the browser's
 * number format), sides and line descriptions. The reference is left out, since references are
 * usually unique invoice numbers, and the date is `date` (chosen by `copyDate`).
 */
function draftFromEntry(entry: EntryView, scale: number, date: string): Draft {
  const amount = (minor: string) => (minor === '0' ? '' : formatAmountInput(BigInt(minor), scale));
  return {
    date,
    description: entry.description,
    lines: entry.lines.map((line) => newLine({
      accountId: line.account_id, debit: amount(line.debit_amount), credit: amount(line.credit_amount), description: line.description ?? '',
    })),
  };
}

/** Which entries "Copy entry" offers: closing entries come from a close, reversals belong to their original. */
export function canCopyEntry(entry: Pick<EntryView, 'entry_type'>): boolean {
  return entry.entry_type === 'standard';
}

const ENTRY_FIELDS = ['entry_date', 'description', 'reference', 'override_reason'];

/**
 * What the form says about the lock date (settings' `lock_date`) when the entry's date is on or
 * before it: posting is refused unless the poster holds periods:override and gives a reason.
 * Used by the reverse dialog too.
 */
export function LockNotice({ lockDate, canOverride, what = 'This entry' }: { lockDate: string; canOverride: boolean; what?: string }) {
  return (
    <Notice tone="warning" title={`The books are locked through ${formatDate(lockDate)}`} data-testid="entry-lock-notice">
      {canOverride
        ? `${what} is dated on or before the lock date. You hold periods:override: give the reason it belongs there; the entry and the audit log keep it.`
        : `${what} is dated on or before the lock date, so it will be refused. Date it after ${formatDate(lockDate)}, or ask someone with the periods:override permission (or an administrator) to post it.`}
    </Notice>
  );
}

/** True when `date` is on or before the lock date (ISO dates compare as text). */
export function isLocked(date: string, lockDate: string | null | undefined): lockDate is string {
  return Boolean(lockDate) && date !== '' && date <= lockDate!;
}

const PAGE_TITLE = 'New journal entry';

export function NewEntryPage() {
  const { can } = useUser();
  const search = useSearchParams();
  const copyId = search.get('copy');
  /** The entry "Post and new" last posted, and the date to keep; a new `round` starts a fresh form. */
  const [lastPosted, setLastPosted] = useState<{ entry: EntryView; date: string; round: number } | null>(null);

  if (!can('journals:create')) {
    return (
      <>
        <PageHeader title={PAGE_TITLE} />
        <Notice tone="warning" title="You cannot post entries">Posting needs the journals:create permission. Ask an administrator.</Notice>
      </>
    );
  }

  const postedAndNew = (entry: EntryView, date: string) => {
    setLastPosted((previous) => ({ entry, date, round: (previous?.round ?? 0) + 1 }));
    if (copyId !== null) navigate('/journal/new', { replace: true });
  };
  const confirmation = lastPosted ? (
    <Notice tone="success" data-testid="entry-posted">
      Posted “{lastPosted.entry.description}” on {formatDate(lastPosted.entry.entry_date)}.{' '}
      <Link to={`/journal/${lastPosted.entry.id}`} data-testid="entry-posted-link">View the entry</Link>
    </Notice>
  ) : null;

  if (copyId !== null) return <CopiedEntryForm key={copyId} entryId={copyId} onPostedAndNew={postedAndNew} />;
  return (
    <EntryForm key={`new-${lastPosted?.round ?? 0}`} initial={emptyDraft(lastPosted?.date ?? todayIso(), search.get('account') ?? '')}
      focusFirstField={lastPosted !== null} confirmation={confirmation} onPostedAndNew={postedAndNew} />
  );
}

/** Loads the entry to copy, then opens the form on its copy. */
function CopiedEntryForm({ entryId, onPostedAndNew }: { entryId: string; onPostedAndNew: (entry: EntryView, date: string) => void }) {
  const source = useApi(`entry:${entryId}`, () => journalEntries.get(entryId));
  const currencies = useCurrencies();
  const periods = usePeriods();
  // The copy is taken once: refetches after a post must not overwrite what the user has typed.
  const [draft, setDraft] = useState<(Draft & { dateReason: CopyDateReason }) | null>(null);
  const currency = currencies.data?.find((row) => row.id === source.data?.currency_id);
  // The date needs the periods; should they fail to load, today (the form then says no period is known).
  const periodRows = periods.data ?? (periods.error ? [] : undefined);
  if (draft === null && source.data && currency && periodRows && canCopyEntry(source.data)) {
    const dated = copyDate(source.data.entry_date, periodRows, todayIso());
    setDraft({ ...draftFromEntry(source.data, currency.asset_scale, dated.date), dateReason: dated.reason });
  }

  const fallback = (notice: ReactNode) => (
    <>
      <PageHeader title={PAGE_TITLE} />
      {notice}
      <p><Link to="/journal/new">Start an empty entry</Link></p>
    </>
  );
  if (draft !== null && source.data) {
    const copied = (
      <Notice tone="info" data-testid="entry-copied-from">
        A copy of <Link to={`/journal/${source.data.id}`}>“{source.data.description}”</Link> of {formatDate(source.data.entry_date)},
        {' '}<span data-testid="entry-copied-date">{COPY_DATE_TEXT[draft.dateReason]}</span>, without its reference. Nothing is posted until you post it.
      </Notice>
    );
    return <EntryForm initial={draft} confirmation={copied} onPostedAndNew={onPostedAndNew} />;
  }
  if (source.error) return fallback(<ErrorNotice error={source.error} />);
  if (currencies.error) return fallback(<ErrorNotice error={currencies.error} />);
  if (source.data && !canCopyEntry(source.data)) {
    return fallback(<Notice tone="warning" title="This entry cannot be copied">
      Only standard entries are copied: a closing entry is made by closing a period, and a reversal belongs to the entry it reverses.
    </Notice>);
  }
  return <Loading />;
}

/** Why the copy has its date (lib/copy-date.ts), in the words of the notice above the form. */
const COPY_DATE_TEXT: Record<CopyDateReason, string> = {
  today: 'dated today',
  original: 'on its own date, since no open period covers today',
  'earliest-open': 'dated the first day of the earliest open period, since its own period is closed and no open period covers today',
  'no-open-period': 'dated today, though no period is open',
};

interface EntryFormProps {
  initial: Draft;
  /** Shown above the form: what was just posted, or where a copy came from. */
  confirmation?: ReactNode;
  /** Puts the focus in the first field when the form opens (after "Post and new"). */
  focusFirstField?: boolean;
  onPostedAndNew: (entry: EntryView, date: string) => void;
}

function EntryForm({ initial, confirmation, focusFirstField = false, onPostedAndNew }: EntryFormProps) {
  const { can } = useUser();
  const settings = useSettings();
  const accounts = useAccounts();
  const currencies = useCurrencies();
  const periods = usePeriods();
  const [date, setDate] = useState(initial.date);
  const [description, setDescription] = useState(initial.description);
  const [reference, setReference] = useState('');
  const [overrideReason, setOverrideReason] = useState('');
  const [lines, setLines] = useState<LineState[]>(initial.lines);
  const [error, setError] = useState<unknown>();
  /** Which UI line each index of the last submitted body came from, to place `lines[i]` errors. */
  const [sentKeys, setSentKeys] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const idempotency = useRef<{ body: string; key: string } | null>(null);
  const actionBar = useRef<HTMLDivElement>(null);
  useStickyBarHeight(actionBar);

  const accountById = useMemo(() => new Map((accounts.data ?? []).map((account) => [account.id, account])), [accounts.data]);
  // The first line with an account sets the entry's currency; the other lines offer only its accounts.
  const currencyLine = lines.find((line) => accountById.has(line.accountId));
  const firstAccount: AccountView | undefined = currencyLine ? accountById.get(currencyLine.accountId) : undefined;
  const currency: CurrencyView | undefined = currencies.data?.find((row) => row.id === firstAccount?.currency_id)
    ?? (currencies.data?.length === 1 ? currencies.data[0] : undefined);
  const scale = currency?.asset_scale ?? 2;
  const period = periodCovering(periods.data, date);
  const lockDate = settings.data?.lock_date ?? null;
  const locked = isLocked(date, lockDate);
  const canOverride = can('periods:override');
  const amountOptions = { currency };
  const zero = formatAmountInput(0n, scale);

  const checks: LineCheck[] = lines.map((line) => {
    const debit = parseAmountInput(line.debit, scale, amountOptions);
    const credit = parseAmountInput(line.credit, scale, amountOptions);
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
    // A copied entry can name an account that has been deactivated or turned into a control account since.
    if (account && !isPostingAccount(account)) {
      check.accountError = account.has_subledger ? `${account.account_number} is a control account; choose one of its sub-accounts`
        : `${account.account_number} is inactive; choose another account`;
    }
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
  if (locked && canOverride && !overrideReason.trim()) problems.push('Give the reason for posting on or before the lock date');
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

  /** Rewrites a valid amount in full form on leaving the field ("1250.5" becomes "1,250.50" in en-US). */
  const normalise = (key: number, side: 'debit' | 'credit', text: string) => {
    const parsed = parseAmountInput(text, scale, amountOptions);
    if (parsed.ok && parsed.minor !== null && parsed.minor > 0n) updateLine(key, { [side]: formatAmountInput(parsed.minor, scale) });
  };

  /** Puts the amount that balances the entry on the given line. */
  const balanceOn = (key: number) => {
    const index = lines.findIndex((line) => line.key === key);
    const check = checks[index]!;
    const others = difference - ((check.debit ?? 0n) - (check.credit ?? 0n));
    if (others === 0n) return;
    const amount = formatAmountInput(absolute(others), scale);
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

  /** Posts the entry; then shows it (`then: 'show'`) or starts the next one on the same date (`then: 'new'`). */
  const submit = async (event: FormEvent | undefined, then: 'show' | 'new') => {
    event?.preventDefault();
    if (!canSubmit) return;
    const kept = lines.filter((_, index) => !checks[index]!.blank);
    const body: CreateEntryInput = {
      entry_date: date,
      description: description.trim(),
      ...(reference.trim() ? { reference: reference.trim() } : {}),
      ...(locked && canOverride ? { override_reason: overrideReason.trim() } : {}),
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
      if (then === 'new') onPostedAndNew(created, date);
      else navigate(`/journal/${created.id}`);
    } catch (caught) {
      // Only a request that may not have arrived is retried under the same key; after a definite
      // answer, a retry is a new request (the condition may have been fixed meanwhile).
      if (!(isApiError(caught) && caught.status === 0)) idempotency.current = null;
      setError(caught);
      setBusy(false);
    }
  };

  /** Ctrl+Enter or Cmd+Enter posts, like "Post entry", unless a field used the key (an open account list takes the account). */
  const postOnShortcut = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.defaultPrevented) return;
    event.preventDefault();
    void submit(undefined, 'show');
  };

  return (
    <>
      <nav className="breadcrumbs" aria-label="Breadcrumb"><Link to="/journal">Journal entries</Link></nav>
      <PageHeader title={PAGE_TITLE} subtitle={`Amounts in major units, e.g. ${formatAmountInput(123456n, 2)}. Debits must equal credits.`} />
      {confirmation}
      <form className="form" onSubmit={(event) => void submit(event, 'show')} onKeyDown={postOnShortcut} data-testid="entry-form" noValidate>
        <Card>
          <div className="form-row form-row--entry">
            <InputField label="Date" type="date" required value={date} onChange={(event) => { setDate(event.target.value); clearErrorFor('entry_date'); }}
              error={serverError('entry_date')} autoFocus={focusFirstField} data-testid="entry-date"
              hint={periods.data ? (period ? `${period.name}${period.status === 'closed' ? ' (closed)' : ''}` : 'No period covers this date') : undefined} />
            <InputField label="Description" required value={description} onChange={(event) => { setDescription(event.target.value); clearErrorFor('description'); }} maxLength={1000}
              error={serverError('description')} className="field--grow" data-testid="entry-description" />
            <InputField label="Reference" value={reference} onChange={(event) => { setReference(event.target.value); clearErrorFor('reference'); }} maxLength={200}
              placeholder="Invoice no." error={serverError('reference')} data-testid="entry-reference" />
          </div>
          {locked ? <LockNotice lockDate={lockDate} canOverride={canOverride} /> : null}
          {locked && canOverride ? (
            <InputField label="Override reason" required value={overrideReason} maxLength={1000}
              onChange={(event) => { setOverrideReason(event.target.value); clearErrorFor('override_reason'); }}
              hint="Why this entry belongs on or before the lock date" error={serverError('override_reason')} data-testid="entry-override-reason" />
          ) : null}
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
                  <AccountPicker label={<span className="entry-line__label">Account, line {index + 1}</span>} accounts={accounts.data}
                    value={line.accountId} onChange={(value) => updateLine(line.key, { accountId: value })}
                    filter={(account) => isPostingAccount(account)
                      && (!firstAccount || line.key === currencyLine?.key || account.currency_id === firstAccount.currency_id)}
                    error={check.accountError ?? lineServerError(line.key, '.account_id')} data-testid={`line-${index}-account`} />
                  <InputField label={<span className="entry-line__label">Description, line {index + 1}</span>} value={line.description}
                    onChange={(event) => updateLine(line.key, { description: event.target.value })} maxLength={1000}
                    error={lineServerError(line.key, '.description')} data-testid={`line-${index}-description`} />
                  <InputField label={<span className="entry-line__label">Debit, line {index + 1}</span>} inputMode="decimal" autoComplete="off"
                    className="field--amount" value={line.debit} placeholder={zero}
                    onChange={(event) => updateLine(line.key, { debit: event.target.value, ...(event.target.value ? { credit: '' } : {}) })}
                    onBlur={(event) => normalise(line.key, 'debit', event.target.value)}
                    error={check.debitError ?? lineServerError(line.key, '.debit_amount')} data-testid={`line-${index}-debit`} />
                  <InputField label={<span className="entry-line__label">Credit, line {index + 1}</span>} inputMode="decimal" autoComplete="off"
                    className="field--amount" value={line.credit} placeholder={zero}
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
                <div><dt>Debits</dt><dd data-testid="entry-total-debit">{formatAmountInput(debitTotal, scale)}</dd></div>
                <div><dt>Credits</dt><dd data-testid="entry-total-credit">{formatAmountInput(creditTotal, scale)}</dd></div>
                <div className={difference !== 0n ? 'entry-totals__unbalanced' : debitTotal > 0n ? 'entry-totals__balanced' : ''}>
                  <dt>Difference</dt>
                  <dd data-testid="entry-difference" data-balanced={difference === 0n && debitTotal > 0n} aria-live="polite">
                    {formatAmountInput(absolute(difference), scale)}
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
        <div className="form-actions form-actions--sticky" ref={actionBar}>
          {problems.length > 0 ? <p className="muted form-actions__reason" data-testid="entry-blocker">{problems[0]}</p> : null}
          <Button onClick={() => navigate('/journal')}>Cancel</Button>
          <Button disabled={!canSubmit} busy={busy} onClick={() => void submit(undefined, 'new')} data-testid="entry-submit-new"
            title="Post this entry and start the next one on the same date">Post and new</Button>
          <Button type="submit" variant="primary" disabled={!canSubmit} busy={busy} data-testid="entry-submit"
            title="Post this entry (Ctrl+Enter, or Cmd+Enter on a Mac)" aria-keyshortcuts="Control+Enter Meta+Enter">Post entry</Button>
        </div>
      </form>
    </>
  );
}
