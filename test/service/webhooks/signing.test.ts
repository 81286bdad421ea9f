/**
 * Webhook signatures: the Standard Webhooks test vector, several secrets during a rotation, and a
 * receiver's verifier that refuses whatever was not signed, or was signed too long ago.
 */
import { describe, expect, it } from 'vitest';
import {
  newWebhookSecret, signWebhook, verifyWebhook, WebhookVerificationError,
} from '../../../src/service/webhooks/signing.js';

// The test vector published with the Standard Webhooks specification.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const MSG_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const EXPECTED = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
const AT_TIMESTAMP = new Date(TIMESTAMP * 1000);

function headersFor(signature: string, id = MSG_ID, timestamp: number | string = TIMESTAMP) {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

function verificationError(run: () => void): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error('expected the webhook to be refused');
}

describe('newWebhookSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('differs every time', () => {
    const secrets = new Set(Array.from({ length: 100 }, () => newWebhookSecret()));
    expect(secrets.size).toBe(100);
  });

  it('signs and verifies', () => {
    const secret = newWebhookSecret();
    const signature = signWebhook([secret], MSG_ID, TIMESTAMP, BODY);
    expect(() => verifyWebhook(secret, headersFor(signature), BODY, { now: AT_TIMESTAMP })).not.toThrow();
  });
});

describe('signWebhook', () => {
  it('matches the Standard Webhooks test vector', () => {
    expect(signWebhook([SECRET], MSG_ID, TIMESTAMP, BODY)).toBe(EXPECTED);
  });

  it('signs once per secret, space separated, in the order given', () => {
    const other = newWebhookSecret();
    const header = signWebhook([SECRET, other], MSG_ID, TIMESTAMP, BODY);
    const parts = header.split(' ');
    expect(parts).toHaveLength(2);
    expect(parts[0]).toBe(EXPECTED);
    expect(parts[1]).toBe(signWebhook([other], MSG_ID, TIMESTAMP, BODY));
  });

  it('signs the body as UTF-8 bytes', () => {
    const body = '{"memo":"café ☕"}';
    const header = signWebhook([SECRET], MSG_ID, TIMESTAMP, body);
    expect(() => verifyWebhook(SECRET, headersFor(header), body, { now: AT_TIMESTAMP })).not.toThrow();
    expect(header).not.toBe(signWebhook([SECRET], MSG_ID, TIMESTAMP, '{"memo":"cafe ☕"}'));
  });

  it('refuses to sign without a secret', () => {
    expect(() => signWebhook([], MSG_ID, TIMESTAMP, BODY)).toThrow(/at least one secret/);
  });

  it.each([
    ['no prefix', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['another prefix', 'whsek_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['nothing after the prefix', 'whsec_'],
    ['characters outside base64', 'whsec_MfKQ9r8GKYqrTwjUPD8I*PZIo2LaLaSw'],
    ['a truncated base64 text', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS'],
    ['whitespace', 'whsec_MfKQ9r8GKYqrTwjU PD8ILPZIo2LaLaSw'],
  ])('refuses a secret with %s', (_case, secret) => {
    expect(() => signWebhook([secret], MSG_ID, TIMESTAMP, BODY)).toThrow(/whsec_ followed by base64/);
    expect(() => verifyWebhook(secret, headersFor(EXPECTED), BODY, { now: AT_TIMESTAMP })).toThrow(/whsec_ followed by base64/);
  });

  it.each([
    ['empty', ''],
    ['with a dot', 'msg.1'],
    ['with a space', 'msg 1'],
    ['with a line break', 'msg\r\nX-Injected: 1'],
  ])('refuses a message id %s', (_case, id) => {
    expect(() => signWebhook([SECRET], id, TIMESTAMP, BODY)).toThrow(/message id/);
  });

  it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('refuses the timestamp %s', (timestamp) => {
    expect(() => signWebhook([SECRET], MSG_ID, timestamp, BODY)).toThrow(/timestamp/);
  });
});

describe('verifyWebhook', () => {
  it('accepts the test vector', () => {
    expect(() => verifyWebhook(SECRET, headersFor(EXPECTED), BODY, { now: AT_TIMESTAMP })).not.toThrow();
  });

  it('accepts a rotation header with either secret', () => {
    const other = newWebhookSecret();
    const header = signWebhook([SECRET, other], MSG_ID, TIMESTAMP, BODY);
    expect(() => verifyWebhook(SECRET, headersFor(header), BODY, { now: AT_TIMESTAMP })).not.toThrow();
    expect(() => verifyWebhook(other, headersFor(header), BODY, { now: AT_TIMESTAMP })).not.toThrow();
    expect(() => verifyWebhook(newWebhookSecret(), headersFor(header), BODY, { now: AT_TIMESTAMP })).toThrow(/No v1 signature/);
  });

  it('finds a matching signature among other versions, unknown entries and extra spaces', () => {
    const header = `v1a,${EXPECTED.slice(3)}  v2,abc garbage v1,${'A'.repeat(43)}=   ${EXPECTED}`;
    expect(() => verifyWebhook(SECRET, headersFor(header), BODY, { now: AT_TIMESTAMP })).not.toThrow();
  });

  it('looks headers up whatever the case of their names', () => {
    const headers = { 'Webhook-Id': MSG_ID, 'WEBHOOK-TIMESTAMP': String(TIMESTAMP), 'Webhook-Signature': EXPECTED };
    expect(() => verifyWebhook(SECRET, headers, BODY, { now: AT_TIMESTAMP })).not.toThrow();
  });

  it('accepts header values given as arrays (several signature headers)', () => {
    const headers = { 'webhook-id': [MSG_ID], 'webhook-timestamp': String(TIMESTAMP), 'webhook-signature': ['v1,bm9wZQ==', EXPECTED] };
    expect(() => verifyWebhook(SECRET, headers, BODY, { now: AT_TIMESTAMP })).not.toThrow();
  });

  it('refuses a tampered body', () => {
    const error = verificationError(() => verifyWebhook(SECRET, headersFor(EXPECTED), '{"test": 2432232315}', { now: AT_TIMESTAMP }));
    expect(error.message).toMatch(/No v1 signature/);
  });

  it('refuses a body with one more space (a receiver must verify the raw bytes)', () => {
    expect(() => verifyWebhook(SECRET, headersFor(EXPECTED), `${BODY} `, { now: AT_TIMESTAMP })).toThrow(/No v1 signature/);
  });

  it('refuses the wrong secret', () => {
    expect(() => verifyWebhook(newWebhookSecret(), headersFor(EXPECTED), BODY, { now: AT_TIMESTAMP })).toThrow(/No v1 signature/);
  });

  it('refuses another message id or timestamp under the same signature', () => {
    expect(() => verifyWebhook(SECRET, headersFor(EXPECTED, 'msg_other'), BODY, { now: AT_TIMESTAMP })).toThrow(/No v1 signature/);
    expect(() => verifyWebhook(SECRET, headersFor(EXPECTED, MSG_ID, TIMESTAMP + 1), BODY, { now: AT_TIMESTAMP }))
      .toThrow(/No v1 signature/);
  });

  it.each([
    ['the right signature under another version', `v2,${EXPECTED.slice(3)}`],
    ['the signature without its version', EXPECTED.slice(3)],
    ['a truncated signature', EXPECTED.slice(0, -2)],
    ['the signature with one more character', `${EXPECTED}A`],
    ['an empty value', ''],
  ])('refuses %s', (_case, header) => {
    expect(() => verifyWebhook(SECRET, headersFor(header), BODY, { now: AT_TIMESTAMP })).toThrow(WebhookVerificationError);
  });

  it('accepts a timestamp up to the tolerance away, either way, and refuses one beyond it', () => {
    const at = (offsetSeconds: number) => ({ now: new Date((TIMESTAMP + offsetSeconds) * 1000) });
    expect(() => verifyWebhook(SECRET, headersFor(EXPECTED), BODY, at(300))).not.toThrow();
    expect(() => verifyWebhook(SECRET, headersFor(EXPECTED), BODY, at(-300))).not.toThrow();
    expect(verificationError(() => verifyWebhook(SECRET, headersFor(EXPECTED), BODY, at(301))).message).toMatch(/301 s old/);
    expect(verificationError(() => verifyWebhook(SECRET, headersFor(EXPECTED), BODY, at(-301))).message).toMatch(/301 s in the future/);
  });

  it('refuses a stale timestamp even when the signature is good', () => {
    expect(() => verifyWebhook(SECRET, headersFor(EXPECTED), BODY)).toThrow(/s old/);
  });

  it('takes its tolerance from the options', () => {
    const now = new Date((TIMESTAMP + 60) * 1000);
    expect(() => verifyWebhook(SECRET, headersFor(EXPECTED), BODY, { now, toleranceSeconds: 30 })).toThrow(/more than the 30 s/);
    expect(() => verifyWebhook(SECRET, headersFor(EXPECTED), BODY, { now, toleranceSeconds: 60 })).not.toThrow();
  });

  it.each(['1614265330.0', '1.6e9', '', 'soon', '-1614265330', ' 1614265330'])('refuses the timestamp header %j', (timestamp) => {
    expect(() => verifyWebhook(SECRET, headersFor(EXPECTED, MSG_ID, timestamp), BODY, { now: AT_TIMESTAMP }))
      .toThrow(/not a whole number of seconds/);
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])('refuses a delivery without %s', (name) => {
    const headers: Record<string, string> = headersFor(EXPECTED);
    delete headers[name];
    expect(() => verifyWebhook(SECRET, headers, BODY, { now: AT_TIMESTAMP })).toThrow(new RegExp(`Missing ${name}`));
  });

  it('refuses an id or timestamp given twice, which leaves unclear what was signed', () => {
    const twoIds = { ...headersFor(EXPECTED), 'Webhook-Id': 'msg_other' };
    expect(() => verifyWebhook(SECRET, twoIds, BODY, { now: AT_TIMESTAMP })).toThrow(/webhook-id header appears 2 times/);
    const twoTimestamps = { ...headersFor(EXPECTED), 'webhook-timestamp': [String(TIMESTAMP), String(TIMESTAMP)] };
    expect(() => verifyWebhook(SECRET, twoTimestamps, BODY, { now: AT_TIMESTAMP })).toThrow(/appears 2 times/);
  });
});
