/**
 * Settings: the company name printed on reports, the base currency reports are translated into,
 * the lock date, the retained earnings account (the default, and one per other currency), and who
 * you are signed in as.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { settings as settingsApi } from '../api/endpoints.js';
import { type AccountView, type CurrencyView, PERMISSION_KEYS, type SettingsView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { AccountSelect, CurrencySelect } from '../components/pickers.js';
import { Badge, Button, Card, ErrorNotice, InputField, Loading, Notice, PageHeader } from '../components/ui.js';
import { fieldError } from '../lib/form-errors.js';
import { formatDate } from '../lib/dates.js';
import { accountLabel, useAccounts, useCurrencies, useCurrencyMap, useSettings } from '../lib/reference.js';
import { Link } from '../lib/router.js';
import { toast } from '../lib/toast.js';
import { invalidate } from '../lib/use-api.js';
import { useSubmit } from '../lib/use-submit.js';

export function SettingsPage() {
  const { can, user } = useUser();
  const settings = useSettings();
  const accounts = useAccounts();
  const currencies = useCurrencyMap();
  const [accountId, setAccountId] = useState('');
  const { busy, error, run } = useSubmit();
  const current = settings.data?.retained_earnings_account_id ?? '';
  useEffect(() => setAccountId(current), [current]);
  const currentAccount = accounts.data?.find((account) => account.id === current);
  const eligible = (accounts.data ?? []).filter((account) => account.account_type === 'equity' && account.is_active && !account.has_subledger);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await settingsApi.update({ retained_earnings_account_id: accountId });
      invalidate();
      toast('Retained earnings account saved');
    });
  };

  return (
    <>
      <PageHeader title="Settings" />
      {settings.data ? <CompanyName current={settings.data.company_name} canWrite={can('settings:write')} /> : null}
      {settings.data ? <BaseCurrency current={settings.data.base_currency_id} canWrite={can('settings:write')} /> : null}
      {settings.data ? <LockDate current={settings.data.lock_date} canWrite={can('settings:write')} /> : null}
      <Card title="Retained earnings account" data-testid="settings-retained-earnings">
        <p className="muted">Closing a period moves its net income here. It must be an active equity account that is not a control account;
          its currency is also the default currency of the balance sheet and income statement.</p>
        {settings.error ? <ErrorNotice error={settings.error} /> : null}
        {settings.loading && !settings.data ? <Loading /> : null}
        {settings.data ? (
          <p>
            Currently: {currentAccount
              ? <><Link to={`/accounts/${currentAccount.id}`}>{accountLabel(currentAccount)}</Link> <Badge>{currencies.get(currentAccount.currency_id)?.code ?? ''}</Badge></>
              : <strong data-testid="retained-earnings-unset">not set</strong>}
          </p>
        ) : null}
        {can('settings:write') ? (
          <form className="form form--inline" onSubmit={submit}>
            <AccountSelect label="Account" accounts={accounts.data} value={accountId} onChange={setAccountId} required className="field--grow"
              filter={(account) => eligible.includes(account)} emptyLabel={eligible.length ? 'Choose an equity account…' : 'No eligible equity account'}
              error={fieldError(error, 'retained_earnings_account_id')} data-testid="retained-earnings-select" />
            <Button type="submit" variant="primary" busy={busy} disabled={!accountId || accountId === current} data-testid="retained-earnings-save">Save</Button>
          </form>
        ) : <Notice tone="info">Changing settings needs the settings:write permission.</Notice>}
        {error && !fieldError(error, 'retained_earnings_account_id') ? <ErrorNotice error={error} /> : null}
        {accounts.data && eligible.length === 0 ? (
          <p className="muted">No eligible account yet. <Link to="/accounts">Create an equity account</Link> such as “Retained earnings”.</p>
        ) : null}
      </Card>
      {settings.data && accounts.data ? (
        <CurrencyRetainedEarnings settings={settings.data} accounts={accounts.data} canWrite={can('settings:write')} />
      ) : null}
      <Card title="Your access">
        <p>Signed in as <strong>{user.name}</strong>{user.email ? ` (${user.email})` : ''}.</p>
        <div className="tags" data-testid="my-permissions">
          {can('admin') ? <Badge tone="warn">admin — all permissions</Badge>
            : PERMISSION_KEYS.filter((key) => can(key)).map((key) => <Badge key={key}>{key}</Badge>)}
          {!PERMISSION_KEYS.some((key) => can(key)) ? <span className="muted">Read only</span> : null}
        </div>
      </Card>
      <Card title="API">
        <p className="muted">The HTTP API is described at <a href="/docs" target="_blank" rel="noreferrer">/docs</a> (OpenAPI at
          {' '}<a href="/api/v1/openapi.json" target="_blank" rel="noreferrer">/api/v1/openapi.json</a>).</p>
      </Card>
    </>
  );
}

/** The company name every report, print-out and CSV file name carries. */
function CompanyName({ current, canWrite }: { current: string | null; canWrite: boolean }) {
  const [name, setName] = useState(current ?? '');
  const { busy, error, run } = useSubmit();
  useEffect(() => setName(current ?? ''), [current]);

  const save = (companyName: string | null) => void run(async () => {
    await settingsApi.update({ company_name: companyName });
    invalidate();
    toast(companyName === null ? 'Company name removed' : 'Company name saved');
  });
  // Saving an emptied field removes the name, as "Remove" does.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(name.trim() === '' ? null : name);
  };

  return (
    <Card title="Company name" data-testid="settings-company">
      <p className="muted">Printed at the top of every report and print-out, and at the start of CSV file names.</p>
      <p>Currently: {current ? <strong data-testid="company-name-current">{current}</strong> : <strong data-testid="company-name-unset">not set</strong>}</p>
      {canWrite ? (
        <form className="form form--inline" onSubmit={submit}>
          <InputField label="Company name" value={name} onChange={(event) => setName(event.target.value)} className="field--grow"
            autoComplete="organization" hint="1 to 200 characters, one line" error={fieldError(error, 'company_name')}
            data-testid="company-name-input" />
          <Button type="submit" variant="primary" busy={busy} disabled={name.trim() === (current ?? '')} data-testid="company-name-save">Save</Button>
          {current !== null ? (
            <Button onClick={() => save(null)} disabled={busy} data-testid="company-name-remove">Remove</Button>
          ) : null}
        </form>
      ) : null}
      {error && !fieldError(error, 'company_name') ? <ErrorNotice error={error} /> : null}
    </Card>
  );
}

/** The currency reports, the dashboard and rates are expressed in (docs/currencies.md). */
function BaseCurrency({ current, canWrite }: { current: string | null; canWrite: boolean }) {
  const currencies = useCurrencies();
  const [currencyId, setCurrencyId] = useState(current ?? '');
  const { busy, error, run } = useSubmit();
  useEffect(() => setCurrencyId(current ?? ''), [current]);
  const currentCurrency = currencies.data?.find((currency) => currency.id === current);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await settingsApi.update({ base_currency_id: currencyId });
      invalidate();
      toast('Base currency saved');
    });
  };
  return (
    <Card title="Base currency" data-testid="settings-base-currency">
      <p className="muted">Reports “in the base currency” translate every account into it at the exchange rates
        (<Link to="/rates">Exchange rates</Link>), and the dashboard shows a ledger in several currencies in it. Until one is chosen,
        it is the retained earnings account's currency.</p>
      <p>Currently: {currentCurrency ? <strong data-testid="base-currency-current">{currentCurrency.code} · {currentCurrency.name}</strong>
        : <strong data-testid="base-currency-unset">not set</strong>}</p>
      {canWrite ? (
        <form className="form form--inline" onSubmit={submit}>
          <CurrencySelect label="Base currency" currencies={currencies.data} value={currencyId} onChange={setCurrencyId} emptyLabel="Choose…"
            required error={fieldError(error, 'base_currency_id')} data-testid="base-currency-select" />
          <Button type="submit" variant="primary" busy={busy} disabled={!currencyId || currencyId === (current ?? '')} data-testid="base-currency-save">Save</Button>
        </form>
      ) : null}
      {error && !fieldError(error, 'base_currency_id') ? <ErrorNotice error={error} /> : null}
    </Card>
  );
}

/**
 * The lock date (Xero's and QuickBooks's): entries and reversals dated on or before it are
 * refused unless posted with periods:override and a reason. Clearing it removes the lock.
 */
function LockDate({ current, canWrite }: { current: string | null; canWrite: boolean }) {
  const [date, setDate] = useState(current ?? '');
  const { busy, error, run } = useSubmit();
  useEffect(() => setDate(current ?? ''), [current]);
  const save = (lockDate: string | null) => void run(async () => {
    await settingsApi.update({ lock_date: lockDate });
    invalidate();
    toast(lockDate === null ? 'Lock date removed' : `Books locked through ${formatDate(lockDate)}`);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(date === '' ? null : date);
  };
  return (
    <Card title="Lock date" data-testid="settings-lock-date">
      <p className="muted">Entries and reversals dated on or before the lock date are refused, unless someone with the
        periods:override permission posts them with a reason, which the entry and the audit log keep. Unlike closing a period,
        a lock can be moved or removed.</p>
      <p>Currently: {current ? <strong data-testid="lock-date-current">locked through {formatDate(current)}</strong>
        : <strong data-testid="lock-date-unset">no lock</strong>}</p>
      {canWrite ? (
        <form className="form form--inline" onSubmit={submit}>
          <InputField label="Lock date" type="date" value={date} onChange={(event) => setDate(event.target.value)}
            error={fieldError(error, 'lock_date')} data-testid="lock-date-input" />
          <Button type="submit" variant="primary" busy={busy} disabled={date === (current ?? '')} data-testid="lock-date-save">Save</Button>
          {current !== null ? <Button onClick={() => save(null)} disabled={busy} data-testid="lock-date-clear">Remove lock</Button> : null}
        </form>
      ) : null}
      {error && !fieldError(error, 'lock_date') ? <ErrorNotice error={error} /> : null}
    </Card>
  );
}

/**
 * The retained earnings account of each currency other than the default's: a close posts one
 * closing entry per currency with revenue or expense activity, each into its currency's account.
 */
function CurrencyRetainedEarnings({ settings, accounts, canWrite }: { settings: SettingsView; accounts: AccountView[]; canWrite: boolean }) {
  const currencies = useCurrencies();
  const defaultAccount = accounts.find((account) => account.id === settings.retained_earnings_account_id);
  const others = (currencies.data ?? []).filter((currency) => currency.id !== defaultAccount?.currency_id);
  return (
    <Card title="Retained earnings per currency" data-testid="settings-currency-retained-earnings">
      <p className="muted">A period with revenue or expenses in another currency than the default account's closes each currency into
        its own retained earnings account, chosen here. A currency with such activity and no account here cannot be closed.</p>
      {others.length === 0 ? <p className="muted">No other currency yet.</p> : (
        <div className="table-wrap">
          <table className="table table--compact">
            <thead><tr><th scope="col">Currency</th><th scope="col">Retained earnings account</th></tr></thead>
            <tbody>
              {others.map((currency) => (
                <CurrencyRetainedEarningsRow key={currency.id} currency={currency} accounts={accounts}
                  current={settings.retained_earnings_account_ids[currency.id] ?? ''} canWrite={canWrite} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

function CurrencyRetainedEarningsRow({ currency, accounts, current, canWrite }:
  { currency: CurrencyView; accounts: AccountView[]; current: string; canWrite: boolean }) {
  const [accountId, setAccountId] = useState(current);
  const { busy, error, run } = useSubmit();
  useEffect(() => setAccountId(current), [current]);
  const field = `retained_earnings_account_ids.${currency.id}`;
  const eligible = accounts.filter((account) => account.currency_id === currency.id && account.account_type === 'equity'
    && account.is_active && !account.has_subledger);
  const currentAccount = accounts.find((account) => account.id === current);
  const save = (value: string | null) => {
    void run(async () => {
      await settingsApi.update({ retained_earnings_account_ids: { [currency.id]: value } });
      invalidate();
      toast(value === null ? `Retained earnings account for ${currency.code} removed` : `Retained earnings account for ${currency.code} saved`);
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(accountId);
  };
  return (
    <tr data-testid="currency-retained-row" data-currency={currency.code}>
      <th scope="row">{currency.code}</th>
      <td>
        {canWrite ? (
          <form className="form form--inline" onSubmit={submit}>
            <AccountSelect label={`Retained earnings account for ${currency.code}`} accounts={accounts} value={accountId} onChange={setAccountId}
              required className="field--grow" filter={(account) => eligible.includes(account)}
              emptyLabel={eligible.length ? 'Not set' : `No eligible ${currency.code} equity account`}
              error={fieldError(error, field)} data-testid="currency-retained-select" />
            <Button type="submit" variant="primary" busy={busy} disabled={!accountId || accountId === current} data-testid="currency-retained-save">Save</Button>
            {current ? <Button onClick={() => save(null)} disabled={busy} data-testid="currency-retained-remove">Remove</Button> : null}
          </form>
        ) : (currentAccount ? accountLabel(currentAccount) : <span className="muted">not set</span>)}
        {error && !fieldError(error, field) ? <ErrorNotice error={error} /> : null}
      </td>
    </tr>
  );
}
