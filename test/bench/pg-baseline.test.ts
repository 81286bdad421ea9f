/**
 * The benchmark's bare PostgreSQL cases (bench/postgres.ts, `--backend postgres --only baseline`)
 * write the ledger's own tables with plain SQL, so a migration that adds a required column breaks
 * them (it did: entry numbers and the hash chain came, and the cases stopped working unnoticed).
 * Each case runs here on a few entries in a database the ledger's `init` made, and checks its books.
 */
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../bench/lib.js';
import { openTarget, pgBaselineCases, runPgBaseline } from '../../bench/postgres.js';
import { adminUrl } from '../helpers/postgres.js';
import { testBackend } from '../helpers/test-location.js';

describe.runIf(testBackend() === 'postgres')('the benchmark\'s bare PostgreSQL cases (bench/postgres.ts)', () => {
  it('write entries the ledger\'s current schema accepts, their totals equal to their lines', async () => {
    const options = { ...parseOptions([], {}), entries: 40, batch: 8 };
    // The tests' server, as the benchmark uses a server named by --db.
    const target = await openTarget({ ...options, db: await adminUrl() }, undefined);
    const cases = pgBaselineCases(options);
    expect(cases.length).toBeGreaterThan(0);
    for (const [index, spec] of cases.entries()) {
      // runPgBaseline throws when the books it wrote do not add up (entries, lines, every total).
      const result = await runPgBaseline(options, target, { ...spec, connections: Math.min(spec.connections, 4) }, index);
      expect({ label: spec.label, entries: result.entries }).toEqual({ label: spec.label, entries: 40 });
    }
  }, 120_000);
});
