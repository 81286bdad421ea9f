import { describe, expect, it } from 'vitest';
import { LedgerError } from '../errors.js';
import type { Account } from '../types.js';
import { type NewAccountInput, netBalance, resolveNewAccount } from './new-account.js';

const controlAccount: Account = {
  id: 'receivables',
  account_number: '1200',
  name: 'Trade receivables',
  currency_id: 'usd',
  account_type: 'asset',
  normal_balance: 'debit',
  has_subledger: true,
  parent_id: null,
  entity_id: null,
  xbrl_tag: 'ifrs-full:TradeReceivables',
  is_active: true,
  created_at: '2026-01-01T00:00:00.000Z',
};

const plainAccount: Account = { ...controlAccount, id: 'cash', account_number: '1000', name: 'Cash', has_subledger: false };

const topLevel: NewAccountInput = {
  account_number: '4000',
  name: 'Sales',
  currency_id: 'usd',
  account_type: 'revenue',
  normal_balance: 'credit',
};

const subAccount: NewAccountInput = {
  account_number: '1200-ACME',
  name: 'ACME Corp',
  parent_id: 'receivables',
  entity_id: 'customer-acme',
};

function rejectionOf(input: NewAccountInput, parent: Account | undefined): LedgerError {
  try {
    resolveNewAccount(input, parent);
  } catch (error) {
    expect(error).toBeInstanceOf(LedgerError);
    return error as LedgerError;
  }
  throw new Error('expected the account to be rejected, but it was accepted');
}

describe('resolveNewAccount for a top-level account', () => {
  it('takes the given fields and fills the defaults', () => {
    expect(resolveNewAccount(topLevel, undefined)).toEqual({
      account_number: '4000',
      name: 'Sales',
      currency_id: 'usd',
      account_type: 'revenue',
      normal_balance: 'credit',
      has_subledger: false,
      parent_id: null,
      entity_id: null,
      xbrl_tag: null,
    });
  });

  it.each<[string, NewAccountInput]>([
    ['a null parent_id and entity_id', { ...topLevel, parent_id: null, entity_id: null }],
    ['an explicit has_subledger: false', { ...topLevel, has_subledger: false }],
  ])('treats %s as a plain top-level account', (_name, input) => {
    const resolved = resolveNewAccount(input, undefined);
    expect(resolved.parent_id).toBeNull();
    expect(resolved.entity_id).toBeNull();
    expect(resolved.has_subledger).toBe(false);
  });

  it('opens a control account with has_subledger and keeps its XBRL tag', () => {
    const resolved = resolveNewAccount({ ...topLevel, has_subledger: true, xbrl_tag: 'ifrs-full:Revenue' }, undefined);
    expect(resolved.has_subledger).toBe(true);
    expect(resolved.xbrl_tag).toBe('ifrs-full:Revenue');
  });

  it.each([
    ['currency_id'],
    ['account_type'],
    ['normal_balance'],
  ] as const)('requires %s', (key) => {
    const error = rejectionOf({ ...topLevel, [key]: undefined }, undefined);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe(key);
    expect(error.message).toBe(`${key} is required`);
  });

  it('names currency_id first when all three are missing', () => {
    const error = rejectionOf({ account_number: '4000', name: 'Sales' }, undefined);
    expect(error.field).toBe('currency_id');
  });

  it('rejects an entity_id without a parent_id', () => {
    const error = rejectionOf({ ...topLevel, entity_id: 'customer-acme' }, undefined);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe('entity_id');
  });
});

describe('resolveNewAccount for a sub-account', () => {
  it('inherits currency, type and normal balance from its parent', () => {
    expect(resolveNewAccount(subAccount, controlAccount)).toEqual({
      account_number: '1200-ACME',
      name: 'ACME Corp',
      currency_id: 'usd',
      account_type: 'asset',
      normal_balance: 'debit',
      has_subledger: false,
      parent_id: 'receivables',
      entity_id: 'customer-acme',
      xbrl_tag: null,
    });
  });

  it('accepts given currency, type and normal balance that match the parent', () => {
    const resolved = resolveNewAccount(
      { ...subAccount, currency_id: 'usd', account_type: 'asset', normal_balance: 'debit', has_subledger: false },
      controlAccount,
    );
    expect([resolved.currency_id, resolved.account_type, resolved.normal_balance]).toEqual(['usd', 'asset', 'debit']);
  });

  it.each<[string, NewAccountInput, Account | undefined, string]>([
    ['a missing entity_id', { ...subAccount, entity_id: undefined }, controlAccount, 'entity_id'],
    ['a null entity_id', { ...subAccount, entity_id: null }, controlAccount, 'entity_id'],
    ['an empty entity_id', { ...subAccount, entity_id: '' }, controlAccount, 'entity_id'],
    ['a parent that does not exist', subAccount, undefined, 'parent_id'],
    ['a parent that is not a control account', { ...subAccount, parent_id: 'cash' }, plainAccount, 'parent_id'],
    ['a sub-account that is itself a control account', { ...subAccount, has_subledger: true }, controlAccount, 'has_subledger'],
    ['a currency other than the parent\'s', { ...subAccount, currency_id: 'eur' }, controlAccount, 'currency_id'],
    ['an account type other than the parent\'s', { ...subAccount, account_type: 'liability' }, controlAccount, 'account_type'],
    ['a normal balance other than the parent\'s', { ...subAccount, normal_balance: 'credit' }, controlAccount, 'normal_balance'],
    // entity_id is checked before the parent is looked at, so a missing one wins over a bad parent.
    ['a missing entity_id under a parent that does not exist', { ...subAccount, entity_id: undefined }, undefined, 'entity_id'],
    ['a parent that is not a control account and a mismatching currency', { ...subAccount, currency_id: 'eur' }, plainAccount, 'parent_id'],
  ])('rejects %s', (_name, input, parent, field) => {
    const error = rejectionOf(input, parent);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe(field);
  });

  it('says what the parent\'s value is when a given value does not match', () => {
    expect(rejectionOf({ ...subAccount, currency_id: 'eur' }, controlAccount).message)
      .toBe('currency_id must match the parent\'s (usd) or be omitted');
  });
});

describe('netBalance', () => {
  it.each<['debit' | 'credit', bigint, bigint, bigint]>([
    ['debit', 100n, 30n, 70n],
    ['debit', 30n, 100n, -70n],
    ['debit', 0n, 0n, 0n],
    ['credit', 100n, 30n, -70n],
    ['credit', 30n, 100n, 70n],
    ['credit', 50n, 50n, 0n],
    ['debit', (1n << 127n) - 1n, 0n, (1n << 127n) - 1n],
    ['credit', (1n << 127n) - 1n, 0n, -((1n << 127n) - 1n)],
  ])('for a %s-normal account with debits %s and credits %s is %s', (normal, debits, credits, expected) => {
    expect(netBalance(normal, debits, credits)).toBe(expected);
  });
});
