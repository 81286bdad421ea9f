/**
 * Reports list posting accounts only, so sub-accounts arrive without their control account.
 * This puts a heading row (the control account) before each run of its sub-accounts.
 */
import type { AccountView } from '../../api/types.js';

export type Grouped<T> = { kind: 'group'; key: string; parent: AccountView | undefined; parentId: string } | { kind: 'row'; key: string; row: T };

export function withGroupHeaders<T extends { account_id: string | null; parent_id: string | null }>(
  rows: readonly T[], accounts: ReadonlyMap<string, AccountView>,
): Grouped<T>[] {
  const result: Grouped<T>[] = [];
  let currentParent: string | null = null;
  rows.forEach((row, index) => {
    if (row.parent_id !== null && row.parent_id !== currentParent) {
      result.push({ kind: 'group', key: `group-${row.parent_id}-${index}`, parent: accounts.get(row.parent_id), parentId: row.parent_id });
    }
    currentParent = row.parent_id;
    result.push({ kind: 'row', key: row.account_id ?? `row-${index}`, row });
  });
  return result;
}
