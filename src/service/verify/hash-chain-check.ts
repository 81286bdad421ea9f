/**
 * The hash chains (service/entry-hash.ts): every entry's hash is recomputed from its content and
 * its previous_hash, and each currency's entries must link into one chain from the genesis hash to
 * the chain head the store keeps. That catches what no total can: an edited description,
 * reference, date or author, and a removed or inserted entry.
 *
 * The chain's order is the order in which posts in the currency committed, which is the posting
 * order except where concurrent posts interleaved; so links are followed, not assumed. Entries that
 * arrive before the entry they follow wait as runs of linked entries ("segments") until the chain
 * reaches them. In a sound ledger there are few at any time, so memory does not grow with the
 * ledger; what is left at the end is where a chain is broken.
 */
import { entryHash, GENESIS_HASH } from '../entry-hash.js';
import type { JournalEntryView } from '../../domain/types.js';
import type { CheckContext, CheckDefinition } from './check.js';

/** A run of entries linked to each other but not (yet) to the chain. */
interface Segment {
  /** The previous_hash of its first entry. */
  start: string;
  /** The hash of its last entry. */
  end: string;
  firstEntryId: string;
  lastEntryId: string;
  entries: number;
}

class CurrencyChain {
  head = GENESIS_HASH;
  headEntryId: string | undefined;
  private readonly byStart = new Map<string, Segment>();
  private readonly byEnd = new Map<string, Segment>();

  constructor(private readonly currencyId: string, private readonly report: CheckContext['report']) {}

  add(entry: JournalEntryView): void {
    const { previous_hash: previous, hash } = entry;
    if (previous === this.head) {
      this.head = hash;
      this.headEntryId = entry.id;
      this.absorb();
      return;
    }
    const before = this.byEnd.get(previous);
    if (before !== undefined) {
      this.byEnd.delete(previous);
      before.end = hash;
      before.lastEntryId = entry.id;
      before.entries += 1;
      this.joinFollowing(before);
      this.byEnd.set(before.end, before);
      return;
    }
    if (this.byStart.has(previous)) {
      this.report({ entry_id: entry.id, currency_id: this.currencyId, found: previous,
        message: `Entry ${entry.id} names the same previous entry (hash ${previous}) as entry ${this.byStart.get(previous)!.firstEntryId}: the chain forks` });
      return;
    }
    const segment: Segment = { start: previous, end: hash, firstEntryId: entry.id, lastEntryId: entry.id, entries: 1 };
    this.joinFollowing(segment);
    this.byStart.set(segment.start, segment);
    this.byEnd.set(segment.end, segment);
  }

  /** A segment that now ends where a waiting segment starts takes it over. */
  private joinFollowing(segment: Segment): void {
    const after = this.byStart.get(segment.end);
    if (after === undefined || after === segment) return;
    this.byStart.delete(after.start);
    this.byEnd.delete(after.end);
    segment.end = after.end;
    segment.lastEntryId = after.lastEntryId;
    segment.entries += after.entries;
  }

  /** The chain takes over every waiting segment that starts where it now ends. */
  private absorb(): void {
    for (let segment = this.byStart.get(this.head); segment !== undefined; segment = this.byStart.get(this.head)) {
      this.byStart.delete(segment.start);
      this.byEnd.delete(segment.end);
      this.head = segment.end;
      this.headEntryId = segment.lastEntryId;
    }
  }

  /** Reports every break, and a stored chain head that is not where the chain ends. */
  finish(storedHead: string | undefined): void {
    for (const segment of this.byStart.values()) {
      this.report({ entry_id: segment.firstEntryId, currency_id: this.currencyId, found: segment.start,
        message: `Entry ${segment.firstEntryId} does not link into the chain of currency ${this.currencyId}: it follows hash ${segment.start}, `
          + 'which is not the hash of an entry it could follow (an entry before it was removed, or changed together with its hash)'
          + (this.headEntryId === undefined ? '' : `; the unbroken chain ends at entry ${this.headEntryId}`) });
    }
    const ends = new Set([this.head, ...this.byEnd.keys()]);
    if (storedHead === undefined || !ends.has(storedHead)) {
      this.report({ currency_id: this.currencyId, expected: this.head, found: storedHead ?? 'none',
        message: `The chain head stored for currency ${this.currencyId} is not the hash of its last entry`
          + (this.headEntryId === undefined ? '' : ` (${this.headEntryId})`) + ': an entry at the end was removed, or the head was changed' });
    }
  }
}

export const hashChainCheck: CheckDefinition = {
  name: 'hash_chain',
  description: 'every entry\'s hash matches its content, and each currency\'s entries form one chain up to the stored chain head',
  create: ({ reads, report }) => {
    const chains = new Map<string, CurrencyChain>();
    return {
      entry(entry) {
        if (typeof entry.hash !== 'string' || typeof entry.previous_hash !== 'string') {
          report({ entry_id: entry.id, currency_id: entry.currency_id, message: `Entry ${entry.id} has no hash` });
          return;
        }
        const recomputed = entryHash(entry, entry.previous_hash);
        if (recomputed !== entry.hash) {
          report({ entry_id: entry.id, currency_id: entry.currency_id, expected: recomputed, found: entry.hash,
            message: `The hash of entry ${entry.id} does not match its content: the entry was changed after it was posted` });
        }
        let chain = chains.get(entry.currency_id);
        if (chain === undefined) {
          chain = new CurrencyChain(entry.currency_id, report);
          chains.set(entry.currency_id, chain);
        }
        chain.add(entry);
      },
      async finish() {
        const heads = await reads.currencyChainHeads();
        for (const [currencyId, chain] of chains) chain.finish(heads.get(currencyId));
        for (const [currencyId, head] of heads) {
          if (!chains.has(currencyId)) {
            report({ currency_id: currencyId, found: head, expected: GENESIS_HASH,
              message: `Currency ${currencyId} has a stored chain head but no entries: its entries were removed` });
          }
        }
      },
    };
  },
};
