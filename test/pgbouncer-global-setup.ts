/**
 * The global setup of the pgbouncer project: a cluster of its own (test/helpers/postgres.ts) and a
 * PgBouncer in transaction pooling mode in front of it (test/helpers/pgbouncer.ts). The workers
 * create and drop their databases on the cluster directly (the admin URL) and reach them through
 * PgBouncer (createTestDatabase, with `pgbouncer=true`), so the PostgreSQL API suite runs as a
 * deployment behind a pooler would.
 */
import type { TestProject } from 'vitest/node';
import { startPgbouncer } from './helpers/pgbouncer.js';
import { ADMIN_URL_KEY, POOLER_PORT_KEY, startTestCluster } from './helpers/postgres.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startTestCluster();
  const pooler = await startPgbouncer(Number(new URL(cluster.adminUrl).port)).catch(async (error: unknown) => {
    await cluster.stop();
    throw error;
  });
  project.provide(ADMIN_URL_KEY, cluster.adminUrl);
  project.provide(POOLER_PORT_KEY, pooler.port);
  return async () => {
    await pooler.stop();
    await cluster.stop();
  };
}
