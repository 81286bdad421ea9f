/**
 * Webhook signatures in the Standard Webhooks scheme (https://www.standardwebhooks.com/): the
 * signature is base64(HMAC-SHA256(key, `${msgId}.${timestamp}.${body}`)), sent as `v1,<sig>` in
 * the `webhook-signature` header, where the key is the base64-decoded part of the endpoint's
 * secret after `whsec_`. Following the scheme lets receivers check our deliveries with any
 * Standard Webhooks library; `verifyWebhook` is the receiver's side, documented for those who
 * write their own.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The HMAC key's size: HMAC-SHA256 gains nothing from more, and a shorter key is weaker than the hash. */
const SECRET_KEY_BYTES = 32;
/** Five minutes either way, the Standard Webhooks reference libraries' tolerance. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const SIGNATURE_VERSION = 'v1';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/**
 * The message id is signed joined to the timestamp by a dot, so an id with a dot could be re-split
 * with the timestamp to make another message with the same signed content; whitespace and control
 * characters would not survive (or would break) an HTTP header.
 */
const MESSAGE_ID = /^[\x21-\x2d\x2f-\x7e]+$/;
const TIMESTAMP = /^[0-9]{1,15}$/;

/** A delivery that failed verification: the receiver should answer 4xx and not act on it. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes, shown to its owner only once. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_KEY_BYTES).toString('base64');
}

/**
 * The `webhook-signature` header value for one delivery: `v1,<sig>` for each secret, separated by
 * spaces. During a rotation the old and the new secret both sign, so a receiver still holding the
 * old one keeps accepting deliveries until it switches.
 */
export function signWebhook(secrets: readonly string[], msgId: string, timestampSeconds: number, body: string): string {
  if (secrets.length === 0) throw new Error('A webhook needs at least one secret to be signed');
  if (!MESSAGE_ID.test(msgId)) {
    throw new Error(`Webhook message id ${JSON.stringify(msgId)} must be printable ASCII without spaces or dots`);
  }
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new Error(`Webhook timestamp ${timestampSeconds} must be a non-negative whole number of seconds`);
  }
  return secrets.map((secret) => `${SIGNATURE_VERSION},${signature(secretKey(secret), msgId, String(timestampSeconds), body)}`)
    .join(' ');
}

/** Header values as Node's `IncomingHttpHeaders` or a plain record hold them; names in any case. */
export type WebhookHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyOptions {
  /** How far the timestamp may be from `now`, either way; default 300. */
  toleranceSeconds?: number;
  now?: Date;
}

/**
 * Checks a delivery as its receiver would: the timestamp within the tolerance of `now` (so a
 * captured delivery cannot be replayed later) and at least one `v1` signature in the header made
 * with `secret` over the id, the timestamp and `body`. `body` must be the raw request body exactly
 * as received: parsing and serializing JSON again changes the bytes and breaks the signature.
 * Throws a `WebhookVerificationError` saying what is wrong; returns nothing when the delivery is good.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, body: string, options: VerifyOptions = {}): void {
  const key = secretKey(secret);
  const msgId = singleHeader(headers, 'webhook-id');
  const timestamp = singleHeader(headers, 'webhook-timestamp');
  const signatures = headerValues(headers, 'webhook-signature');
  if (signatures.length === 0) throw new WebhookVerificationError('Missing webhook-signature header');

  if (!TIMESTAMP.test(timestamp)) {
    throw new WebhookVerificationError(`webhook-timestamp ${JSON.stringify(timestamp)} is not a whole number of seconds`);
  }
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const ageSeconds = nowSeconds - Number(timestamp);
  if (ageSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(`webhook-timestamp is ${ageSeconds} s old, more than the ${toleranceSeconds} s tolerated`);
  }
  if (-ageSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(`webhook-timestamp is ${-ageSeconds} s in the future, more than the ${toleranceSeconds} s tolerated`);
  }

  const expected = Buffer.from(signature(key, msgId, timestamp, body));
  const candidates = signatures.flatMap((value) => value.split(' ')).filter((part) => part !== '');
  // Every candidate is compared, even after a match, so the time taken says nothing about which matched.
  let matched = false;
  for (const candidate of candidates) {
    const comma = candidate.indexOf(',');
    if (comma < 0 || candidate.slice(0, comma) !== SIGNATURE_VERSION) continue;
    const given = Buffer.from(candidate.slice(comma + 1));
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('No v1 signature in webhook-signature matches this secret and body');
}

/** The HMAC key of a `whsec_` secret; a malformed secret is a configuration mistake worth saying loudly. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : undefined;
  // Buffer.from skips characters that are not base64, so the text is checked first: a secret
  // mangled in copying must fail here, not become a different key.
  if (encoded === undefined || !BASE64.test(encoded) || encoded.length % 4 !== 0) {
    throw new Error(`A webhook secret is ${WEBHOOK_SECRET_PREFIX} followed by base64 text`);
  }
  return Buffer.from(encoded, 'base64');
}

function signature(key: Buffer, msgId: string, timestamp: string, body: string): string {
  return createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`, 'utf8').digest('base64');
}

/** Every value of a header, whatever the case of its name (a record may hold `Webhook-Id` and `webhook-id`). */
function headerValues(headers: WebhookHeaders, name: string): string[] {
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    if (typeof value === 'string') values.push(value);
    else values.push(...value);
  }
  return values;
}

/** A header that must appear exactly once: two ids or timestamps leave it unclear which was signed. */
function singleHeader(headers: WebhookHeaders, name: string): string {
  const values = headerValues(headers, name);
  if (values.length === 0) throw new WebhookVerificationError(`Missing ${name} header`);
  if (values.length > 1) throw new WebhookVerificationError(`${name} header appears ${values.length} times`);
  return values[0]!;
}
