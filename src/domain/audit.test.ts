import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, fieldChanges, initialValues, isAuditAction } from './audit.js';

describe('fieldChanges', () => {
  const before = { name: 'Cash', is_active: true, xbrl_tag: null as string | null, permissions: { admin: true }, secret: 'x' };

  it('lists only the listed fields whose value differs, with both values', () => {
    const after = { ...before, name: 'Petty cash', is_active: false, secret: 'y' };
    expect(fieldChanges(before, after, ['name', 'is_active', 'xbrl_tag'])).toEqual({
      name: { old: 'Cash', new: 'Petty cash' }, is_active: { old: true, new: false },
    });
  });

  it('answers no changes when nothing listed changed, though an unlisted field did', () => {
    expect(fieldChanges(before, { ...before, secret: 'changed' }, ['name', 'is_active'])).toEqual({});
  });

  it('compares objects by content and tells null from an empty string', () => {
    expect(fieldChanges(before, { ...before, permissions: { admin: true } }, ['permissions'])).toEqual({});
    expect(fieldChanges(before, { ...before, permissions: { admin: false } }, ['permissions']))
      .toEqual({ permissions: { old: { admin: true }, new: { admin: false } } });
    expect(fieldChanges(before, { ...before, xbrl_tag: '' }, ['xbrl_tag'])).toEqual({ xbrl_tag: { old: null, new: '' } });
  });
});

describe('initialValues', () => {
  it('shows each listed field of a created record as a change from null', () => {
    expect(initialValues({ code: 'USD', asset_scale: 2, hidden: 'no' }, ['code', 'asset_scale']))
      .toEqual({ code: { old: null, new: 'USD' }, asset_scale: { old: null, new: 2 } });
  });
});

describe('audit actions', () => {
  it('are a closed set of resource.verb names', () => {
    for (const action of AUDIT_ACTIONS) expect(action).toMatch(/^[a-z_]+\.[a-z_]+$/);
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    expect(isAuditAction('journal_entry.create')).toBe(true);
    expect(isAuditAction('journal_entry.delete')).toBe(false);
  });
});
