/**
 * The webhook verifier on the Standard Webhooks specification's test vector (the one
 * test/service/webhooks/signing.test.ts checks the ledger's signer on, docs/events.md).
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../src/index.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = '1614265330';
const BODY = '{"test": 2432232314}';
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
const SENT_AT = new Date(Number(TIMESTAMP) * 1000);

function verify(overrides: { secret?: string; body?: string; signature?: string; now?: Date } = {}) {
  return verifyWebhook({
    secret: overrides.secret ?? SECRET,
    headers: { 'Webhook-Id': ID, 'Webhook-Timestamp': TIMESTAMP, 'Webhook-Signature': overrides.signature ?? SIGNATURE },
    body: overrides.body ?? BODY,
    now: overrides.now ?? SENT_AT,
  });
}

describe('verifyWebhook', () => {
  it('accepts the test vector and returns the parsed body', () => {
    expect(verify()).toEqual({ test: 2432232314 });
  });

  it('accepts the body as bytes and the headers as a Headers object', () => {
    const headers = new Headers({ 'webhook-id': ID, 'webhook-timestamp': TIMESTAMP, 'webhook-signature': SIGNATURE });
    expect(verifyWebhook({ secret: SECRET, headers, body: new TextEncoder().encode(BODY), now: SENT_AT })).toEqual({ test: 2432232314 });
  });

  it('refuses a tampered body', () => {
    expect(() => verify({ body: '{"test": 2432232315}' })).toThrow(WebhookVerificationError);
  });

  it('refuses another secret', () => {
    expect(() => verify({ secret: 'whsec_' + Buffer.from('another secret of 32 bytes......').toString('base64') })).toThrow('no signature matches');
  });

  it('refuses a timestamp more than five minutes old or ahead, and accepts one just inside', () => {
    const at = (seconds: number) => new Date(SENT_AT.getTime() + seconds * 1000);
    expect(() => verify({ now: at(301) })).toThrow('outside the tolerance');
    expect(() => verify({ now: at(-301) })).toThrow('outside the tolerance');
    expect(verify({ now: at(300) })).toEqual({ test: 2432232314 });
  });

  it('accepts either of two signatures during a rotation, and only v1 ones', () => {
    const other = createHmac('sha256', Buffer.from('old secret')).update(`${ID}.${TIMESTAMP}.${BODY}`).digest('base64');
    expect(verify({ signature: `v1,${other} ${SIGNATURE}` })).toEqual({ test: 2432232314 });
    expect(() => verify({ signature: SIGNATURE.replace('v1,', 'v2,') })).toThrow(WebhookVerificationError);
  });
});
