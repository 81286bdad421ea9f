/** Selects for the things most forms and filters refer to: periods, currencies, accounts. */
import type { ReactNode, SelectHTMLAttributes } from 'react';
import { ACCOUNT_TYPES, type AccountView, type CurrencyView, type PeriodView } from '../api/types.js';
import { formatRange } from '../lib/dates.js';
import { accountLabel } from '../lib/reference.js';
import { SelectField } from './ui.js';

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
