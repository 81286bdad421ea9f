/** Pickers for the things most forms and filters refer to: periods, currencies, accounts. */
import {
  type InputHTMLAttributes, type KeyboardEvent, type ReactNode, type SelectHTMLAttributes, useEffect, useId, useMemo, useRef, useState,
} from 'react';
import { ACCOUNT_TYPES, type AccountView, type CurrencyView, type PeriodView } from '../api/types.js';
import { prepareAccounts, searchAccounts } from '../lib/account-search.js';
import { formatRange } from '../lib/dates.js';
import { accountLabel } from '../lib/reference.js';
import { Field, SelectField } from './ui.js';

type BaseProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  emptyLabel?: string;
};

export const TYPE_LABELS: Record<AccountView['account_type'], string> = {
  asset: 'Assets', liability: 'Liabilities', equity: 'Equity', revenue: 'Revenue', expense: 'Expenses',
};

/** Periods, newest first, each with its dates; the field is as wide as its longest option, so names show whole. */
export function PeriodSelect({ periods, value, onChange, emptyLabel = 'All time', className, ...rest }:
  BaseProps & { periods: readonly PeriodView[] | undefined }) {
  return (
    <SelectField value={value} onChange={(event) => onChange(event.target.value)} className={`field--period ${className ?? ''}`} {...rest}>
      <option value="">{emptyLabel}</option>
      {[...(periods ?? [])].reverse().map((period) => (
        <option key={period.id} value={period.id}>
          {period.name} ({formatRange(period.start_date, period.end_date)}){period.status === 'closed' ? ' · closed' : ''}
        </option>
      ))}
    </SelectField>
  );
}

export function CurrencySelect({ currencies, value, onChange, emptyLabel, ...rest }: BaseProps & { currencies: readonly CurrencyView[] | undefined }) {
  return (
    <SelectField value={value} onChange={(event) => onChange(event.target.value)} {...rest}>
      {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
      {(currencies ?? []).map((currency) => (
        <option key={currency.id} value={currency.id}>{currency.code} · {currency.name}</option>
      ))}
    </SelectField>
  );
}

/** Accounts grouped by type; sub-accounts are listed under their control account. */
export function AccountSelect({ accounts, value, onChange, emptyLabel = 'Choose an account…', filter, ...rest }:
  BaseProps & { accounts: readonly AccountView[] | undefined; filter?: (account: AccountView) => boolean }) {
  const rows = (accounts ?? []).filter((account) => (filter ? filter(account) : true) || account.id === value);
  const byParent = new Map<string | null, AccountView[]>();
  for (const account of accounts ?? []) {
    const key = account.parent_id;
    byParent.set(key, [...(byParent.get(key) ?? []), account]);
  }
  const visible = new Set(rows.map((account) => account.id));
  return (
    <SelectField value={value} onChange={(event) => onChange(event.target.value)} {...rest}>
      <option value="">{emptyLabel}</option>
      {ACCOUNT_TYPES.map((type) => {
        const top = (byParent.get(null) ?? []).filter((account) => account.account_type === type);
        const options: ReactNode[] = [];
        for (const account of top) {
          const children = (byParent.get(account.id) ?? []).filter((child) => visible.has(child.id));
          if (visible.has(account.id)) {
            options.push(<option key={account.id} value={account.id}>{accountLabel(account)}{account.is_active ? '' : ' (inactive)'}</option>);
          } else if (children.length > 0) {
            options.push(<option key={account.id} value="" disabled>{accountLabel(account)} (control)</option>);
          }
          for (const child of children) {
            options.push(
              <option key={child.id} value={child.id}>{'\u00a0\u00a0\u00a0'}{accountLabel(child)}{child.is_active ? '' : ' (inactive)'}</option>,
            );
          }
        }
        return options.length > 0 ? <optgroup key={type} label={TYPE_LABELS[type]}>{options}</optgroup> : null;
      })}
    </SelectField>
  );
}

/** At most this many matches are rendered; the rest are a "refine your search" away. */
export const ACCOUNT_PICKER_LIMIT = 50;

type AccountPickerProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'children'> & {
  label: ReactNode;
  accounts: readonly AccountView[] | undefined;
  value: string;
  onChange: (value: string) => void;
  /** Which accounts are offered; the chosen one is still shown when it no longer passes. */
  filter?: (account: AccountView) => boolean;
  error?: string | undefined;
  hint?: ReactNode;
};

/**
 * An account picker for charts of any size, in the ARIA 1.2 combobox pattern: typing a number or
 * part of a name filters the list; Arrow keys move through it, Enter (or Tab) takes the
 * highlighted account, Escape closes the list and then restores the chosen account. Only the
 * first ACCOUNT_PICKER_LIMIT matches are rendered, with a note to refine the search, so a chart of
 * thousands stays quick. Emptying the field and leaving it clears the choice.
 */
export function AccountPicker({ label, accounts, value, onChange, filter, error, hint, className, onBlur, onFocus, onKeyDown, ...rest }:
  AccountPickerProps) {
  const listId = useId();
  const statusId = `${listId}-status`;
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listRef = useRef<HTMLUListElement>(null);

  const chosen = accounts?.find((account) => account.id === value);
  const chosenLabel = chosen ? accountLabel(chosen) : '';
  const searchable = useMemo(() => prepareAccounts(accounts ?? []), [accounts]);
  // While the field still shows the chosen account, the list offers everything (Arrow Down browses).
  const searchText = query === null || query === chosenLabel ? '' : query;
  // A closed list searches nothing, so a form with many lines costs nothing per keystroke elsewhere.
  const matches = open ? searchAccounts(searchable, searchText, ACCOUNT_PICKER_LIMIT, filter) : { shown: [], total: 0 };
  const activeAccount = open ? matches.shown[active] : undefined;

  useEffect(() => {
    if (!open || active < 0) return;
    listRef.current?.children[active]?.scrollIntoView({ block: 'nearest' });
  }, [open, active]);

  const choose = (account: AccountView) => {
    onChange(account.id);
    setQuery(null);
    setOpen(false);
    setActive(-1);
  };
  const openList = () => {
    setOpen(true);
    const everything = searchAccounts(searchable, '', ACCOUNT_PICKER_LIMIT, filter).shown;
    setActive(Math.max(0, everything.findIndex((account) => account.id === value)));
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    onKeyDown?.(event);
    if (event.defaultPrevented) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) { openList(); return; }
      const last = matches.shown.length - 1;
      setActive((current) => (event.key === 'ArrowDown' ? Math.min(current + 1, last) : Math.max(current - 1, 0)));
    } else if (event.key === 'Enter') {
      // Enter picks from an open list; it never submits the form from there.
      if (!open) return;
      event.preventDefault();
      if (activeAccount) choose(activeAccount);
    } else if (event.key === 'Escape') {
      if (open) { event.preventDefault(); event.stopPropagation(); setOpen(false); }
      else if (query !== null) { event.preventDefault(); event.stopPropagation(); setQuery(null); }
    } else if (event.key === 'Tab') {
      if (activeAccount && searchText !== '') choose(activeAccount);
    }
  };

  return (
    <Field label={label} error={error} hint={hint} className={`combobox ${className ?? ''}`}>
      {({ id, describedBy: fieldDescribedBy, invalid }) => (
        <>
          <input id={id} className="input" type="text" role="combobox" autoComplete="off" spellCheck={false}
            aria-autocomplete="list" aria-expanded={open} aria-controls={listId}
            aria-activedescendant={activeAccount ? `${listId}-${activeAccount.id}` : undefined}
            aria-describedby={[fieldDescribedBy, open ? statusId : ''].filter(Boolean).join(' ') || undefined} aria-invalid={invalid || undefined}
            placeholder="Number or name…"
            {...rest}
            value={query ?? chosenLabel}
            onFocus={(event) => { event.target.select(); onFocus?.(event); }}
            onChange={(event) => {
              setQuery(event.target.value);
              setOpen(true);
              setActive(event.target.value.trim() === '' ? -1 : 0);
            }}
            onClick={() => { if (!open) openList(); }}
            onKeyDown={handleKeyDown}
            onBlur={(event) => {
              setOpen(false);
              if (query !== null && query.trim() === '' && value !== '') onChange('');
              setQuery(null);
              onBlur?.(event);
            }} />
          {/* Pressing the mouse anywhere in the list (its scroll bar too) keeps the focus in the field. */}
          <div className="combobox__popup" hidden={!open} onMouseDown={(event) => event.preventDefault()}>
            <ul ref={listRef} id={listId} role="listbox" className="combobox__list" hidden={matches.shown.length === 0}
              aria-label="Matching accounts">
              {open ? matches.shown.map((account, index) => (
                <li key={account.id} id={`${listId}-${account.id}`} role="option" aria-selected={index === active}
                  className={`combobox__option ${index === active ? 'combobox__option--active' : ''}`} data-account-id={account.id}
                  onClick={() => choose(account)} onMouseMove={() => setActive(index)}>
                  <span className="combobox__label">{accountLabel(account)}</span>{' '}
                  <span className="combobox__type">{TYPE_LABELS[account.account_type]}{account.parent_id ? ' · sub-account' : ''}</span>
                </li>
              )) : null}
            </ul>
            <p id={statusId} className="combobox__status" role="status" data-testid="account-picker-status">
              {!open ? '' : matches.total === 0 ? (searchText === '' ? 'No accounts to choose from' : `No account matches "${searchText}"`)
                : matches.total > matches.shown.length
                  ? `Showing ${matches.shown.length} of ${matches.total.toLocaleString()} accounts; type more of the number or name to refine your search`
                  : `${matches.total} account${matches.total === 1 ? '' : 's'}`}
            </p>
          </div>
        </>
      )}
    </Field>
  );
}
