/**
 * Verifies a webhook delivery (Standard Webhooks, docs/events.md): `webhook-signature` holds one or
 * more space-separated `v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}`,
 * keyed with the base64-decoded part of the endpoint's secret after `whsec_` (two signatures for
 * 24 hours after a rotation; either verifies). The timestamp must be within the tolerance of now,
 * so a captured delivery cannot be replayed later. Verify the raw body exactly as received, before
 * parsing it, and drop repeats by `webhook-id` (delivery is at least once).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /** The endpoint's secret, `whsec_...`, as the API answered it at creation or rotation. */
  secret: string;
  /** The request's headers: a Headers or a Node-style object (names in any case). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The raw body, exactly as received. */
  body: string | Uint8Array;
  /** How far the timestamp may be from now, either way (default 300 s). */
  toleranceSeconds?: number;
  /** Now, for tests (default the clock). */
  now?: Date;
}

const SECRET_PREFIX = 'whsec_';

/** Returns the parsed event when a signature verifies; throws WebhookVerificationError otherwise. */
export function verifyWebhook(options: VerifyWebhookOptions): unknown {
  const id = header(options.headers, 'webhook-id');
  const timestamp = header(options.headers, 'webhook-timestamp');
  const signatures = header(options.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  }
  const body = typeof options.body === 'string' ? Buffer.from(options.body, 'utf8') : Buffer.from(options.body);
  const expected = createHmac('sha256', secretKey(options.secret))
    .update(`${id}.${timestamp}.`).update(body).digest();
  const verified = signatures.split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part.slice(3), 'base64'))
    .some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
  if (!verified) throw new WebhookVerificationError('no signature matches');
  return JSON.parse(body.toString('utf8'));
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new WebhookVerificationError('the secret does not start with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

function header(headers: VerifyWebhookOptions['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}
