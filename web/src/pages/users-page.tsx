/** Users and service accounts: create, edit permissions, deactivate. API keys are shown once. */
import { type FormEvent, useState } from 'react';
import { users as usersApi } from '../api/endpoints.js';
import { PERMISSION_KEYS, type PermissionKey, type ServiceAccountCreatedView, type UserView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { Badge, Button, Checkbox, Dialog, EmptyState, ErrorNotice, InputField, Loading, Notice, PageHeader } from '../components/ui.js';
import { formatDate } from '../lib/dates.js';
import { fieldError, isFieldError } from '../lib/form-errors.js';
import { toast } from '../lib/toast.js';
import { invalidate, useApi } from '../lib/use-api.js';
import { useSubmit } from '../lib/use-submit.js';

const PERMISSION_TEXT: Record<PermissionKey, string> = {
  admin: 'Everything, including granting admin',
  'currencies:write': 'Create and rename currencies',
  'accounts:write': 'Create and edit accounts',
  'periods:write': 'Create periods',
  'periods:close': 'Close periods',
  'journals:create': 'Post journal entries',
  'journals:reverse': 'Reverse journal entries',
  'settings:write': 'Change settings',
  'users:manage': 'Create and edit users',
  'bank:write': 'Import bank statements, match and reconcile',
  'periods:override': 'Post on or before the lock date, with a reason',
  'rates:write': 'Set exchange rates',
  'events:read': 'Read the change feed (events)',
  'webhooks:manage': 'Manage webhook endpoints',
};

/** Keys only an admin may hand out. */
const ADMIN_ONLY: readonly PermissionKey[] = ['admin', 'users:manage'];

type Permissions = Partial<Record<string, boolean>>;
type DialogState = { kind: 'closed' } | { kind: 'user' } | { kind: 'service' } | { kind: 'edit'; user: UserView } | { kind: 'key'; created: ServiceAccountCreatedView };

function granted(permissions: Permissions): PermissionKey[] {
  return PERMISSION_KEYS.filter((key) => permissions[key] === true);
}

export function UsersPage() {
  const { can, user: me } = useUser();
  const list = useApi('users:all', usersApi.all);
  const [dialog, setDialog] = useState<DialogState>({ kind: 'closed' });
  const close = () => setDialog({ kind: 'closed' });
  const manage = can('users:manage');

  const toggleActive = async (user: UserView) => {
    try {
      await usersApi.update(user.id, { is_active: !user.is_active });
      invalidate();
      toast(`${user.name} ${user.is_active ? 'deactivated' : 'reactivated'}`);
    } catch (error) {
      toast(error instanceof Error ? error.message : 'Could not change the user', 'error');
    }
  };

  return (
    <>
      <PageHeader title="Users" subtitle="People sign in with e-mail and password; service accounts use an API key."
        actions={manage ? (
          <>
            <Button onClick={() => setDialog({ kind: 'service' })} data-testid="service-account-new">New service account</Button>
            <Button variant="primary" onClick={() => setDialog({ kind: 'user' })} data-testid="user-new">New user</Button>
          </>
        ) : undefined} />
      {!manage ? <Notice tone="info">You can see who has access. Changing users needs the users:manage permission.</Notice> : null}
      {list.error ? <ErrorNotice error={list.error} onRetry={list.reload} /> : null}
      {list.loading && !list.data ? <Loading /> : null}
      {list.data && list.data.length === 0 ? <EmptyState title="No users" /> : null}
      {list.data && list.data.length > 0 ? (
        <div className="card card--flush">
          <div className="table-wrap">
            <table className="table table--stack" data-testid="users-table">
              <thead>
                <tr>
                  <th scope="col">Name</th><th scope="col">Kind</th><th scope="col" className="hide-narrow">Permissions</th>
                  <th scope="col">Status</th><th scope="col" className="hide-narrow">Since</th>
                  {manage ? <th scope="col" className="col-actions"><span className="visually-hidden">Actions</span></th> : null}
                </tr>
              </thead>
              <tbody>
                {list.data.map((user) => (
                  <tr key={user.id} data-testid="user-row" data-user-id={user.id} className={user.is_active ? '' : 'row--inactive'}>
                    <td className="cell-key">
                      <strong>{user.name}</strong>{user.id === me.id ? <span className="muted"> (you)</span> : null}
                      <div className="muted small">{user.email ?? ''}</div>
                    </td>
                    <td>{user.user_type === 'human' ? 'Person' : <Badge tone="info">service</Badge>}</td>
                    <td className="hide-narrow">
                      <div className="tags">
                        {granted(user.permissions).length === 0 ? <span className="muted">Read only</span> : null}
                        {granted(user.permissions).map((key) => <Badge key={key} tone={key === 'admin' ? 'warn' : 'neutral'}>{key}</Badge>)}
                      </div>
                    </td>
                    <td>{user.is_active ? <Badge tone="good">active</Badge> : <Badge tone="bad">inactive</Badge>}</td>
                    <td className="hide-narrow muted nowrap">{formatDate(user.created_at)}</td>
                    {manage ? (
                      <td className="col-actions">
                        <div className="row-actions">
                          <Button variant="ghost" className="button--small" onClick={() => setDialog({ kind: 'edit', user })}
                            aria-label={`Edit ${user.name}`} data-testid="user-edit">Edit</Button>
                          {user.id !== me.id ? (
                            <Button variant="ghost" className="button--small" onClick={() => void toggleActive(user)}
                              aria-label={`${user.is_active ? 'Deactivate' : 'Reactivate'} ${user.name}`} data-testid="user-toggle-active">
                              {user.is_active ? 'Deactivate' : 'Reactivate'}
                            </Button>
                          ) : null}
                        </div>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
      <Dialog open={dialog.kind === 'user'} title="New user" onClose={close} data-testid="user-dialog">
        {dialog.kind === 'user' ? <CreateUserForm onDone={close} /> : null}
      </Dialog>
      <Dialog open={dialog.kind === 'service'} title="New service account" onClose={close} data-testid="service-account-dialog">
        {dialog.kind === 'service' ? <CreateServiceAccountForm onDone={close} onCreated={(created) => setDialog({ kind: 'key', created })} /> : null}
      </Dialog>
      <Dialog open={dialog.kind === 'edit'} title={dialog.kind === 'edit' ? `Edit ${dialog.user.name}` : 'Edit user'} onClose={close} data-testid="user-edit-dialog">
        {dialog.kind === 'edit' ? <EditUserForm user={dialog.user} isSelf={dialog.user.id === me.id} onDone={close} /> : null}
      </Dialog>
      <Dialog open={dialog.kind === 'key'} title="API key created" onClose={close} data-testid="api-key-dialog">
        {dialog.kind === 'key' ? <ApiKeyReveal created={dialog.created} onDone={close} /> : null}
      </Dialog>
    </>
  );
}

function PermissionEditor({ value, onChange }: { value: Permissions; onChange: (next: Permissions) => void }) {
  const { can } = useUser();
  const isAdmin = can('admin');
  return (
    <fieldset className="permissions" data-testid="permission-editor">
      <legend className="field__label">Permissions</legend>
      <p className="muted small">Everyone signed in can read. Each write needs its permission.</p>
      <div className="permissions__grid">
        {PERMISSION_KEYS.map((key) => {
          const locked = ADMIN_ONLY.includes(key) && !isAdmin;
          const impliedByAdmin = key !== 'admin' && value.admin === true;
          return (
            <Checkbox key={key} label={<code>{key}</code>} hint={locked ? 'Only an admin can grant this' : PERMISSION_TEXT[key]}
              checked={value[key] === true || impliedByAdmin} disabled={locked || impliedByAdmin}
              onChange={(event) => onChange({ ...value, [key]: event.target.checked })} data-testid={`permission-${key}`} />
          );
        })}
      </div>
    </fieldset>
  );
}

/** Sends every key explicitly so a permission can also be taken away. */
function permissionBody(value: Permissions): Record<string, boolean> {
  return Object.fromEntries(PERMISSION_KEYS.map((key) => [key, value[key] === true]));
}

function CreateUserForm({ onDone }: { onDone: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [permissions, setPermissions] = useState<Permissions>({});
  const { busy, error, run } = useSubmit();
  const tooShort = password !== '' && password.length < 8;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (tooShort) return;
    void run(async () => {
      const created = await usersApi.create({ name: name.trim(), email: email.trim(), password, permissions: permissionBody(permissions) });
      invalidate();
      toast(`${created.name} can now sign in`);
      onDone();
    });
  };

  return (
    <form className="form" onSubmit={submit} data-testid="user-form">
      <InputField label="Name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} autoFocus
        error={fieldError(error, 'name')} data-testid="user-name" />
      <InputField label="E-mail" type="email" value={email} onChange={(event) => setEmail(event.target.value)} required
        error={fieldError(error, 'email')} data-testid="user-email" autoComplete="off" />
      <InputField label="Initial password" type="password" value={password} onChange={(event) => setPassword(event.target.value)} required
        minLength={8} autoComplete="new-password" hint="At least 8 characters. Share it with the person safely."
        error={tooShort ? 'Use at least 8 characters' : fieldError(error, 'password')} data-testid="user-password" />
      <PermissionEditor value={permissions} onChange={setPermissions} />
      {error && !isFieldError(error, ['name', 'email', 'password']) ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} disabled={tooShort} data-testid="user-save">Create user</Button>
      </div>
    </form>
  );
}

function CreateServiceAccountForm({ onDone, onCreated }: { onDone: () => void; onCreated: (created: ServiceAccountCreatedView) => void }) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<Permissions>({});
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const created = await usersApi.createServiceAccount({ name: name.trim(), permissions: permissionBody(permissions) });
      invalidate();
      onCreated(created);
    });
  };

  return (
    <form className="form" onSubmit={submit} data-testid="service-account-form">
      <InputField label="Name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} autoFocus
        placeholder="e.g. Billing integration" error={fieldError(error, 'name')} data-testid="service-account-name" />
      <PermissionEditor value={permissions} onChange={setPermissions} />
      {error && !isFieldError(error, ['name']) ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} data-testid="service-account-save">Create and show key</Button>
      </div>
    </form>
  );
}

function ApiKeyReveal({ created, onDone }: { created: ServiceAccountCreatedView; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.api_key);
      setCopied(true);
    } catch {
      const field = document.getElementById('api-key-value') as HTMLInputElement | null;
      field?.select();
    }
  };
  return (
    <div className="form">
      <Notice tone="warning" title="Copy this key now">It is shown only once. If it is lost, create a new service account.</Notice>
      <label className="field__label" htmlFor="api-key-value">API key for {created.name}</label>
      <div className="copy-row">
        <input id="api-key-value" className="input mono" readOnly value={created.api_key} onFocus={(event) => event.target.select()} data-testid="api-key-value" />
        <Button variant="primary" onClick={() => void copy()} data-testid="api-key-copy">{copied ? 'Copied ✓' : 'Copy'}</Button>
      </div>
      <p className="muted small">Send it as <code>Authorization: Bearer &lt;key&gt;</code>, or to the command line with <code>--api-key</code>.</p>
      <div className="form-actions">
        <Button onClick={onDone} data-testid="api-key-done">I have stored the key</Button>
      </div>
    </div>
  );
}

function EditUserForm({ user, isSelf, onDone }: { user: UserView; isSelf: boolean; onDone: () => void }) {
  const [name, setName] = useState(user.name);
  const [permissions, setPermissions] = useState<Permissions>(user.permissions);
  const [active, setActive] = useState(user.is_active);
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await usersApi.update(user.id, { name: name.trim(), permissions: permissionBody(permissions), is_active: active });
      invalidate();
      toast(`${name.trim()} saved`);
      onDone();
    });
  };

  return (
    <form className="form" onSubmit={submit} data-testid="user-edit-form">
      <InputField label="Name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={200}
        error={fieldError(error, 'name')} data-testid="user-name" />
      {user.email ? <p className="muted">Signs in as {user.email}</p> : null}
      <PermissionEditor value={permissions} onChange={setPermissions} />
      <Checkbox label="Active" hint={isSelf ? 'You cannot deactivate yourself here.' : 'Inactive users cannot sign in or use their API key.'}
        checked={active} disabled={isSelf} onChange={(event) => setActive(event.target.checked)} data-testid="user-active" />
      {error && !isFieldError(error, ['name']) ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} data-testid="user-save">Save</Button>
      </div>
    </form>
  );
}
