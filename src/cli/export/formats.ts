/**
 * Writers for `ledger export`: hledger journal, Beancount and CSV. Each turns accounts, currencies
 * and entries into text, entry by entry, so an export of any size streams with flat memory.
 * Amounts are written exactly (formatAmount from the money module), never through floats.
 *
 * The company name (a setting) heads the journals: a comment line in hledger's, the `title`
 * option in Beancount's (which Fava and bean-report show). The CSV has no place for it: its first
 * row is the header that spreadsheets and `ledger import` expect, so it carries none.
 */
import { csvField } from '../../domain/export/csv-cell.js';
import { formatAmount } from '../../domain/money/amount.js';
import type { Account, AccountType, Currency } from '../../domain/types.js';
import type { EntryView } from '../../schemas/journal-entry.js';

export interface ExportContext {
  accounts: ReadonlyMap<string, Account>;
  currencies: ReadonlyMap<string, Currency>;
  /** The company_name setting; it is one line without control characters (the setting's rule). */
  companyName: string | null;
}

/** An exchange rate as an export writes it: one unit of `code` is worth `rate` units of `base_code`. */
export interface ExportPrice {
  rate_date: string;
  code: string;
  rate: string;
  base_code: string;
}

export interface ExportFormat {
  header(context: ExportContext): string;
  /** The exchange rates as price directives, written after the header and before the entries; CSV has none. */
  prices?(prices: readonly ExportPrice[]): string;
  entry(entry: EntryView, context: ExportContext): string;
}

const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, ' ').trim();

/** A line's signed amount in major units: debits positive, credits negative. */
function signedDisplay(line: EntryView['lines'][number], scale: number): string {
  return line.debit_amount !== '0'
    ? formatAmount(BigInt(line.debit_amount), scale)
    : formatAmount(-BigInt(line.credit_amount), scale);
}

const HLEDGER_ROOTS: Record<AccountType, string> = {
  asset: 'assets', liability: 'liabilities', equity: 'equity', revenue: 'revenues', expense: 'expenses',
};

function hledgerName(account: Account, accounts: ReadonlyMap<string, Account>): string {
  // Two spaces end an account name in a journal, and ':' separates its parts.
  const part = (a: Account) => oneLine(`${a.account_number} ${a.name}`).replace(/[:;]/g, '-').replace(/\s+/g, ' ');
  const parent = account.parent_id ? accounts.get(account.parent_id) : undefined;
  return [HLEDGER_ROOTS[account.account_type], ...(parent ? [part(parent)] : []), part(account)].join(':');
}

const hledgerCommodity = (code: string) => (/^[A-Za-z]+$/.test(code) ? code : `"${code.replace(/"/g, '')}"`);

export const hledgerFormat: ExportFormat = {
  header({ currencies, companyName }) {
    const lines = [...(companyName === null ? [] : [`; ${companyName}`]),
      '; Exported by ledger. Amounts are exact; debits positive, credits negative.', ''];
    for (const currency of currencies.values()) {
      // hledger wants a decimal mark in a commodity directive: a currency without decimals (JPY) is `1000.`.
      const sample = formatAmount(1000n * 10n ** BigInt(currency.asset_scale), currency.asset_scale);
      lines.push(`commodity ${currency.asset_scale === 0 ? `${sample}.` : sample} ${hledgerCommodity(currency.code)}`);
    }
    return `${lines.join('\n')}\n\n`;
  },
  // hledger's market price directive: `P 2026-01-15 EUR 1.0842 USD` (what -V and -X value with).
  prices(prices) {
    return prices.map((price) => `P ${price.rate_date} ${hledgerCommodity(price.code)} ${price.rate} ${hledgerCommodity(price.base_code)}\n`).join('')
      + (prices.length > 0 ? '\n' : '');
  },
  entry(entry, { accounts, currencies }) {
    const currency = currencies.get(entry.currency_id)!;
    // An empty code keeps a description that starts with "(" from being read as the code.
    const code = entry.reference ? ` (${oneLine(entry.reference).replace(/[()]/g, '')})`
      : oneLine(entry.description).startsWith('(') ? ' ()' : '';
    const head = `${entry.entry_date} *${code} ${oneLine(entry.description).replace(/[;|]/g, ',')}  ; id:${entry.id}, number:${entry.entry_number}, type:${entry.entry_type}`;
    const postings = entry.lines.map((line) =>
      `    ${hledgerName(accounts.get(line.account_id)!, accounts)}  ${signedDisplay(line, currency.asset_scale)} ${hledgerCommodity(currency.code)}`);
    return `${[head, ...postings].join('\n')}\n\n`;
  },
};

const BEANCOUNT_ROOTS: Record<AccountType, string> = {
  asset: 'Assets', liability: 'Liabilities', equity: 'Equity', revenue: 'Income', expense: 'Expenses',
};

/** Beancount name parts start with a capital letter or digit and hold only letters, digits and dashes. */
function beancountPart(account: Account): string {
  const cleaned = `${account.account_number}-${account.name}`.replace(/[^A-Za-z0-9-]+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '');
  return /^[A-Z0-9]/.test(cleaned) ? cleaned : `A${cleaned}`;
}

function beancountName(account: Account, accounts: ReadonlyMap<string, Account>): string {
  const parent = account.parent_id ? accounts.get(account.parent_id) : undefined;
  return [BEANCOUNT_ROOTS[account.account_type], ...(parent ? [beancountPart(parent)] : []), beancountPart(account)].join(':');
}

export function beancountCurrency(code: string): string {
  const upper = code.toUpperCase().replace(/[^A-Z0-9'._-]/g, '');
  const started = /^[A-Z]/.test(upper) ? upper : `C${upper}`;
  return /[A-Z0-9]$/.test(started) ? started : `${started}X`;
}

const quoted = (text: string) => `"${oneLine(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export const beancountFormat: ExportFormat = {
  header({ accounts, currencies, companyName }) {
    const lines = ['; Exported by ledger. Amounts are exact; debits positive, credits negative.',
      `option "title" ${quoted(companyName ?? 'ledger export')}`, ''];
    for (const account of accounts.values()) {
      if (account.has_subledger) continue;
      lines.push(`1970-01-01 open ${beancountName(account, accounts)} ${beancountCurrency(currencies.get(account.currency_id)!.code)}`);
    }
    return `${lines.join('\n')}\n\n`;
  },
  // Beancount's price directive: `2026-01-15 price EUR 1.0842 USD`.
  prices(prices) {
    return prices.map((price) => `${price.rate_date} price ${beancountCurrency(price.code)} ${price.rate} ${beancountCurrency(price.base_code)}\n`).join('')
      + (prices.length > 0 ? '\n' : '');
  },
  entry(entry, { accounts, currencies }) {
    const currency = currencies.get(entry.currency_id)!;
    const head = `${entry.entry_date} * ${quoted(entry.description)}`;
    const meta = [`  id: ${quoted(entry.id)}`, `  entry_number: ${entry.entry_number}`, `  entry_type: ${quoted(entry.entry_type)}`,
      ...(entry.reference ? [`  reference: ${quoted(entry.reference)}`] : [])];
    const postings = entry.lines.map((line) =>
      `  ${beancountName(accounts.get(line.account_id)!, accounts)}  ${signedDisplay(line, currency.asset_scale)} ${beancountCurrency(currency.code)}`);
    return `${[head, ...meta, ...postings].join('\n')}\n\n`;
  },
};

const CSV_HEADER = ['entry_id', 'entry_number', 'entry_date', 'entry_type', 'description', 'reference', 'line_id', 'account_id', 'account_number',
  'account_name', 'currency', 'debit_amount', 'credit_amount', 'display_debit', 'display_credit', 'line_description'];


export const csvFormat: ExportFormat = {
  header() {
    return `${CSV_HEADER.join(',')}\n`;
  },
  entry(entry, { currencies }) {
    const code = currencies.get(entry.currency_id)!.code;
    return entry.lines.map((line) => [entry.id, entry.entry_number, entry.entry_date, entry.entry_type, entry.description, entry.reference, line.id,
      line.account_id, line.account_number, line.account_name, code, line.debit_amount, line.credit_amount, line.display_debit,
      line.display_credit, line.description].map(csvField).join(',')).join('\n') + '\n';
  },
};

export const EXPORT_FORMATS = { hledger: hledgerFormat, beancount: beancountFormat, csv: csvFormat } as const;
export type ExportFormatName = keyof typeof EXPORT_FORMATS;
