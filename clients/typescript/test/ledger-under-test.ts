/**
 * A real `ledger serve` (the compiled program, as a user runs it) on 127.0.0.1 over a temp SQLite
 * file, with an admin service account's key made beforehand through the service.
 */
import { initLedger, openLedger } from '../../../src/app/open-ledger.js';
import { type ServeProcess, startServe } from '../../../test/helpers/serve-process.js';
import { createTestLocation } from '../../../test/helpers/test-location.js';

export interface LedgerUnderTest {
  baseUrl: string;
  apiKey: string;
  stop(): Promise<void>;
}

export async function startLedger(): Promise<LedgerUnderTest> {
  const place = await createTestLocation('ledger-client');
  let server: ServeProcess | undefined;
  try {
    await initLedger(place.location);
    const service = await openLedger(place.location, undefined, { scryptCost: 2 ** 10 });
    let apiKey: string;
    try {
      apiKey = (await service.createServiceAccount(null, { name: 'client tests', permissions: { admin: true } })).api_key;
    } finally {
      await service.close();
    }
    server = await startServe(place.location);
    const started = server;
    return { baseUrl: started.baseUrl, apiKey, stop: async () => { await started.stop(); await place.remove(); } };
  } catch (error) {
    await server?.stop();
    await place.remove();
    throw error;
  }
}
