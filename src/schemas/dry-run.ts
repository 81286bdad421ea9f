/**
 * Dry runs of posts (`?dry_run=true`): the entries exactly as they would be posted and the
 * balance of every account they touch before and after, with nothing committed.
 */
import Type, { type Static } from 'typebox';
import { AccountBalance } from './account.js';
import { Id } from './common.js';
import { Entry } from './journal-entry.js';

export const DryRunQuery = Type.Object({
  dry_run: Type.Optional(Type.Boolean({
    description: 'true: do all the request does, every rule included, in a transaction that is rolled back; answer 200 with what it would store and commit nothing',
  })),
}, { additionalProperties: false });

export const BalanceChange = Type.Object({
  account_id: Id,
  account_number: Type.String(),
  before: AccountBalance,
  after: AccountBalance,
}, { description: "A touched account's all-time balance (as GET /accounts/{id}/balance) before and after the posting" });
export type BalanceChangeView = Static<typeof BalanceChange>;

const balances = Type.Array(BalanceChange, { description: 'Each touched account once, in the order of the lines' });

export const DryRunEntry = Type.Object({
  dry_run: Type.Literal(true),
  entry: Entry,
  balances,
});
export type DryRunEntryView = Static<typeof DryRunEntry>;

export const DryRunBatch = Type.Object({
  dry_run: Type.Literal(true),
  entries: Type.Array(Entry),
  balances,
});
export type DryRunBatchView = Static<typeof DryRunBatch>;
