/**
 * Reconciliations (`/reconcile`): start one (account, statement date, statement balance typed in
 * major units and read exactly at the currency's scale), and the list of open and finished ones.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { bankStatements, reconciliations } from '../../api/endpoints.js';
import { useUser } from '../../auth/auth.js';
import { Badge, Button, Card, EmptyState, ErrorNotice, InputField, Loading, Notice, PageHeader } from '../../components/ui.js';
import { formatDate, formatTimestamp, todayIso } from '../../lib/dates.js';
import { fieldError, isFieldError } from '../../lib/form-errors.js';
import { formatAmountInput } from '../../lib/money.js';
import { accountLabel, useAccountMap, useCurrencyMap } from '../../lib/reference.js';
import { Link, navigate, useSearchParams } from '../../lib/router.js';
import { toast } from '../../lib/toast.js';
import { invalidate, useApi } from '../../lib/use-api.js';
import { useSubmit } from '../../lib/use-submit.js';
import { Amount, BankAccountSelect, lastBankAccount, parseSignedAmountInput, useAccountAndCurrency, useBankAccounts } from './bank-shared.js';
import './bank.css';

export function ReconciliationsPage() {
  const { can } = useUser();
  const list = useApi('reconciliations', reconciliations.all);
  const accounts = useAccountMap();
  const currencies = useCurrencyMap();
  const rows = list.data ?? [];

  return (
    <div className="bank-page">
      <PageHeader title="Reconcile" subtitle="Check the books against each bank or card statement, to the last cent." />
      {can('bank:write') ? <StartReconciliation open={rows.filter((row) => row.status === 'open')} /> : (
        <Notice tone="info" data-testid="reconcile-read-only">Starting and working a reconciliation needs the bank:write permission.</Notice>
      )}
      {list.error ? <ErrorNotice error={list.error} onRetry={list.reload} /> : null}
      {list.loading && !list.data ? <Loading /> : null}
      {list.data && rows.length === 0 ? <EmptyState title="No reconciliations yet" /> : null}
      {rows.length > 0 ? (
        <Card title="Reconciliations" className="card--flush" data-testid="reconciliations">
          <div className="table-wrap">
            <table className="table table--stack">
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col">Statement</th>
                  <th scope="col" className="num">Statement balance</th>
                  <th scope="col" className="num hide-narrow">Difference</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="hide-narrow">Finished</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => {
                  const account = accounts.get(row.account_id);
                  const currency = account ? currencies.get(account.currency_id) : undefined;
                  return (
                    <tr key={row.id} data-testid="reconciliation-row" data-reconciliation-id={row.id}>
                      <td className="cell-key"><Link to={`/reconcile/${row.id}`}>{account ? accountLabel(account) : row.account_id}</Link></td>
                      <td className="nowrap">{formatDate(row.statement_date)}</td>
                      <td className="num"><Amount value={row.statement_balance} currency={currency} /></td>
                      <td className="num hide-narrow"><Amount value={row.difference} currency={currency} /></td>
                      <td>{row.status === 'open' ? <Badge tone="warn">open</Badge> : <Badge tone="good">finished</Badge>}</td>
                      <td className="hide-narrow muted nowrap">{row.finished_at ? formatTimestamp(row.finished_at) : ''}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </Card>
      ) : null}
    </div>
  );
}

function StartReconciliation({ open }: { open: { id: string; account_id: string; statement_date: string }[] }) {
  const search = useSearchParams();
  const [chosenAccountId, setAccountId] = useState(search.get('account') ?? lastBankAccount() ?? '');
  const { accounts: bankAccounts } = useBankAccounts();
  const accountId = bankAccounts?.some((row) => row.id === chosenAccountId) ? chosenAccountId : bankAccounts?.[0]?.id ?? '';
  const { currency } = useAccountAndCurrency(accountId || undefined);
  const [date, setDate] = useState('');
  const [balanceText, setBalanceText] = useState('');
  const [prefilled, setPrefilled] = useState<string | null>(null);
  const statements = useApi(accountId ? `bank-statements:${accountId}` : null, () => bankStatements.all(accountId));
  const { busy, error, run } = useSubmit();

  // The last imported statement's end date and closing balance are the usual answer; typed values win.
  useEffect(() => {
    if (!statements.data || !currency || prefilled === accountId) return;
    const latest = [...statements.data].reverse().find((statement) => statement.closing_balance !== null && statement.end_date !== null);
    setPrefilled(accountId);
    if (!latest) return;
    setDate(latest.end_date!);
    setBalanceText(formatAmountInput(BigInt(latest.closing_balance!), currency.asset_scale));
  }, [statements.data, currency, accountId, prefilled]);

  const parsed = parseSignedAmountInput(balanceText, currency);
  const balanceError = balanceText.trim() === '' ? undefined : parsed.ok ? undefined : parsed.message;
  const openOne = open.find((row) => row.account_id === accountId);
  const ready = accountId !== '' && date !== '' && parsed.ok && parsed.minor !== null && !openOne;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || !parsed.ok || parsed.minor === null) return;
    const minor = parsed.minor;
    void run(async () => {
      const started = await reconciliations.start({ account_id: accountId, statement_date: date, statement_balance: minor.toString() });
      toast('Reconciliation started');
      invalidate();
      navigate(`/reconcile/${started.id}`);
    });
  };

  return (
    <Card title="Start a reconciliation" data-testid="reconcile-start">
      <form className="form" onSubmit={submit}>
        <div className="form-row">
          <BankAccountSelect value={accountId} onChange={(value) => { setAccountId(value); setPrefilled(null); }} error={fieldError(error, 'account_id')}
            data-testid="reconcile-account" />
          <InputField label="Statement date" type="date" value={date} max={todayIso()} onChange={(event) => setDate(event.target.value)}
            error={fieldError(error, 'statement_date')} data-testid="reconcile-date" />
          <InputField label={`Statement's closing balance${currency ? ` (${currency.code})` : ''}`} value={balanceText} inputMode="decimal"
            className="field--amount" onChange={(event) => setBalanceText(event.target.value)}
            onBlur={() => { if (parsed.ok && parsed.minor !== null && currency) setBalanceText(formatAmountInput(parsed.minor, currency.asset_scale)); }}
            hint="As the statement prints it; a minus for an overdraft (for a card, what you owe is positive)"
            error={balanceError ?? fieldError(error, 'statement_balance')} data-testid="reconcile-balance" />
        </div>
        {openOne ? (
          <Notice tone="info" data-testid="reconcile-open-exists">
            This account has an open reconciliation (statement of {formatDate(openOne.statement_date)}).{' '}
            <Link to={`/reconcile/${openOne.id}`}>Continue it</Link>; one reconciliation per account at a time.
          </Notice>
        ) : null}
        {error && !isFieldError(error, ['account_id', 'statement_date', 'statement_balance']) ? <ErrorNotice error={error} /> : null}
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy} disabled={!ready} data-testid="reconcile-submit">Start reconciling</Button>
        </div>
      </form>
    </Card>
  );
}
