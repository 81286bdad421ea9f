/**
 * The audit trail's vocabulary: the closed set of actions, what one record holds, and the pure
 * diff that turns an update into `{ field: { old, new } }`. Records are written by the service in
 * the same transaction as the change they describe and are never changed afterwards.
 */

export const AUDIT_ACTIONS = [
  'currency.create', 'currency.update',
  'account.create', 'account.update', 'account.delete',
  'period.create', 'period.close', 'period.delete',
  'journal_entry.create', 'journal_entry.reverse',
  'settings.update',
  'user.create', 'service_account.create', 'service_account.key_rotate', 'user.update',
  'auth.login', 'auth.login_failed', 'auth.refresh', 'auth.refresh_reused', 'auth.logout', 'auth.logout_all',
  'auth.password_change',
  'bank_statement.import', 'bank_line.post', 'bank_line.match', 'bank_line.exclude', 'bank_line.unmatch',
  'bank_rule.create', 'bank_rule.update', 'bank_rule.delete',
  'reconciliation.create', 'reconciliation.clear', 'reconciliation.unclear', 'reconciliation.finish',
  'exchange_rate.set',
  'webhook_endpoint.create', 'webhook_endpoint.update', 'webhook_endpoint.delete', 'webhook_endpoint.rotate_secret',
  'webhook_endpoint.replay', 'webhook_endpoint.disable',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

export const AUDIT_TARGET_TYPES = ['currency', 'account', 'period', 'journal_entry', 'settings', 'user', 'bank_statement', 'bank_line',
  'bank_rule', 'reconciliation', 'exchange_rate', 'webhook_endpoint'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/**
 * The user id the command line's local operator acts under (an entry's `created_by`); it is no
 * user, so its audit records name no actor (`actor_id` null).
 */
export const LOCAL_OPERATOR_ID = 'local-operator';

/** How the actor proved who it is: an API key, or a login session (its refresh-token family). */
export type CredentialType = 'api_key' | 'session';

export interface FieldChange {
  old: unknown;
  new: unknown;
}

/** Changed fields of one record: old and new values (a create has `old: null` throughout). */
export type FieldChanges = Record<string, FieldChange>;

export interface AuditRecord {
  /** UUIDv7. */
  id: string;
  /** ISO 8601 UTC; the record's place in the log is (occurred_at, id). */
  occurred_at: string;
  /** The user who acted; null when nobody authenticated (the local operator, a failed login, the first-user setup). */
  actor_id: string | null;
  credential_type: CredentialType | null;
  /** The API key's id or the session's id (never the key or token itself); null when unknown. */
  credential_id: string | null;
  /** The HTTP request's id; null from the command line. */
  request_id: string | null;
  action: AuditAction;
  target_type: AuditTargetType | null;
  target_id: string | null;
  changes: FieldChanges | null;
  /** Its hash in the audit chain (read from its seal); null when appended and until it is sealed, right after commit. */
  hash: string | null;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Values are JSON data (permissions objects at most), so their JSON text compares them.
  return typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b);
}

/** The listed fields whose value differs between `before` and `after`, with both values. */
export function fieldChanges<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]): FieldChanges {
  const changes: FieldChanges = {};
  for (const field of fields) {
    if (!sameValue(before[field], after[field])) changes[field] = { old: before[field], new: after[field] };
  }
  return changes;
}

/** A created record's listed fields, each as a change from null. */
export function initialValues<T extends object>(created: T, fields: readonly (keyof T & string)[]): FieldChanges {
  const changes: FieldChanges = {};
  for (const field of fields) changes[field] = { old: null, new: created[field] };
  return changes;
}

/** What a posted entry's audit record is read from: the entry's own columns. */
export interface PostedEntry {
  id: string;
  posted_at: string;
  /** Standard entries record `journal_entry.create`, reversals `journal_entry.reverse`; closing entries are part of their close. */
  entry_type: 'standard' | 'reversal';
  reverses_id: string | null;
  created_by: string | null;
  credential_type: CredentialType | null;
  credential_id: string | null;
  request_id: string | null;
  override_reason: string | null;
  /** The entry's hash in its currency's chain, which covers every field above. */
  hash: string;
}

/** Whether an entry is a record of the audit log (postingRecord): a post since entries say who posted them, not a closing entry. */
export function isPostingRecord(entry: { hash_version: number; entry_type: string }): boolean {
  return entry.hash_version === 2 && (entry.entry_type === 'standard' || entry.entry_type === 'reversal');
}

/**
 * The audit record an entry posted since hash version 2 is (docs/audit.md, "Posts"): the same
 * record the post used to append to the log, read from the entry. Its id is the entry's id, its
 * time the entry's posted_at and its hash the entry's chain hash. A standard entry is
 * `journal_entry.create` of itself; a reversal is `journal_entry.reverse` of the entry it reverses,
 * whose reversed_by_id went from null to the reversal. An override reason is a change from null.
 */
export function postingRecord(entry: PostedEntry): AuditRecord {
  const override: FieldChanges = entry.override_reason === null ? {} : { override_reason: { old: null, new: entry.override_reason } };
  const reversal = entry.entry_type === 'reversal';
  return {
    id: entry.id,
    occurred_at: entry.posted_at,
    actor_id: entry.created_by === LOCAL_OPERATOR_ID ? null : entry.created_by,
    credential_type: entry.credential_type,
    credential_id: entry.credential_id,
    request_id: entry.request_id,
    action: reversal ? 'journal_entry.reverse' : 'journal_entry.create',
    target_type: 'journal_entry',
    target_id: reversal ? entry.reverses_id : entry.id,
    changes: reversal
      ? { reversed_by_id: { old: null, new: entry.id }, ...override }
      : (entry.override_reason === null ? null : override),
    hash: entry.hash,
  };
}
