/**
 * The storage port's copying concern: whole-ledger reads in storage order, for copying a ledger
 * between stores and for checking it. Composed into LedgerReads and LedgerWrites
 * (ledger-store.ts).
 */
import type { JournalEntryView } from '../../domain/types.js';
import type { ApiKeyRecord, StoredUser } from './credentials-store.js';
import type { PageRequest, StorePage } from './store-pages.js';

export interface CopyingReads {
  /** Entries with their lines in posting order (the order they were stored), keyset-paged on [seq]. */
  listEntriesInPostingOrder(page: PageRequest): Promise<StorePage<JournalEntryView>>;
  countEntries(): Promise<number>;
  /** Users with their stored password hashes, in id order, keyset-paged on [id]. */
  listStoredUsers(page: PageRequest): Promise<StorePage<StoredUser>>;
  /** API keys as stored (hashes only), in id order. */
  allApiKeys(): Promise<ApiKeyRecord[]>;
  allSettings(): Promise<Map<string, string>>;
}
