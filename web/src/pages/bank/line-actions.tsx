/**
 * What can be done with one unmatched bank line besides its suggestion: match it to entries
 * already posted, post it against an account of one's choosing, or exclude it with a reason.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { bankLines, fetchAll, journalEntries } from '../../api/endpoints.js';
import type { AccountView, BankLineView, CurrencyView, EntryView } from '../../api/types.js';
import { AccountPicker } from '../../components/pickers.js';
import { Badge, Button, ErrorNotice, InputField, Loading } from '../../components/ui.js';
import { addDays, formatDate } from '../../lib/dates.js';
import { fieldError, isFieldError } from '../../lib/form-errors.js';
import { randomId } from '../../lib/ids.js';
import { isPostingAccount, useAccounts } from '../../lib/reference.js';
import { toast } from '../../lib/toast.js';
import { invalidate, useApi } from '../../lib/use-api.js';
import { useSubmit } from '../../lib/use-submit.js';
import { Amount } from './bank-shared.js';

/** How far around the line's date "Find match" looks for other entries (candidates are the server's ±7 days). */
const NEAR_DAYS = 14;
const FAR_DAYS = 62;

/** An entry's movement of the bank account: debits minus credits of its lines there, the sign bank lines use. */
export function movementOn(entry: EntryView, accountId: string): bigint {
  let total = 0n;
  for (const line of entry.lines) if (line.account_id === accountId) total += BigInt(line.debit_amount) - BigInt(line.credit_amount);
  return total;
}

interface MatchRow {
  entryId: string;
  date: string;
  description: string;
  reference: string | null;
  amount: bigint;
  score?: number;
  reason?: string;
}

/**
 * The candidates the server proposes (same amount within seven days, scored), and below them the
 * other entries on the account around the line's date, for a deposit that pays several invoices.
 * Match is enabled only when the ticked entries add up to exactly the line's amount.
 */
export function FindMatch({ line, account, currency, onCancel }:
  { line: BankLineView; account: AccountView; currency: CurrencyView | undefined; onCancel: () => void }) {
  const [wide, setWide] = useState(false);
  const days = wide ? FAR_DAYS : NEAR_DAYS;
  const candidates = useApi(`bank-candidates:${line.id}`, () => bankLines.candidates(line.id));
  const nearby = useApi(`bank-nearby:${account.id}:${line.posted_date}:${days}`, () => fetchAll((cursor) => journalEntries.list({
    account_id: account.id, start_date: addDays(line.posted_date, -days), end_date: addDays(line.posted_date, days), limit: 200,
    ...(cursor ? { cursor } : {}),
  })));
  // Entries already matched to another bank line cannot be matched again; the server says so too.
  const matched = useApi(`bank-lines:${account.id}:matched`, () => bankLines.all({ account_id: account.id, status: 'matched' }));
  const [selected, setSelected] = useState<string[]>([]);
  const { busy, error, run } = useSubmit();

  const rows = useMemo(() => {
    const entries = new Map((nearby.data ?? []).map((entry) => [entry.id, entry]));
    const taken = new Set((matched.data ?? []).flatMap((other) => other.journal_entry_ids));
    const proposed: MatchRow[] = (candidates.data ?? []).map((candidate) => {
      const entry = entries.get(candidate.journal_entry_id);
      return {
        entryId: candidate.journal_entry_id, date: candidate.entry_date, description: candidate.description ?? '', reference: candidate.reference,
        amount: entry ? movementOn(entry, account.id) : BigInt(line.amount), score: candidate.score, reason: candidate.reason,
      };
    });
    const proposedIds = new Set(proposed.map((row) => row.entryId));
    const others: MatchRow[] = (nearby.data ?? []).filter((entry) => !proposedIds.has(entry.id) && !taken.has(entry.id))
      .map((entry) => ({ entryId: entry.id, date: entry.entry_date, description: entry.description, reference: entry.reference, amount: movementOn(entry, account.id) }))
      .filter((row) => row.amount !== 0n);
    return { proposed, others };
  }, [candidates.data, nearby.data, matched.data, account.id, line.amount]);

  const all = [...rows.proposed, ...rows.others];
  const total = all.filter((row) => selected.includes(row.entryId)).reduce((sum, row) => sum + row.amount, 0n);
  const target = BigInt(line.amount);
  const exact = selected.length > 0 && total === target;
  const toggle = (entryId: string) => setSelected((current) => current.includes(entryId) ? current.filter((id) => id !== entryId) : [...current, entryId]);

  const match = () => void run(async () => {
    await bankLines.match(line.id, { journal_entry_ids: selected });
    toast(`Matched “${line.description}” to ${selected.length} entr${selected.length === 1 ? 'y' : 'ies'}`);
    invalidate();
  });

  const table = (title: string, list: MatchRow[], testId: string) => (
    <div className="table-wrap">
      <table className="table table--compact bank-match-table" data-testid={testId}>
        <caption className="table__caption">{title}</caption>
        <thead>
          <tr>
            <th scope="col"><span className="visually-hidden">Pick</span></th>
            <th scope="col">Entry</th>
            <th scope="col" className="num">Amount</th>
          </tr>
        </thead>
        <tbody>
          {list.map((row) => (
            <tr key={row.entryId} data-testid="match-candidate" data-entry-id={row.entryId} className={selected.includes(row.entryId) ? 'is-selected' : ''}>
              <td className="bank-match-table__pick">
                <input type="checkbox" checked={selected.includes(row.entryId)} onChange={() => toggle(row.entryId)}
                  aria-label={`Pick ${row.description} of ${formatDate(row.date)}`} data-testid="match-pick" />
              </td>
              <td>
                <span className="bank-match-table__description">{row.description}</span>
                <span className="muted small"> · {formatDate(row.date)}{row.reference ? ` · ${row.reference}` : ''}</span>
                {row.score !== undefined ? (
                  <span className="bank-match-table__reason small"><Badge tone={row.score >= 80 ? 'good' : 'neutral'}>{row.score}</Badge> {row.reason}</span>
                ) : null}
              </td>
              <td className="num"><Amount value={row.amount} currency={currency} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );

  const loading = (candidates.loading && !candidates.data) || (nearby.loading && !nearby.data);
  return (
    <div className="bank-match" data-testid="find-match">
      <p className="bank-panel__title">Find the entry this line belongs to</p>
      {candidates.error ? <ErrorNotice error={candidates.error} /> : null}
      {nearby.error ? <ErrorNotice error={nearby.error} /> : null}
      {loading ? <Loading label="Looking for entries…" /> : (
        <>
          {rows.proposed.length > 0 ? table('Suggested matches', rows.proposed, 'match-candidates') : (
            <p className="muted small">No posted entry of exactly this amount within 7 days.</p>
          )}
          {rows.others.length > 0 ? table(`Other entries on this account within ${days} days`, rows.others, 'match-others') : null}
          {!wide ? <Button variant="ghost" className="button--small" onClick={() => setWide(true)}>Look {FAR_DAYS} days around the date</Button> : null}
        </>
      )}
      <p className={`bank-match__sum ${exact ? 'is-exact' : ''}`} data-testid="match-sum" aria-live="polite">
        Picked <Amount value={total} currency={currency} /> of <Amount value={target} currency={currency} />
        {selected.length > 0 && !exact ? <> · <span>difference <Amount value={target - total} currency={currency} /></span></> : null}
        {exact ? <> · <Badge tone="good">exact</Badge></> : null}
      </p>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="bank-suggestion__buttons">
        <Button variant="primary" className="button--small" disabled={!exact} busy={busy} onClick={match} data-testid="match-confirm">Match</Button>
        <Button variant="ghost" className="button--small" onClick={onCancel}>Cancel</Button>
      </div>
    </div>
  );
}

/** Posts the line as a new entry against a chosen account, with a description and date. */
export function PostAsForm({ line, account, onCancel }: { line: BankLineView; account: AccountView; onCancel: () => void }) {
  const { data: accounts } = useAccounts();
  const [counter, setCounter] = useState(line.suggestion?.counter_account_id ?? '');
  const [description, setDescription] = useState(line.suggestion?.description ?? line.description);
  const [date, setDate] = useState(line.posted_date);
  const [key] = useState(randomId);
  const { busy, error, run } = useSubmit();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!counter) return;
    void run(async () => {
      await bankLines.post(line.id, { counter_account_id: counter, description: description.trim() || line.description, entry_date: date }, key);
      const name = accounts?.find((row) => row.id === counter)?.name ?? 'the account';
      toast(`Posted “${line.description}” to ${name}`);
      invalidate();
    });
  };
  return (
    <form className="bank-post" onSubmit={submit} data-testid="post-as">
      <p className="bank-panel__title">Post as a new entry</p>
      <AccountPicker label="Account" accounts={accounts} value={counter} onChange={setCounter}
        filter={(candidate) => isPostingAccount(candidate) && candidate.currency_id === account.currency_id && candidate.id !== account.id}
        error={fieldError(error, 'counter_account_id')} data-testid="post-as-account" />
      <div className="bank-post__row">
        <InputField label="Description" value={description} maxLength={1000} onChange={(event) => setDescription(event.target.value)}
          error={fieldError(error, 'description')} data-testid="post-as-description" className="field--grow" />
        <InputField label="Date" type="date" value={date} onChange={(event) => setDate(event.target.value)} error={fieldError(error, 'entry_date')}
          data-testid="post-as-date" />
      </div>
      {error && !isFieldError(error, ['counter_account_id', 'description', 'entry_date']) ? <ErrorNotice error={error} /> : null}
      <div className="bank-suggestion__buttons">
        <Button type="submit" variant="primary" className="button--small" busy={busy} disabled={!counter} data-testid="post-as-submit">Post</Button>
        <Button variant="ghost" className="button--small" onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}

/** Leaves the line out of the books (a transfer recorded elsewhere, a private payment), with the reason kept. */
export function ExcludeForm({ line, onCancel }: { line: BankLineView; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  const { busy, error, run } = useSubmit();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return;
    void run(async () => {
      await bankLines.exclude(line.id, { reason: reason.trim() });
      toast(`Excluded “${line.description}”`);
      invalidate();
    });
  };
  return (
    <form className="bank-exclude" onSubmit={submit} data-testid="exclude-form">
      <p className="bank-panel__title">Exclude from the books</p>
      <InputField label="Reason" value={reason} maxLength={500} required autoFocus placeholder="e.g. Paid privately; transfer booked elsewhere"
        onChange={(event) => setReason(event.target.value)} error={fieldError(error, 'reason')} data-testid="exclude-reason" />
      {error && !isFieldError(error, ['reason']) ? <ErrorNotice error={error} /> : null}
      <div className="bank-suggestion__buttons">
        <Button type="submit" variant="secondary" className="button--small" busy={busy} disabled={!reason.trim()} data-testid="exclude-submit">Exclude</Button>
        <Button variant="ghost" className="button--small" onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
