import Type, { type Static } from 'typebox';
import { Amount, AmountInput, DateString, DisplayAmount, Id, NonEmpty, Nullable, PageQuery, Timestamp } from './common.js';
import { MetadataInput } from './metadata.js';

export const LineInput = Type.Object({
  account_id: Id,
  debit_amount: Type.Optional(Nullable(AmountInput)),
  credit_amount: Type.Optional(Nullable(AmountInput)),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
}, { additionalProperties: false });

/** Why an entry dated on or before the lock date is posted anyway (needs periods:override); kept on the entry. */
export const OverrideReason = Nullable(Type.String({
  maxLength: 1000,
  description: 'Needed (non-empty, with the permission periods:override) when the entry is dated on or before the lock date; kept on the entry and in the audit log, ignored otherwise',
}));

export const CreateEntryBody = Type.Object({
  entry_date: DateString,
  description: NonEmpty('What the entry records', 1000),
  reference: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  metadata: Type.Optional(Nullable(MetadataInput)),
  lines: Type.Array(LineInput, { description: 'At least 2 lines; exactly one of debit_amount/credit_amount per line' }),
  override_reason: Type.Optional(OverrideReason),
}, { additionalProperties: false });
export type CreateEntryInput = Static<typeof CreateEntryBody>;

/** The most entries one batch request may post. */
export const MAX_BATCH_ENTRIES = 10_000;

export const BatchBody = Type.Object({
  entries: Type.Array(CreateEntryBody, {
    minItems: 1, maxItems: MAX_BATCH_ENTRIES,
    description: `1 to ${MAX_BATCH_ENTRIES} entries, each the body of POST /journal-entries; posted in one transaction, all or none`,
  }),
}, { additionalProperties: false });
export type BatchInput = Static<typeof BatchBody>;

export const ReverseBody = Type.Object({
  entry_date: Type.Optional(DateString),
  override_reason: Type.Optional(OverrideReason),
}, { additionalProperties: false });
export type ReverseInput = Static<typeof ReverseBody>;

export const Line = Type.Object({
  id: Id,
  account_id: Id,
  account_number: Type.String(),
  account_name: Type.String(),
  debit_amount: Amount,
  credit_amount: Amount,
  display_debit: DisplayAmount,
  display_credit: DisplayAmount,
  description: Nullable(Type.String()),
});

export const Entry = Type.Object({
  id: Id,
  entry_date: DateString,
  description: Type.String(),
  reference: Nullable(Type.String()),
  metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
  period_id: Id,
  entry_type: Type.Union([Type.Literal('standard'), Type.Literal('reversal'), Type.Literal('closing')]),
  reverses_id: Nullable(Id),
  reversed_by_id: Nullable(Id),
  created_by: Nullable(Id),
  posted_at: Timestamp,
  currency_id: Id,
  entry_number: Type.Integer({ minimum: 1, description: 'The entry\'s number in posting order across the ledger: 1, 2, ... without gaps' }),
  override_reason: Nullable(Type.String({ description: 'Why the entry was posted on or before the lock date (periods:override); null otherwise' })),
  hash_version: Type.Union([Type.Literal(1), Type.Literal(2)], {
    description: 'Which canonical form `hash` covers (docs/api.md, "Tamper-evident history"): 2 for entries posted since they say who posted them (the entry is its own audit record), 1 before',
  }),
  credential_type: Nullable(Type.Union([Type.Literal('api_key'), Type.Literal('session')], {
    description: 'How created_by proved who they are when posting: an API key or a login session; null from the command line and on entries of hash_version 1',
  })),
  credential_id: Nullable(Type.String({ description: 'The id of that API key or session (never a key or token); null as credential_type' })),
  request_id: Nullable(Type.String({ description: 'The HTTP request that posted the entry (its X-Request-Id); null as credential_type' })),
  previous_hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'hash of the previous entry in the same currency (64 zeros for the first)' }),
  hash: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description: 'SHA-256 of the entry in its currency\'s chain: covers its content and the previous entry\'s hash (docs/api.md, "Tamper-evident history")',
  }),
  lines: Type.Array(Line),
});
export type EntryView = Static<typeof Entry>;

export const EntryListQuery = Type.Object({
  period_id: Type.Optional(Id),
  start_date: Type.Optional(DateString),
  end_date: Type.Optional(DateString),
  account_id: Type.Optional(Id),
  q: Type.Optional(Type.String({
    minLength: 1, maxLength: 200,
    description: 'Words, each the start of a word of the description, reference or a line description; every word must match; case and accents do not count. `#12` finds entry number 12; a bare number (`12`) finds entry 12 and the entries with a word starting with it',
    examples: ['office rent'],
  })),
  reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Exactly this reference (case-sensitive)' })),
  entry_number: Type.Optional(Type.Integer({ minimum: 1, description: 'The entry with this number (q=#12 finds it too)' })),
  min_amount: Type.Optional(Type.String({ ...AmountInput, description: 'Entries whose amount (the sum of their debits, in minor units) is at least this' })),
  max_amount: Type.Optional(Type.String({ ...AmountInput, description: 'Entries whose amount (the sum of their debits, in minor units) is at most this' })),
  entry_type: Type.Optional(Type.Union([Type.Literal('standard'), Type.Literal('reversal'), Type.Literal('closing')])),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
    description: 'asc (default): oldest entry date first; desc: newest first',
  })),
  ...PageQuery,
}, { additionalProperties: false });
export type EntryListFilter = Static<typeof EntryListQuery>;
