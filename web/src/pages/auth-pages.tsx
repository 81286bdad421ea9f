/** The pages before the app: first-run setup, sign-in, and "server unreachable". */
import { type FormEvent, type ReactNode, useState } from 'react';
import { isApiError } from '../api/client.js';
import { useAuth } from '../auth/auth.js';
import { BrandMark } from '../components/layout.js';
import { Button, ErrorNotice, InputField, Notice } from '../components/ui.js';
import { useSubmit } from '../lib/use-submit.js';

function AuthFrame({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <main className="auth" id="main">
      <div className="auth__panel">
        <div className="auth__brand"><BrandMark /> Ledger</div>
        <h1>{title}</h1>
        <p className="auth__subtitle">{subtitle}</p>
        {children}
      </div>
    </main>
  );
}

function fieldError(error: unknown, field: string): string | undefined {
  return isApiError(error) && error.field === field ? error.message : undefined;
}

export function LoginPage({ reason }: { reason?: string | undefined }) {
  const { login } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await login({ email: email.trim(), password });
    });
  };

  return (
    <AuthFrame title="Sign in" subtitle="Keep and review the books.">
      {reason ? <Notice tone="info">{reason}</Notice> : null}
      <form className="form" onSubmit={submit} data-testid="login-form">
        <InputField label="E-mail" type="email" autoComplete="username" required value={email} autoFocus
          onChange={(event) => setEmail(event.target.value)} name="email" data-testid="login-email" />
        <InputField label="Password" type="password" autoComplete="current-password" required value={password}
          onChange={(event) => setPassword(event.target.value)} name="password" data-testid="login-password" />
        {error ? <ErrorNotice error={isApiError(error) && error.status === 401
          ? new Error('The e-mail or password is not right, or the account is inactive.') : error} /> : null}
        <Button type="submit" variant="primary" busy={busy} data-testid="login-submit">Sign in</Button>
      </form>
    </AuthFrame>
  );
}

export function SetupPage() {
  const { setup } = useAuth();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, error, run } = useSubmit();
  const mismatch = confirm !== '' && confirm !== password;
  const tooShort = password !== '' && password.length < 8;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mismatch || tooShort) return;
    void run(async () => {
      await setup({ name: name.trim(), email: email.trim(), password });
    });
  };

  return (
    <AuthFrame title="Set up your ledger" subtitle="Create the first user. It becomes the administrator and can invite others.">
      <form className="form" onSubmit={submit} data-testid="setup-form">
        <InputField label="Your name" required value={name} onChange={(event) => setName(event.target.value)} autoFocus
          autoComplete="name" error={fieldError(error, 'name')} data-testid="setup-name" />
        <InputField label="E-mail" type="email" required value={email} onChange={(event) => setEmail(event.target.value)}
          autoComplete="username" error={fieldError(error, 'email')} data-testid="setup-email" />
        <InputField label="Password" type="password" required value={password} minLength={8}
          onChange={(event) => setPassword(event.target.value)} autoComplete="new-password" hint="At least 8 characters."
          error={tooShort ? 'Use at least 8 characters' : fieldError(error, 'password')} data-testid="setup-password" />
        <InputField label="Repeat password" type="password" required value={confirm}
          onChange={(event) => setConfirm(event.target.value)} autoComplete="new-password"
          error={mismatch ? 'The passwords differ' : undefined} data-testid="setup-password-confirm" />
        {error && !['name', 'email', 'password'].includes(isApiError(error) ? error.field ?? '' : '') ? <ErrorNotice error={error} /> : null}
        <Button type="submit" variant="primary" busy={busy} disabled={mismatch || tooShort} data-testid="setup-submit">
          Create administrator
        </Button>
      </form>
    </AuthFrame>
  );
}

export function UnreachablePage({ message }: { message: string }) {
  const { retry } = useAuth();
  return (
    <AuthFrame title="Cannot reach the server" subtitle={message}>
      <Button variant="primary" onClick={retry}>Try again</Button>
    </AuthFrame>
  );
}

export function FullPageLoading() {
  return (
    <div className="boot" role="status" aria-label="Loading">
      <span className="spinner" aria-hidden="true" />
    </div>
  );
}
