/** Settings: the retained earnings account (the only setting), and who you are signed in as. */
import { type FormEvent, useEffect, useState } from 'react';
import { settings as settingsApi } from '../api/endpoints.js';
import { PERMISSION_KEYS } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { AccountSelect } from '../components/pickers.js';
import { Badge, Button, Card, ErrorNotice, Loading, Notice, PageHeader } from '../components/ui.js';
import { fieldError } from '../lib/form-errors.js';
import { accountLabel, useAccounts, useCurrencyMap, useSettings } from '../lib/reference.js';
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
