/**
 * Who a tool call acts as. Over HTTP that is the request's Bearer credential; over stdio it is the
 * `--api-key` given to `ledger mcp`, resolved again on every call so that deactivating the user or
 * changing its permissions takes effect at once, as over HTTP. Without a key (stdio only) the
 * server reads as the command line's local operator and refuses writes: a write must be attributed.
 */
import { LedgerError } from '../domain/errors.js';
import { type Actor, LOCAL_OPERATOR } from '../service/actor.js';
import type { LedgerService } from '../service/ledger-service.js';

export interface ToolContext {
  service: LedgerService;
  /** The acting user, or undefined for the local operator of `ledger mcp` without a key. */
  authenticate(): Promise<Actor | undefined>;
}

export async function readerOf(context: ToolContext): Promise<Actor> {
  return (await context.authenticate()) ?? LOCAL_OPERATOR;
}

export async function writerOf(context: ToolContext): Promise<Actor> {
  const actor = await context.authenticate();
  if (actor === undefined) {
    throw new LedgerError('UNAUTHORIZED', 'Writing to the ledger needs an API key so that the record is attributed to a user', {
      suggestion: 'Start `ledger mcp` with --api-key <tsk_...> or LEDGER_API_KEY (create one with `ledger users create-service-account`)',
    });
  }
  return actor;
}
