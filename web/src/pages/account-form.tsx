/** Create, edit and sub-account dialogs for the chart of accounts. */
import { type FormEvent, useEffect, useState } from 'react';
import { accounts as accountsApi } from '../api/endpoints.js';
import type { AccountType, AccountView, CreateAccountInput } from '../api/types.js';
import { ACCOUNT_TYPES } from '../api/types.js';
import { CurrencySelect, TYPE_LABELS } from '../components/pickers.js';
import { Button, Checkbox, Dialog, ErrorNotice, InputField, SelectField } from '../components/ui.js';
import { fieldError, isFieldError } from '../lib/form-errors.js';
import { accountLabel, defaultAccountCurrency, useAccounts, useCurrencies, useSettings } from '../lib/reference.js';
import { toast } from '../lib/toast.js';
import { invalidate } from '../lib/use-api.js';
import { useSubmit } from '../lib/use-submit.js';

export type AccountDialogState =
  | { mode: 'closed' }
  | { mode: 'create' }
  | { mode: 'sub-account'; parent: AccountView }
  | { mode: 'edit'; account: AccountView };

const NORMAL_FOR_TYPE: Record<AccountType, 'debit' | 'credit'> = {
  asset: 'debit', expense: 'debit', liability: 'credit', equity: 'credit', revenue: 'credit',
};

const CREATE_FIELDS = ['account_number', 'name', 'currency_id', 'account_type', 'normal_balance', 'entity_id', 'xbrl_tag', 'parent_id'];

export function AccountDialog({ state, onClose, controlAccounts }:
  { state: AccountDialogState; onClose: () => void; controlAccounts: AccountView[] }) {
  const title = state.mode === 'edit' ? `Edit ${state.account.account_number}` : state.mode === 'sub-account' ? 'New sub-account' : 'New account';
  return (
    <Dialog open={state.mode !== 'closed'} title={title} onClose={onClose} data-testid="account-dialog">
      {state.mode === 'edit' ? <EditAccountForm account={state.account} onDone={onClose} /> : null}
      {state.mode === 'create' ? <CreateAccountForm onDone={onClose} controlAccounts={controlAccounts} /> : null}
      {state.mode === 'sub-account' ? <CreateAccountForm onDone={onClose} controlAccounts={controlAccounts} parent={state.parent} /> : null}
    </Dialog>
  );
}

function CreateAccountForm({ onDone, parent, controlAccounts }: { onDone: () => void; parent?: AccountView; controlAccounts: AccountView[] }) {
  const currencies = useCurrencies();
  const accounts = useAccounts();
  const settings = useSettings();
  const [isSub, setIsSub] = useState(parent !== undefined);
  const [parentId, setParentId] = useState(parent?.id ?? '');
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [currencyId, setCurrencyId] = useState('');
  const [type, setType] = useState<AccountType>('asset');
  const [normal, setNormal] = useState<'debit' | 'credit'>('debit');
  const [control, setControl] = useState(false);
  const [entityId, setEntityId] = useState('');
  const [xbrl, setXbrl] = useState('');
  const { busy, error, run } = useSubmit();

  // The default is the base currency (lib/reference.ts, defaultAccountCurrency), once the lists and
  // the settings are in; a choice made meanwhile stays.
  useEffect(() => {
    // (Should the chart or the settings fail to load, the default is chosen without them.)
    const chart = accounts.data ?? (accounts.error ? [] : undefined);
    const settingsRow = settings.data ?? (settings.error ? null : undefined);
    if (currencyId || !currencies.data || !chart || settingsRow === undefined) return;
    const preferred = defaultAccountCurrency(settingsRow ?? undefined, chart, currencies.data);
    if (preferred) setCurrencyId(preferred);
  }, [currencies.data, accounts.data, accounts.error, settings.data, settings.error, currencyId]);

  const chosenParent = controlAccounts.find((account) => account.id === parentId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateAccountInput = isSub
      ? { account_number: number.trim(), name: name.trim(), parent_id: parentId, entity_id: entityId.trim(), ...(xbrl.trim() ? { xbrl_tag: xbrl.trim() } : {}) }
      : {
        account_number: number.trim(), name: name.trim(), currency_id: currencyId, account_type: type, normal_balance: normal,
        has_subledger: control, ...(xbrl.trim() ? { xbrl_tag: xbrl.trim() } : {}),
      };
    void run(async () => {
      const created = await accountsApi.create(body);
      invalidate();
      toast(`Account ${accountLabel(created)} created`);
      onDone();
    });
  };

  return (
    <form className="form" onSubmit={submit} data-testid="account-create-form">
      {parent === undefined && controlAccounts.length > 0 ? (
        <Checkbox label="Sub-account of a control account" checked={isSub} onChange={(event) => setIsSub(event.target.checked)}
          data-testid="account-is-sub" />
      ) : null}
      {isSub ? (
        <SelectField label="Control account" value={parentId} onChange={(event) => setParentId(event.target.value)} required
          error={fieldError(error, 'parent_id')} data-testid="account-parent"
          hint={chosenParent ? `Inherits ${chosenParent.account_type}, ${chosenParent.normal_balance} balance and currency.` : undefined}>
          <option value="">Choose…</option>
          {controlAccounts.map((account) => <option key={account.id} value={account.id}>{accountLabel(account)}</option>)}
        </SelectField>
      ) : null}
      <div className="form-row">
        <InputField label="Account number" value={number} onChange={(event) => setNumber(event.target.value)} required maxLength={50}
          error={fieldError(error, 'account_number')} autoFocus data-testid="account-number" />
        <InputField label="Name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={200}
          error={fieldError(error, 'name')} data-testid="account-name" />
      </div>
      {isSub ? (
        <InputField label="Entity" value={entityId} onChange={(event) => setEntityId(event.target.value)} required maxLength={200}
          hint="The customer, supplier or other party this sub-account tracks." error={fieldError(error, 'entity_id')}
          data-testid="account-entity" />
      ) : (
        <>
          <div className="form-row">
            <SelectField label="Type" value={type} data-testid="account-type" error={fieldError(error, 'account_type')}
              onChange={(event) => { const next = event.target.value as AccountType; setType(next); setNormal(NORMAL_FOR_TYPE[next]); }}>
              {ACCOUNT_TYPES.map((option) => <option key={option} value={option}>{TYPE_LABELS[option]}</option>)}
            </SelectField>
            <SelectField label="Normal balance" value={normal} onChange={(event) => setNormal(event.target.value as 'debit' | 'credit')}
              error={fieldError(error, 'normal_balance')} data-testid="account-normal-balance">
              <option value="debit">Debit</option>
              <option value="credit">Credit</option>
            </SelectField>
          </div>
          <CurrencySelect label="Currency" currencies={currencies.data} value={currencyId} onChange={setCurrencyId} required
            error={fieldError(error, 'currency_id')} emptyLabel={currencies.data?.length ? undefined : 'No currencies yet'}
            data-testid="account-currency" />
          <Checkbox label="Control account" hint="Holds sub-accounts (customers, suppliers…); entries post to the sub-accounts."
            checked={control} onChange={(event) => setControl(event.target.checked)} data-testid="account-control" />
        </>
      )}
      <InputField label="XBRL tag" value={xbrl} onChange={(event) => setXbrl(event.target.value)} maxLength={200}
        placeholder="e.g. us-gaap:Cash" error={fieldError(error, 'xbrl_tag')} data-testid="account-xbrl" />
      {error && !isFieldError(error, CREATE_FIELDS) ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} data-testid="account-save">Create account</Button>
      </div>
    </form>
  );
}

function EditAccountForm({ account, onDone }: { account: AccountView; onDone: () => void }) {
  const [name, setName] = useState(account.name);
  const [active, setActive] = useState(account.is_active);
  const [xbrl, setXbrl] = useState(account.xbrl_tag ?? '');
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await accountsApi.update(account.id, { name: name.trim(), is_active: active, xbrl_tag: xbrl.trim() === '' ? null : xbrl.trim() });
      invalidate();
      toast(`Account ${account.account_number} saved`);
      onDone();
    });
  };

  return (
    <form className="form" onSubmit={submit} data-testid="account-edit-form">
      <p className="muted">Number, type, currency and normal balance are fixed once an account exists.</p>
      <InputField label="Name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={200}
        error={fieldError(error, 'name')} autoFocus data-testid="account-name" />
      <InputField label="XBRL tag" value={xbrl} onChange={(event) => setXbrl(event.target.value)} maxLength={200}
        error={fieldError(error, 'xbrl_tag')} data-testid="account-xbrl" />
      <Checkbox label="Active" hint="Inactive accounts keep their history but take no new entries."
        checked={active} onChange={(event) => setActive(event.target.checked)} data-testid="account-active" />
      {error && !isFieldError(error, ['name', 'xbrl_tag', 'is_active']) ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} data-testid="account-save">Save</Button>
      </div>
    </form>
  );
}
