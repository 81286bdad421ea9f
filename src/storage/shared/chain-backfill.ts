/**
 * Hashes for entries posted before the hash chain existed (schema migration 6 of both adapters):
 * the chain is built in posting order, one chain per currency, exactly as posting builds it.
 */
import { entryHash, GENESIS_HASH, type HashedEntry } from '../../service/entry-hash.js';

export interface StoredEntryRow {
  seq: number;
  id: string; entry_date: string; description: string; reference: string | null; metadata: string | null;
  period_id: string; entry_type: string; reverses_id: string | null; created_by: string | null; posted_at: string;
  currency_id: string;
}

export interface StoredLineRow {
  entry_seq: number;
  id: string; account_id: string; debit_amount: string; credit_amount: string; description: string | null;
}

/** Entries in posting order and their lines (in line order): every entry's hash and each currency's chain head. */
export function chainOf(entries: readonly StoredEntryRow[], lines: readonly StoredLineRow[]) {
  const linesByEntry = new Map<number, StoredLineRow[]>();
  for (const line of lines) {
    const list = linesByEntry.get(line.entry_seq);
    if (list) list.push(line);
    else linesByEntry.set(line.entry_seq, [line]);
  }
  const heads = new Map<string, string>();
  const hashes: { seq: number; previousHash: string; hash: string }[] = [];
  for (const row of entries) {
    const entry: HashedEntry = {
      ...row, metadata: row.metadata === null ? null : JSON.parse(row.metadata) as Record<string, unknown>,
      lines: linesByEntry.get(row.seq) ?? [],
    };
    const previousHash = heads.get(row.currency_id) ?? GENESIS_HASH;
    const hash = entryHash(entry, previousHash);
    heads.set(row.currency_id, hash);
    hashes.push({ seq: row.seq, previousHash, hash });
  }
  return { hashes, heads };
}
