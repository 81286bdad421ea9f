/** The answer of `GET /verify` and `ledger verify --json`: every broken invariant, each named. */
import Type, { type Static } from 'typebox';
import { Id } from './common.js';

export const VerifyProblem = Type.Object({
  check: Type.String({ description: 'The check that found it, e.g. entry_balance, account_totals, closing_entry' }),
  message: Type.String({ description: 'What is wrong, in a sentence' }),
  entry_id: Type.Optional(Id),
  account_id: Type.Optional(Id),
  period_id: Type.Optional(Id),
  currency_id: Type.Optional(Id),
  date: Type.Optional(Type.String({ description: 'The calendar date concerned (daily totals)' })),
  expected: Type.Optional(Type.String({ description: 'What the lines (or the rule) give' })),
  found: Type.Optional(Type.String({ description: 'What is stored' })),
});
export type VerifyProblemView = Static<typeof VerifyProblem>;

export const VerifyResult = Type.Object({
  ok: Type.Boolean({ description: 'True when no check found a problem' }),
  problems: Type.Array(VerifyProblem),
  checked: Type.Object({
    entries: Type.Integer(),
    lines: Type.Integer(),
    accounts: Type.Integer(),
    periods: Type.Integer(),
    currencies: Type.Integer(),
  }),
  checks: Type.Array(Type.String(), { description: 'The checks that ran, in order' }),
  chain_heads: Type.Array(Type.Object({
    currency_id: Id,
    hash: Type.String({ description: 'The hash of the currency\'s last entry in its chain, as stored' }),
  }), { description: 'Each currency\'s chain head: keep or publish them to detect a rewritten history later' }),
});
export type VerifyResultView = Static<typeof VerifyResult>;
