/**
 * A request that stops arriving (a body cut short, headers never finished) is closed after the
 * request timeout, on every route, authenticated or not: a client cannot hold a connection and its
 * buffers open for ever. The timeout here is one second (LEDGER_REQUEST_TIMEOUT_MS; 30 s by default).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, startApi } from '../helpers/api-fixture.js';

const TIMEOUT_MS = 1000;

/** Sends `bytes` and keeps the socket open; resolves with what came back and when the server closed it. */
function sendAndWait(baseUrl: string, bytes: string): Promise<{ closedAfterMs: number; answer: string }> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const guard = setTimeout(() => { socket.destroy(); reject(new Error('the server kept the stalled request open for 15 s')); }, 15_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(guard);
      resolve({ closedAfterMs: performance.now() - started, answer: Buffer.concat(chunks).toString('utf8') });
    });
    socket.write(bytes);
  });
}

describe('stalled requests', () => {
  let api: ApiFixture;
  beforeAll(async () => { api = await startApi({ requestTimeoutMs: TIMEOUT_MS }); });
  afterAll(async () => { await api.close(); });

  const partialBody = (path: string, headers = '') =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n${headers}\r\n{"email": "a`;

  it.each([
    ['an unauthenticated route', partialBody('/auth/login')],
    ['the first-user setup', partialBody('/auth/setup')],
    ['an authenticated write', ''],
    ['headers that never end', 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n'],
  ])('closes %s whose bytes stop arriving after the request timeout', async (_label, bytes) => {
    const request = bytes === '' ? partialBody('/api/v1/journal-entries', `Authorization: Bearer ${api.apiKey}\r\n`) : bytes;
    const { closedAfterMs, answer } = await sendAndWait(api.baseUrl, request);
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(closedAfterMs).toBeLessThan(TIMEOUT_MS + 3000);
    // Node answers 408 when it can, or closes the connection; nothing else is ever answered.
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('answers a request whose body arrives slowly but whole within the timeout', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' });
    const { port } = new URL(api.baseUrl);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => { chunks.push(chunk); if (Buffer.concat(chunks).includes('\r\n\r\n{')) socket.end(); });
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.write(`POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      socket.write(body.slice(0, 10));
      setTimeout(() => socket.write(body.slice(10)), TIMEOUT_MS / 2);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
  });
});
