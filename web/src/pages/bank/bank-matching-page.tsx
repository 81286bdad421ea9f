/**
 * The bank feed (`/bank/:accountId`), in the manner of Xero's bank reconciliation screen: each
 * unmatched statement line on the left, on the right what to do with it: the rules' suggestion
 * with an OK button, "Find match" (entries already posted, one or several summing exactly to the
 * line), "Post as" (a new entry against a chosen account) or "Exclude" (with a reason). The
 * keyboard works the list: Up and Down move between lines, Enter or O accepts the focused line's
 * suggestion. "Accept all suggestions" posts every suggested line in one request, all or none.
 * Matched and excluded lines have their own tabs, with Unmatch.
 */
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { isApiError } from '../../api/client.js';
import { accounts as accountsApi, bankLines, bankStatements, fetchAll, journalEntries } from '../../api/endpoints.js';
import type { AccountView, BankLineView, CurrencyView, EntryView } from '../../api/types.js';
import { useUser } from '../../auth/auth.js';
import { Badge, Button, ButtonLink, Dialog, EmptyState, ErrorNotice, Loading, Notice, PageHeader } from '../../components/ui.js';
import { formatDate } from '../../lib/dates.js';
import { randomId } from '../../lib/ids.js';
import { sumMinor } from '../../lib/money.js';
import { Link, navigate, setSearchParams, useSearchParams } from '../../lib/router.js';
import { toast } from '../../lib/toast.js';
import { invalidate, useApi } from '../../lib/use-api.js';
import {
  Amount, BankAccountSelect, describeLine, lastBankAccount, rememberBankAccount, unsignedDisplay, useAccountAndCurrency, useBankAccounts,
} from './bank-shared.js';
import { ExcludeForm, FindMatch, PostAsForm } from './line-actions.js';
import './bank.css';

type Tab = 'unmatched' | 'matched' | 'excluded';
type Mode = 'suggestion' | 'match' | 'post' | 'exclude';

/** `/bank` opens the account last worked on, else the one of the latest import, else the first bank account. */
export function BankIndexPage() {
  const { accounts, error } = useBankAccounts();
  const statements = useApi('bank-statements:', () => bankStatements.all(undefined));
  useEffect(() => {
    if (!accounts || accounts.length === 0 || (!statements.data && !statements.error)) return;
    const last = lastBankAccount();
    const latestImport = statements.data?.[statements.data.length - 1]?.account_id;
    const chosen = accounts.find((account) => account.id === last) ?? accounts.find((account) => account.id === latestImport) ?? accounts[0]!;
    navigate(`/bank/${chosen.id}`, { replace: true });
  }, [accounts, statements.data, statements.error]);
  if (error) return <ErrorNotice error={error} />;
  if (accounts && accounts.length === 0) {
    return (
      <div className="bank-page">
        <PageHeader title="Bank matching" />
        <EmptyState title="No bank or card accounts yet">
          Statements are imported into an active asset account (a bank account) or liability account (a credit card).{' '}
          <Link to="/accounts">Create one in the chart of accounts</Link>.
        </EmptyState>
      </div>
    );
  }
  return <Loading />;
}

export function BankMatchingPage({ params }: { params: Record<string, string> }) {
  const accountId = params.accountId ?? '';
  const { can } = useUser();
  const canWrite = can('bank:write');
  const canPost = canWrite && can('journals:create');
  const search = useSearchParams();
  const tab: Tab = search.get('show') === 'matched' ? 'matched' : search.get('show') === 'excluded' ? 'excluded' : 'unmatched';
  const { account, currency } = useAccountAndCurrency(accountId);
  const unmatched = useApi(`bank-lines:${accountId}:unmatched`, () => bankLines.all({ account_id: accountId, status: 'unmatched' }));
  const resolved = useApi(tab === 'unmatched' ? null : `bank-lines:${accountId}:${tab}`, () => bankLines.all({ account_id: accountId, status: tab }));

  useEffect(() => { if (accountId) rememberBankAccount(accountId); }, [accountId]);

  return (
    <div className="bank-page">
      <PageHeader title="Bank matching" subtitle={account ? `${account.account_number} · ${account.name}${currency ? ` · ${currency.code}` : ''}` : undefined}
        actions={<>
          {canWrite ? <ButtonLink to={`/bank/import?account=${accountId}`} data-testid="bank-import-link">Import statement</ButtonLink> : null}
          <ButtonLink to="/bank/rules">Rules</ButtonLink>
          <ButtonLink to="/reconcile">Reconcile</ButtonLink>
        </>} />
      <div className="filters no-print">
        <BankAccountSelect value={accountId} onChange={(value) => { if (value) navigate(`/bank/${value}`); }} label="Account" data-testid="bank-account" />
      </div>
      <BankSummary accountId={accountId} currency={currency} unmatchedCount={unmatched.data?.length} />
      {!canWrite ? (
        <Notice tone="info" data-testid="bank-read-only">You can read the bank lines; matching, posting and excluding need the bank:write permission.</Notice>
      ) : !canPost ? (
        <Notice tone="info" data-testid="bank-no-post">You can match and exclude lines; posting new entries from them needs the journals:create permission too.</Notice>
      ) : null}
      <div className="bank-tabs" role="tablist" aria-label="Bank lines">
        {(['unmatched', 'matched', 'excluded'] as Tab[]).map((name) => (
          <button key={name} type="button" role="tab" aria-selected={tab === name} className="bank-tabs__tab" data-testid={`bank-tab-${name}`}
            onClick={() => setSearchParams({ show: name === 'unmatched' ? undefined : name })}>
            {name === 'unmatched' ? 'To match' : name === 'matched' ? 'Matched' : 'Excluded'}
            {name === 'unmatched' && unmatched.data ? <span className="bank-tabs__count">{unmatched.data.length}</span> : null}
          </button>
        ))}
      </div>
      {tab === 'unmatched' ? (
        unmatched.error ? <ErrorNotice error={unmatched.error} onRetry={unmatched.reload} />
          : !unmatched.data || !account ? <Loading />
            : <UnmatchedLines lines={unmatched.data} account={account} currency={currency} canWrite={canWrite} canPost={canPost} />
      ) : resolved.error ? <ErrorNotice error={resolved.error} onRetry={resolved.reload} />
        : !resolved.data || !account ? <Loading />
          : <ResolvedLines lines={resolved.data} tab={tab} account={account} currency={currency} canWrite={canWrite} />}
    </div>
  );
}

/** The last statement's closing balance beside the books' balance, and how many lines wait. */
function BankSummary({ accountId, currency, unmatchedCount }: { accountId: string; currency: CurrencyView | undefined; unmatchedCount: number | undefined }) {
  const statements = useApi(`bank-statements:${accountId}`, () => bankStatements.all(accountId));
  const balance = useApi(`account-balance:${accountId}`, () => accountsApi.balance(accountId));
  const latest = [...(statements.data ?? [])].reverse().find((statement) => statement.closing_balance !== null);
  return (
    <div className="stats stats--three bank-stats">
      <div className="stat">
        <p className="stat__label">Lines to match</p>
        <p className="stat__value" data-testid="bank-unmatched-count">{unmatchedCount ?? <span className="skeleton skeleton--short" />}</p>
      </div>
      <div className="stat">
        <p className="stat__label">Statement balance{latest?.end_date ? ` (${formatDate(latest.end_date)})` : ''}</p>
        <p className="stat__value stat__value--small" data-testid="bank-statement-balance">
          {statements.data ? (latest ? <Amount value={latest.closing_balance!} currency={currency} /> : <span className="muted">no statement yet</span>)
            : <span className="skeleton" />}
        </p>
      </div>
      <div className="stat">
        <p className="stat__label">Balance in the books</p>
        <p className="stat__value stat__value--small" data-testid="bank-books-balance">
          {balance.data ? <Amount value={balance.data.net_balance} currency={currency} /> : <span className="skeleton" />}
        </p>
      </div>
    </div>
  );
}

/** A line's date, description and amount in the "In" or "Out" column. */
function StatementSide({ line, currency }: { line: BankLineView; currency: CurrencyView | undefined }) {
  const incoming = BigInt(line.amount) > 0n;
  return (
    <div className="bank-line__statement">
      <span className="bank-line__date">{formatDate(line.posted_date)}</span>
      <span className="bank-line__description" data-testid="bank-line-description">{line.description}</span>
      <span className="bank-line__money">
        <span className="bank-line__direction muted">{incoming ? 'In' : 'Out'}</span>
        <span className={`money ${incoming ? 'money--in' : ''}`} data-testid="bank-line-amount">{unsignedDisplay(line.amount, currency)}</span>
        {currency ? <span className="unit"> {currency.code}</span> : null}
      </span>
    </div>
  );
}

function UnmatchedLines({ lines, account, currency, canWrite, canPost }:
  { lines: BankLineView[]; account: AccountView; currency: CurrencyView | undefined; canWrite: boolean; canPost: boolean }) {
  const [modes, setModes] = useState<Record<string, Mode>>({});
  const [focused, setFocused] = useState(0);
  const [busyLine, setBusyLine] = useState<string | null>(null);
  const [lineErrors, setLineErrors] = useState<Record<string, unknown>>({});
  const [acceptOpen, setAcceptOpen] = useState(false);
  const [acceptError, setAcceptError] = useState<{ message: string; lineId: string | undefined } | null>(null);
  const rowRefs = useRef<(HTMLLIElement | null)[]>([]);
  const refocus = useRef(false);
  const suggested = lines.filter((line) => line.suggestion !== null);

  // After a line leaves the list (accepted from the keyboard), the focus stays at its place.
  useEffect(() => {
    if (focused >= lines.length && lines.length > 0) setFocused(lines.length - 1);
    if (refocus.current) {
      refocus.current = false;
      rowRefs.current[Math.min(focused, lines.length - 1)]?.focus();
    }
  }, [lines, focused]);

  const setMode = (lineId: string, mode: Mode) => setModes((previous) => ({ ...previous, [lineId]: mode }));

  const accept = async (line: BankLineView, fromKeyboard: boolean) => {
    if (!canPost || !line.suggestion || busyLine) return;
    setBusyLine(line.id);
    setLineErrors((previous) => ({ ...previous, [line.id]: undefined }));
    try {
      await bankLines.post(line.id, {}, randomId());
      toast(`Posted “${line.description}” to ${line.suggestion.counter_account_name}`);
      refocus.current = fromKeyboard;
      invalidate();
    } catch (error) {
      setLineErrors((previous) => ({ ...previous, [line.id]: error }));
    } finally {
      setBusyLine(null);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    const target = event.target as HTMLElement;
    const index = rowRefs.current.findIndex((row) => row === target);
    if (index === -1) return; // A key in a field or on a button inside a line is that control's.
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = event.key === 'ArrowDown' ? Math.min(index + 1, lines.length - 1) : Math.max(index - 1, 0);
      setFocused(next);
      rowRefs.current[next]?.focus();
    } else if ((event.key === 'Enter' || event.key === 'o' || event.key === 'O') && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      const line = lines[index];
      if (line) void accept(line, true);
    }
  };

  if (lines.length === 0) {
    return (
      <EmptyState title="Every line is matched">
        Import the next statement when it arrives. <Link to={`/bank/import?account=${account.id}`}>Import a statement</Link>
      </EmptyState>
    );
  }

  const acceptedLine = acceptError?.lineId ? lines.find((line) => line.id === acceptError.lineId) : undefined;
  return (
    <>
      <div className="bank-toolbar">
        <p className="bank-keys muted" id="bank-keys" data-testid="bank-keys">
          Keys: <kbd>↑</kbd> <kbd>↓</kbd> move between lines; <kbd>Enter</kbd> or <kbd>O</kbd> accepts the suggestion of the highlighted line.
        </p>
        {canPost ? (
          <Button variant="primary" disabled={suggested.length === 0} onClick={() => { setAcceptError(null); setAcceptOpen(true); }} data-testid="accept-all">
            Accept all suggestions ({suggested.length})
          </Button>
        ) : null}
      </div>
      {acceptError ? (
        <div className="notice notice--error" role="alert" data-testid="accept-all-error">
          <p className="notice__title">Nothing was posted</p>
          <p>{acceptedLine ? <>The line <strong>{describeLine(acceptedLine, currency)}</strong> could not be posted: </> : null}{acceptError.message}</p>
        </div>
      ) : null}
      <ol className="bank-lines" onKeyDown={onKeyDown} aria-describedby="bank-keys" data-testid="bank-lines">
        {lines.map((line, index) => (
          <li key={line.id} ref={(element) => { rowRefs.current[index] = element; }} tabIndex={index === focused ? 0 : -1}
            className={`bank-line ${acceptError?.lineId === line.id ? 'bank-line--error' : ''}`} data-testid="bank-line" data-line-id={line.id}
            aria-label={describeLine(line, currency)} onFocus={(event) => { if (event.target === event.currentTarget) setFocused(index); }}>
            <StatementSide line={line} currency={currency} />
            <div className="bank-line__action">
              <LineAction line={line} account={account} currency={currency} mode={modes[line.id] ?? 'suggestion'} setMode={(mode) => setMode(line.id, mode)}
                canWrite={canWrite} canPost={canPost} busy={busyLine === line.id} error={lineErrors[line.id]} onAccept={() => void accept(line, false)} />
            </div>
          </li>
        ))}
      </ol>
      <AcceptAllDialog open={acceptOpen} lines={suggested} currency={currency} onClose={() => setAcceptOpen(false)}
        onFailed={(message, lineId) => { setAcceptOpen(false); setAcceptError({ message, lineId }); }} />
    </>
  );
}

function LineAction({ line, account, currency, mode, setMode, canWrite, canPost, busy, error, onAccept }: {
  line: BankLineView; account: AccountView; currency: CurrencyView | undefined; mode: Mode; setMode: (mode: Mode) => void;
  canWrite: boolean; canPost: boolean; busy: boolean; error: unknown; onAccept: () => void;
}) {
  const back = () => setMode('suggestion');
  if (mode === 'match') return <FindMatch line={line} account={account} currency={currency} onCancel={back} />;
  if (mode === 'post') return <PostAsForm line={line} account={account} onCancel={back} />;
  if (mode === 'exclude') return <ExcludeForm line={line} onCancel={back} />;
  const suggestion = line.suggestion;
  return (
    <div className="bank-suggestion" data-testid="bank-suggestion">
      {suggestion ? (
        <>
          <p className="bank-suggestion__what">
            <Badge tone="info">Rule: {suggestion.rule_name}</Badge>{' '}
            Post to <strong data-testid="suggestion-account">{suggestion.counter_account_number} · {suggestion.counter_account_name}</strong>
          </p>
          <p className="bank-suggestion__description">as “{suggestion.description}”</p>
          <p className="bank-suggestion__reason muted small" data-testid="suggestion-reason">{suggestion.reason}</p>
        </>
      ) : (
        <p className="muted bank-suggestion__none">No rule matches this line. Find the entry it belongs to, or post it to an account.</p>
      )}
      {error ? <ErrorNotice error={error} /> : null}
      {canWrite ? (
        <div className="bank-suggestion__buttons">
          {suggestion && canPost ? (
            <Button variant="primary" className="button--small" busy={busy} onClick={onAccept} data-testid="suggestion-ok"
              aria-label={`OK: post “${line.description}” to ${suggestion.counter_account_name}`}>OK</Button>
          ) : null}
          <Button variant="ghost" className="button--small" onClick={() => setMode('match')} data-testid="line-find-match">Find match</Button>
          {canPost ? <Button variant="ghost" className="button--small" onClick={() => setMode('post')} data-testid="line-post-as">Post as…</Button> : null}
          <Button variant="ghost" className="button--small" onClick={() => setMode('exclude')} data-testid="line-exclude">Exclude…</Button>
        </div>
      ) : null}
    </div>
  );
}

/** Posts every suggested line in one request: all or none. A refusal names the line it is about. */
function AcceptAllDialog({ open, lines, currency, onClose, onFailed }: {
  open: boolean; lines: BankLineView[]; currency: CurrencyView | undefined; onClose: () => void;
  onFailed: (message: string, lineId: string | undefined) => void;
}) {
  const [busy, setBusy] = useState(false);
  const incoming = sumMinor(lines.filter((line) => BigInt(line.amount) > 0n).map((line) => line.amount));
  const outgoing = -sumMinor(lines.filter((line) => BigInt(line.amount) < 0n).map((line) => line.amount));
  const confirm = async () => {
    const ids = lines.map((line) => line.id);
    setBusy(true);
    try {
      const posted = await bankLines.accept({ line_ids: ids }, randomId());
      toast(`Posted ${posted.length} line${posted.length === 1 ? '' : 's'} by their suggestions`);
      onClose();
      invalidate();
    } catch (error) {
      const index = isApiError(error) ? /^line_ids\[(\d+)\]/.exec(error.field ?? '')?.[1] : undefined;
      onFailed(error instanceof Error ? error.message : String(error), index !== undefined ? ids[Number(index)] : undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} title="Accept all suggestions" onClose={onClose} data-testid="accept-all-dialog"
      footer={<div className="form-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="primary" busy={busy} onClick={() => void confirm()} data-testid="accept-all-confirm">Post {lines.length} line{lines.length === 1 ? '' : 's'}</Button>
      </div>}>
      <p>Each line is posted as a new entry against the account its rule names, in one go: if one of them cannot be posted, none is.</p>
      <ul className="plain-list bank-accept-list">
        {lines.map((line) => (
          <li key={line.id} className="plain-list__item">
            <span className="plain-list__text"><span>{line.description}</span><span className="muted small">{formatDate(line.posted_date)} → {line.suggestion?.counter_account_name}</span></span>
            <Amount value={line.amount} currency={currency} />
          </li>
        ))}
      </ul>
      <p className="muted small">In: <Amount value={incoming} currency={currency} /> · Out: <Amount value={outgoing} currency={currency} /></p>
    </Dialog>
  );
}

/** Matched or excluded lines, with what they were matched to or why they were left out, and Unmatch. */
function ResolvedLines({ lines, tab, account, currency, canWrite }:
  { lines: BankLineView[]; tab: 'matched' | 'excluded'; account: AccountView; currency: CurrencyView | undefined; canWrite: boolean }) {
  const shown = useMemo(() => [...lines].reverse(), [lines]);
  const dates = lines.map((line) => line.posted_date).sort();
  const entries = useApi(tab === 'matched' && lines.length > 0 ? `bank-matched-entries:${account.id}:${dates[0]}:${dates[dates.length - 1]}` : null,
    () => fetchAll((cursor) => journalEntries.list({ account_id: account.id, start_date: shiftDays(dates[0]!, -62), end_date: shiftDays(dates[dates.length - 1]!, 62),
      limit: 200, ...(cursor ? { cursor } : {}) })));
  const byId = useMemo(() => new Map((entries.data ?? []).map((entry) => [entry.id, entry])), [entries.data]);
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, unknown>>({});

  const unmatch = async (line: BankLineView) => {
    setBusy(line.id);
    try {
      await bankLines.unmatch(line.id);
      toast(tab === 'matched' ? `“${line.description}” is unmatched; its entry stays posted` : `“${line.description}” is back in the lines to match`);
      invalidate();
    } catch (error) {
      setErrors((previous) => ({ ...previous, [line.id]: error }));
    } finally {
      setBusy(null);
    }
  };

  if (shown.length === 0) return <EmptyState title={tab === 'matched' ? 'No matched lines yet' : 'No excluded lines'} />;
  return (
    <ol className="bank-lines bank-lines--resolved" data-testid="bank-lines">
      {shown.map((line) => (
        <li key={line.id} className="bank-line" data-testid="bank-line" data-line-id={line.id}>
          <StatementSide line={line} currency={currency} />
          <div className="bank-line__action">
            {tab === 'matched' ? (
              <p className="bank-suggestion__what">
                Matched to{' '}
                {line.journal_entry_ids.map((entryId, index) => (
                  <span key={entryId}>{index > 0 ? ', ' : ''}<Link to={`/journal/${entryId}`} data-testid="matched-entry">{entryLabel(byId.get(entryId))}</Link></span>
                ))}
              </p>
            ) : (
              <p className="bank-suggestion__what">Excluded: <span data-testid="excluded-reason">{line.excluded_reason}</span></p>
            )}
            {errors[line.id] ? <ErrorNotice error={errors[line.id]} /> : null}
            {line.reconciliation_id !== null ? (
              <p className="muted small"><Badge tone="good">Reconciled</Badge> <Link to={`/reconcile/${line.reconciliation_id}`}>in a finished reconciliation</Link></p>
            ) : canWrite ? (
              <div className="bank-suggestion__buttons">
                <Button variant="ghost" className="button--small" busy={busy === line.id} onClick={() => void unmatch(line)} data-testid="line-unmatch">
                  {tab === 'matched' ? 'Unmatch' : 'Restore'}
                </Button>
              </div>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}

function entryLabel(entry: EntryView | undefined): string {
  return entry ? `${entry.description} (${formatDate(entry.entry_date)})` : 'the entry';
}

function shiftDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
