/** How webhooks are delivered, from the environment (CONTRACT.md, "Events and webhooks"; docs/events.md). */
import { validationError } from '../../domain/errors.js';

export interface WebhookSettings {
  /** LEDGER_WEBHOOK_ALLOW_PRIVATE=true: endpoints on loopback and private addresses are allowed (tests, a private network). */
  allowPrivate: boolean;
  /** The delays between attempts at one event: N delays make 1 + N attempts. */
  retryDelaysMs: readonly number[];
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** About two and a half days over ten attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h, 20 h. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR,
  14 * HOUR, 20 * HOUR];

export function webhookSettingsFrom(env: NodeJS.ProcessEnv): WebhookSettings {
  const allow = env.LEDGER_WEBHOOK_ALLOW_PRIVATE;
  if (allow !== undefined && allow !== '' && allow !== 'true' && allow !== 'false') {
    throw validationError('LEDGER_WEBHOOK_ALLOW_PRIVATE must be true or false', 'LEDGER_WEBHOOK_ALLOW_PRIVATE', 'Set it to true or leave it unset');
  }
  const delays = env.LEDGER_WEBHOOK_RETRY_DELAYS_MS;
  let retryDelaysMs = DEFAULT_RETRY_DELAYS_MS;
  if (delays !== undefined && delays.trim() !== '') {
    retryDelaysMs = delays.split(',').map((text) => {
      const value = Number(text.trim());
      if (!Number.isSafeInteger(value) || value < 0) {
        throw validationError(`LEDGER_WEBHOOK_RETRY_DELAYS_MS has ${JSON.stringify(text)}, not a number of milliseconds`,
          'LEDGER_WEBHOOK_RETRY_DELAYS_MS', 'Give comma-separated whole milliseconds, e.g. 1000,60000,3600000');
      }
      return value;
    });
  }
  return { allowPrivate: allow === 'true', retryDelaysMs };
}
