/** The small set of building blocks every page uses: buttons, fields, notices, dialogs. */
import {
  type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes,
  useEffect, useId, useRef,
} from 'react';
import { isApiError } from '../api/client.js';
import { Link } from '../lib/router.js';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export function Button({ variant = 'secondary', busy = false, className, children, disabled, type, ...rest }:
  ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button type={type ?? 'button'} className={`button button--${variant} ${className ?? ''}`} disabled={disabled || busy}
      aria-busy={busy || undefined} {...rest}>
      {busy ? <span className="spinner spinner--inline" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

export function ButtonLink({ to, variant = 'secondary', children, ...rest }:
  { to: string; variant?: Variant; children: ReactNode; 'data-testid'?: string }) {
  return <Link to={to} className={`button button--${variant}`} {...rest}>{children}</Link>;
}

interface FieldProps {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
  className?: string;
}

/** A label, its control, a hint and an error message, wired together for assistive technology. */
export function Field({ label, error, hint, children, className }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${error ? 'field--invalid' : ''} ${className ?? ''}`}>
      <label htmlFor={id} className="field__label">{label}</label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint ? <p id={hintId} className="field__hint">{hint}</p> : null}
      {error ? <p id={errorId} className="field__error" role="alert">{error}</p> : null}
    </div>
  );
}

type InputFieldProps = InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; error?: string | undefined; hint?: ReactNode };

export function InputField({ label, error, hint, className, ...rest }: InputFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {({ id, describedBy, invalid }) => (
        <input id={id} className="input" aria-describedby={describedBy} aria-invalid={invalid || undefined} {...rest} />
      )}
    </Field>
  );
}

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & { label: ReactNode; error?: string | undefined; hint?: ReactNode };

export function SelectField({ label, error, hint, className, children, ...rest }: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {({ id, describedBy, invalid }) => (
        <select id={id} className="input select" aria-describedby={describedBy} aria-invalid={invalid || undefined} {...rest}>
          {children}
        </select>
      )}
    </Field>
  );
}

export function Checkbox({ label, hint, ...rest }: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className="checkbox">
      <input id={id} type="checkbox" {...rest} />
      <label htmlFor={id}>
        {label}
        {hint ? <span className="checkbox__hint">{hint}</span> : null}
      </label>
    </div>
  );
}

export function PageHeader({ title, subtitle, actions, children }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; children?: ReactNode }) {
  return (
    <header className="page-header">
      <div className="page-header__text">
        <h1>{title}</h1>
        {subtitle ? <p className="page-header__subtitle">{subtitle}</p> : null}
        {children}
      </div>
      {actions ? <div className="page-header__actions no-print">{actions}</div> : null}
    </header>
  );
}

export function Card({ title, actions, children, className, ...rest }:
  { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string; 'data-testid'?: string }) {
  return (
    <section className={`card ${className ?? ''}`} {...rest}>
      {title || actions ? (
        <div className="card__header">
          {title ? <h2 className="card__title">{title}</h2> : <span />}
          {actions ? <div className="card__actions no-print">{actions}</div> : null}
        </div>
      ) : null}
      {children}
    </section>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty__title">{title}</p>
      {children ? <div className="empty__body">{children}</div> : null}
    </div>
  );
}

/** Explains a failed request: permissions get their own wording, everything else the API's message. */
export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: (() => void) | undefined }) {
  if (!error) return null;
  let title = 'Something went wrong';
  let message = error instanceof Error ? error.message : String(error);
  let suggestion: string | undefined;
  if (isApiError(error)) {
    suggestion = error.suggestion;
    if (error.status === 403) title = 'You do not have permission to do this';
    else if (error.status === 404) title = 'Not found';
    else if (error.status === 0) title = 'Server unreachable';
    else if (error.status === 429) title = 'Too many attempts';
    else if (error.status >= 500) title = 'The server had a problem';
    else title = describeCode(error.code);
  }
  return (
    <div className={`notice notice--error ${isApiError(error) && error.status === 403 ? 'notice--forbidden' : ''}`} role="alert" data-testid="error-notice">
      <p className="notice__title">{title}</p>
      <p>{message}</p>
      {suggestion ? <p className="notice__hint">{suggestion}</p> : null}
      {onRetry ? <Button variant="secondary" onClick={onRetry}>Try again</Button> : null}
    </div>
  );
}

export function describeCode(code: string): string {
  const titles: Record<string, string> = {
    VALIDATION_ERROR: 'Please check the input',
    UNBALANCED_ENTRY: 'The entry does not balance',
    INACTIVE_ACCOUNT: 'Inactive account',
    CURRENCY_MISMATCH: 'Currencies do not match',
    CONTROL_ACCOUNT: 'Control account',
    NO_OPEN_PERIOD: 'No open period for this date',
    RETAINED_EARNINGS_NOT_SET: 'Retained earnings account not set',
    DUPLICATE: 'Already exists',
    PERIOD_OVERLAP: 'Periods overlap',
    REVERSAL_NOT_ALLOWED: 'Cannot be reversed',
    PERIOD_CLOSED: 'Period already closed',
  };
  return titles[code] ?? 'The request was refused';
}

export function Notice({ tone = 'info', title, children, ...rest }:
  { tone?: 'info' | 'warning' | 'success'; title?: ReactNode; children?: ReactNode; 'data-testid'?: string }) {
  return (
    <div className={`notice notice--${tone}`} role={tone === 'warning' ? 'alert' : 'status'} {...rest}>
      {title ? <p className="notice__title">{title}</p> : null}
      {children}
    </div>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'info'; children: ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}

interface DialogProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  'data-testid'?: string;
}

/**
 * A modal built on the native <dialog>: focus is trapped and Escape closes it. A click on the
 * backdrop does not close it, so a half-filled form is not lost by a stray click.
 */
export function Dialog({ open, title, onClose, children, footer, wide, ...rest }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className={`dialog ${wide ? 'dialog--wide' : ''}`} aria-labelledby={titleId}
      onCancel={(event) => { event.preventDefault(); onClose(); }} {...rest}>
      {open ? (
        <div className="dialog__frame">
          <div className="dialog__header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>×</button>
          </div>
          <div className="dialog__body">{children}</div>
          {footer ? <div className="dialog__footer">{footer}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}

/**
 * An amount, with tabular figures; negatives are marked. It never wraps on screen, except where a
 * caller lets it (an original figure set under an account's name). Each group of digits is an
 * inline block, so that on paper, where the print sheet lets the amounts of a very wide table
 * wrap, an amount wider than its column breaks only after a group separator, never inside a group,
 * rather than being cut at the sheet's edge. (A `<wbr>` would not do: Chromium breaks at one even where wrapping is off.)
 */
export function Money({ value, display, className }: { value?: string | bigint; display: string; className?: string }) {
  const negative = value !== undefined ? BigInt(value) < 0n : display.startsWith('-');
  const groups = display.split(',');
  return (
    <span className={`money ${negative ? 'money--negative' : ''} ${className ?? ''}`}>
      {groups.length === 1 ? display : groups.map((group, index) => (
        <span key={index} className="money__group">{index < groups.length - 1 ? `${group},` : group}</span>
      ))}
    </span>
  );
}

/**
 * The class of a figure's card (.stat): one whose amount is too long for a quarter or a third of
 * a desktop row takes the whole row, so that it shows whole instead of scrolling inside its card
 * (an amount cut after a few digits reads as a smaller one). Lengths are of the grouped amount:
 * 17 characters hold a dollar amount in the tens of billions in the large figures (a negative one
 * of 18 was cut by 4 px at 1440 px), 24 in the small.
 */
export function statClass(display: string | undefined, size: 'large' | 'small' = 'large'): string {
  const longest = size === 'large' ? 17 : 24;
  return display !== undefined && display.length > longest ? 'stat stat--wide' : 'stat';
}
