/**
 * `verify`: checks every invariant of the books on one snapshot and names each problem it finds.
 * It talks only to the storage port. The entries stream past once, in posting order, a page at a
 * time; each check (verify/checks.ts) looks at every entry and then at the whole, so memory grows
 * with accounts × days, not with lines. Only an admin may run it: it reads everything.
 */
import type { VerifyResultView } from '../schemas/verify.js';
import { type Actor, requirePermission } from './actor.js';
import type { ServiceContext } from './context.js';
import type { LedgerReads } from './ports/ledger-store.js';
import { TimeSlice } from './time-slice.js';
import { readBooks } from './verify/books.js';
import type { CheckDefinition, LedgerCheck } from './verify/check.js';
import { LEDGER_CHECKS } from './verify/checks.js';
import { LineTally } from './verify/line-tally.js';
import { ProblemLog } from './verify/problems.js';

/** Called after each page of entries with the count checked so far and the whole. */
export type VerifyProgress = (checkedEntries: number, totalEntries: number) => void;

const PAGE_SIZE = 1000;
const SEAL_BATCH_SIZE = 1000;

/**
 * The problem listed when the store holds a value that cannot be read at all (an amount edited into
 * something that is not an integer: every stored amount is read through parseStoredAmount, which
 * refuses it). The scan cannot go past it, so the verification stops there and says so.
 */
const UNREADABLE = 'stored_values';

export async function verifyLedger(ctx: ServiceContext, actor: Actor, onProgress?: VerifyProgress): Promise<VerifyResultView> {
  requirePermission(actor, 'admin');
  // Audit records are sealed right after their commit; seal whatever is still waiting first, so
  // that the snapshot below has every record committed before it in the chain.
  while ((await ctx.store.write((tx) => tx.sealAuditRecords(SEAL_BATCH_SIZE))) === SEAL_BATCH_SIZE);
  return ctx.store.read((reads) => verifyReads(reads, LEDGER_CHECKS, onProgress));
}

/** The verification over one snapshot's reads, with the given checks (tests may pass their own). */
export async function verifyReads(reads: LedgerReads, definitions: readonly CheckDefinition[],
  onProgress?: VerifyProgress): Promise<VerifyResultView> {
  const books = await readBooks(reads);
  const tally = new LineTally();
  const problems = new ProblemLog([UNREADABLE, ...definitions.map((definition) => definition.name)]);
  const checks: LedgerCheck[] = definitions.map((definition) => definition.create({
    reads, books, tally, report: (problem) => problems.add({ check: definition.name, ...problem }),
  }));
  try {
    await runChecks(reads, checks, tally, onProgress);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    problems.add({ check: UNREADABLE, message: `${error.message}; the verification stopped after ${tally.entries} entries` });
  }
  const heads = [...await reads.currencyChainHeads()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    ok: problems.size === 0,
    problems: problems.all(),
    checked: {
      entries: tally.entries, lines: tally.lines, accounts: books.accounts.size, periods: books.periods.length, currencies: books.currencies.length,
    },
    checks: definitions.map((definition) => definition.name),
    chain_heads: heads.map(([currencyId, hash]) => ({ currency_id: currencyId, hash })),
  };
}

/** Streams every entry past the checks, then runs their final passes. */
async function runChecks(reads: LedgerReads, checks: readonly LedgerCheck[], tally: LineTally, onProgress?: VerifyProgress): Promise<void> {
  const entryChecks = checks.filter((check) => check.entry !== undefined);
  const total = onProgress === undefined ? 0 : await reads.countEntries();
  let page = await reads.listEntriesInPostingOrder({ limit: PAGE_SIZE });
  const slice = new TimeSlice();
  for (;;) {
    await slice.pause();
    for (const entry of page.items) {
      tally.add(entry);
      for (const check of entryChecks) await check.entry!(entry);
    }
    onProgress?.(tally.entries, total);
    if (page.next === undefined) break;
    page = await reads.listEntriesInPostingOrder({ limit: PAGE_SIZE, after: page.next });
  }
  for (const check of checks) await check.finish?.();
}
