import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Vitest runs one file fewer than there are cores at a time: one on this project's 2-core machine.
 * The test files mostly wait (on PostgreSQL, on child processes, on the browser), so two at a time
 * there take about 600 s instead of 880 s; larger machines keep the default.
 */
const MAX_WORKERS = Math.max(2, availableParallelism() - 1);

/**
 * What both projects share; inline projects inherit nothing from the root `test` block. The CLI
 * tests run many `ledger` processes one after another: a test that takes 18 s on a fast day took 45
 * on a slow one (this machine's speed moves two to four times between days), so the bound is 90 s.
 */
const common = {
  testTimeout: 90_000,
  hookTimeout: 90_000,
  pool: 'forks',
  // A worker runs its files one after another in one module graph instead of loading `src/`,
  // Fastify and the rest again for every file: loading was 386 s of the suite's 3,750 s of worker
  // time, and is 45 s so; the whole suite 1,976 -> 1,712 s on 2026-11-29. Every file still passes
  // alone. What it asks of a test: nothing it changes outside its own objects outlives it (an
  // environment variable set is set back, a server started is stopped, no module state is assumed
  // fresh: src/ keeps none that a test changes).
  isolate: false,
} as const;

export default defineConfig({
  test: {
    maxWorkers: MAX_WORKERS,
    // Compiles dist/ once per run for the CLI tests, which run the real `ledger` program. It
    // belongs to the root, so it runs once whichever projects are selected.
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        test: {
          ...common,
          name: 'sqlite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts', 'clients/typescript/test/**/*.test.ts'],
          // The command line on a PostgreSQL URL needs the postgres project's server; the load
          // tests run alone, after everything else (the load project).
          exclude: ['test/cli/on-postgres.test.ts', 'test/load/**'],
          env: { LEDGER_TEST_BACKEND: 'sqlite' },
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The suites that go through the storage port run again on PostgreSQL: the API, the
        // service's tests, the storage tests and the MCP server's. Everything else does not touch the database
        // (domain) or is about the SQLite file the CLI and the UI are given, except `ledger copy`,
        // whose round trip SQLite -> PostgreSQL -> SQLite runs here (its SQLite-only tests skip), and the
        // benchmark's own PostgreSQL parts that write the ledger's tables (bench/pg-copy.ts, the bare cases).
        test: {
          ...common,
          name: 'postgres',
          include: ['test/api/**/*.test.ts', 'test/service/**/*.test.ts', 'test/storage/**/*.test.ts', 'test/cli/on-postgres.test.ts',
            'test/cli/copy.test.ts', 'test/mcp/**/*.test.ts', 'test/bench/pg-*.test.ts'],
          // The SQLite adapter's own group commit (one writer, a file lock); PostgreSQL's is
          // test/storage/pg-grouping.test.ts, and the contract suite proves both.
          exclude: ['test/storage/group-commit.test.ts'],
          env: { LEDGER_TEST_BACKEND: 'postgres' },
          globalSetup: ['test/postgres-global-setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The PostgreSQL API suite again, through a PgBouncer in transaction pooling mode
        // (test/pgbouncer-global-setup.ts): no test may rely on session state across transactions.
        test: {
          ...common,
          name: 'pgbouncer',
          include: ['test/api/**/*.test.ts'],
          env: { LEDGER_TEST_BACKEND: 'postgres', LEDGER_TEST_POOLER: 'pgbouncer' },
          globalSetup: ['test/pgbouncer-global-setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Latency and memory under load (a real `ledger serve` measured from outside): one file at
        // a time, once every other test has finished, so that their figures are the server's and
        // not those of the other test files sharing the machine's two cores.
        test: {
          ...common,
          name: 'load',
          include: ['test/load/**/*.test.ts'],
          env: { LEDGER_TEST_BACKEND: 'sqlite' },
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
