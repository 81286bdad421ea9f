/**
 * The wire shapes of every resource: amounts as integer strings beside their `display_*`
 * formatting. The HTTP API and the CLI's --json print exactly these.
 */
import { formatAmount } from '../domain/money/amount.js';
import type { JournalEntryView, JournalLineView, User } from '../domain/types.js';
import type { AccountLine } from './ports/ledger-store.js';
import type { EntryView } from '../schemas/journal-entry.js';
import type { UserView } from '../schemas/user.js';

export function lineView(line: JournalLineView, scale: number) {
  return {
    id: line.id,
    account_id: line.account_id,
    account_number: line.account_number,
    account_name: line.account_name,
    debit_amount: line.debit_amount.toString(),
    credit_amount: line.credit_amount.toString(),
    display_debit: formatAmount(line.debit_amount, scale),
    display_credit: formatAmount(line.credit_amount, scale),
    description: line.description,
  };
}

export function entryView(entry: JournalEntryView, scale: number): EntryView {
  return {
    id: entry.id,
    entry_date: entry.entry_date,
    description: entry.description,
    reference: entry.reference,
    metadata: entry.metadata,
    period_id: entry.period_id,
    entry_type: entry.entry_type,
    reverses_id: entry.reverses_id,
    reversed_by_id: entry.reversed_by_id,
    created_by: entry.created_by,
    posted_at: entry.posted_at,
    currency_id: entry.currency_id,
    entry_number: entry.entry_number,
    override_reason: entry.override_reason,
    hash_version: entry.hash_version,
    credential_type: entry.credential_type,
    credential_id: entry.credential_id,
    request_id: entry.request_id,
    previous_hash: entry.previous_hash,
    hash: entry.hash,
    lines: entry.lines.map((line) => lineView(line, scale)),
  };
}

/** A user as shown to clients: never a password or key hash. */
export function userView(user: User): UserView {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    user_type: user.user_type,
    permissions: user.permissions,
    is_active: user.is_active,
    created_at: user.created_at,
  };
}

/** The fields an account's line shows in /transactions and in the general ledger. */
export function accountLineView(line: AccountLine, scale: number) {
  return {
    line_id: line.id,
    journal_entry_id: line.journal_entry_id,
    entry_number: line.entry_number,
    entry_date: line.entry_date,
    description: line.entry_description,
    line_description: line.description,
    reference: line.reference,
    account_id: line.account_id,
    account_number: line.account_number,
    debit_amount: line.debit_amount.toString(),
    credit_amount: line.credit_amount.toString(),
    display_debit: formatAmount(line.debit_amount, scale),
    display_credit: formatAmount(line.credit_amount, scale),
  };
}
