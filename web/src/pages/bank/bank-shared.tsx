/** What the bank pages share: which accounts hold statements, amounts with their currency, the last account used. */
import type { AccountView, BankLineView, CurrencyView } from '../../api/types.js';
import { AccountSelect } from '../../components/pickers.js';
import { Money } from '../../components/ui.js';
import { formatDate } from '../../lib/dates.js';
import { absolute, displayMinor, parseAmountInput, type ParsedAmount } from '../../lib/money.js';
import { isPostingAccount, useAccounts, useCurrencyMap } from '../../lib/reference.js';

/** Accounts a statement can be imported into (CONTRACT.md): active asset or liability posting accounts. */
export function isBankAccount(account: AccountView): boolean {
  return isPostingAccount(account) && (account.account_type === 'asset' || account.account_type === 'liability');
}

export function useBankAccounts(): { accounts: AccountView[] | undefined; error: unknown; reload: () => void } {
  const { data, error, reload } = useAccounts();
  return { accounts: data?.filter(isBankAccount), error, reload };
}

/** The account and its currency (scale and code), once both lists are loaded. */
export function useAccountAndCurrency(accountId: string | undefined): { account: AccountView | undefined; currency: CurrencyView | undefined } {
  const { data } = useAccounts();
  const currencies = useCurrencyMap();
  const account = accountId ? data?.find((row) => row.id === accountId) : undefined;
  return { account, currency: account ? currencies.get(account.currency_id) : undefined };
}

export function BankAccountSelect({ value, onChange, label = 'Bank or card account', ...rest }:
  { value: string; onChange: (value: string) => void; label?: string; 'data-testid'?: string; error?: string | undefined; hint?: string }) {
  const { data } = useAccounts();
  return (
    <AccountSelect label={label} accounts={data} value={value} onChange={onChange} filter={isBankAccount}
      emptyLabel="Choose a bank or card account…" {...rest} />
  );
}

const LAST_ACCOUNT_KEY = 'ledger.bank.account';

/** The bank account last worked on, so that /bank opens on it. */
export function lastBankAccount(): string | null {
  try {
    return localStorage.getItem(LAST_ACCOUNT_KEY);
  } catch {
    return null;
  }
}

export function rememberBankAccount(accountId: string): void {
  try {
    localStorage.setItem(LAST_ACCOUNT_KEY, accountId);
  } catch {
    // Storage full or denied: the page still works, it only forgets.
  }
}

/** An amount with its currency's code, formatted by the app's money module. */
export function Amount({ value, currency, className, testId }:
  { value: string | bigint; currency: CurrencyView | undefined; className?: string; testId?: string }) {
  return (
    <span className={`amount ${className ?? ''}`} data-testid={testId}>
      <Money value={value} display={displayMinor(value, currency?.asset_scale ?? 0)} />
      {currency ? <span className="unit"> {currency.code}</span> : null}
    </span>
  );
}

/** The size of a bank line's amount, for an "In" or "Out" column (the column gives the sign). */
export function unsignedDisplay(value: string | bigint, currency: CurrencyView | undefined): string {
  return displayMinor(absolute(BigInt(value)), currency?.asset_scale ?? 0);
}

/** "3 Mar 2026 · Kaffee Bohne · -3.40 EUR": a bank line named in a message. */
export function describeLine(line: BankLineView, currency: CurrencyView | undefined): string {
  return `${formatDate(line.posted_date)} · ${line.description} · ${displayMinor(line.amount, currency?.asset_scale ?? 0)}${currency ? ` ${currency.code}` : ''}`;
}

/**
 * A signed amount typed in major units (a statement balance can be overdrawn): a leading minus,
 * then what `parseAmountInput` reads in the browser's number format, exactly.
 */
export function parseSignedAmountInput(text: string, currency: CurrencyView | undefined): ParsedAmount {
  const trimmed = text.trim();
  const negative = /^[-\u2212]/.test(trimmed);
  const parsed = parseAmountInput(negative ? trimmed.slice(1) : trimmed, currency?.asset_scale ?? 0,
    currency ? { currency: { code: currency.code, symbol: currency.symbol } } : {});
  if (!parsed.ok || parsed.minor === null || !negative) return parsed;
  return { ok: true, minor: -parsed.minor };
}
