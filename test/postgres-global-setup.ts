/**
 * The global setup of the postgres project: vitest runs it once per `vitest run`, before the
 * workers start, and only when a test file of that project is selected. It starts the throw-away
 * PostgreSQL cluster (or checks the server of LEDGER_TEST_PG_URL) and hands its admin URL to the
 * workers through `provide`; createTestDatabase() reads it with `inject`. A server that cannot
 * start throws here, which fails the whole run with the reason: the postgres tests are never
 * skipped quietly.
 */
import type { TestProject } from 'vitest/node';
import { ADMIN_URL_KEY, startTestCluster } from './helpers/postgres.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startTestCluster();
  project.provide(ADMIN_URL_KEY, cluster.adminUrl);
  return () => cluster.stop();
}
