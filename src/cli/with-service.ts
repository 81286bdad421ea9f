/** Opens the service on the --db file for one command and always closes it. */
import type { Command } from 'commander';
import { LedgerError } from '../domain/errors.js';
import type { Actor } from '../service/actor.js';
import type { LedgerService } from '../service/ledger-service.js';
import { type GlobalOptions, globals } from './global-options.js';

type Handler<O, A extends unknown[]> = (service: LedgerService, globals: GlobalOptions, options: O, ...args: A) => Promise<void>;

export function withService<O, A extends unknown[]>(handler: Handler<O, A>) {
  return async (...received: unknown[]) => {
    const command = received[received.length - 1] as Command;
    const options = received[received.length - 2] as O;
    const args = received.slice(0, -2) as A;
    const global = globals(command);
    const { openLedger } = await import('../app/open-ledger.js');
    const service = await openLedger(global.db);
    try {
      await handler(service, global, options, ...args);
    } finally {
      await service.close();
    }
  };
}

/**
 * Commands that write attributed records (entries, reversals, closes) act as the user of an
 * API key, with that user's permissions, exactly as over HTTP.
 */
export async function actorFromApiKey(service: LedgerService, global: GlobalOptions, what: string): Promise<Actor> {
  if (!global.apiKey) {
    throw new LedgerError('UNAUTHORIZED', `${what} needs an API key so that the record is attributed to a user`, {
      suggestion: 'Pass --api-key <tsk_...> or set LEDGER_API_KEY (create one with `ledger users create-service-account`)',
    });
  }
  return service.authenticate(global.apiKey);
}

/**
 * Commands the local operator may run with full rights (managing users): with an API key they act
 * as its user instead, under exactly the rules the API applies to that user; without one, as the
 * person who holds the database file (null).
 */
export async function actorIfApiKey(service: LedgerService, global: GlobalOptions): Promise<Actor | null> {
  return global.apiKey ? service.authenticate(global.apiKey) : null;
}
