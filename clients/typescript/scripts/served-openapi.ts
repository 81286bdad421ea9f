/**
 * The OpenAPI document exactly as `ledger serve` answers it at GET /api/v1/openapi.json, built in
 * process over a throwaway SQLite file (the document does not depend on the books' contents).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initLedger, openLedger } from '../../../src/app/open-ledger.js';
import { packageVersion } from '../../../src/app/package-files.js';
import { buildApp } from '../../../src/http/build-app.js';

export async function servedOpenApiDocument(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-openapi-'));
  const location = join(dir, 'ledger.db');
  try {
    await initLedger(location);
    const service = await openLedger(location);
    try {
      const app = await buildApp({ service, logLevel: 'silent', version: packageVersion() });
      try {
        const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
        return JSON.parse(response.body) as Record<string, unknown>;
      } finally {
        await app.close();
      }
    } finally {
      await service.ctx.store.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
