/**
 * A webhook receiver as its own process on 127.0.0.1, for the webhook tests: it checks every
 * delivery's Standard Webhooks signatures with its own code (not the ledger's), records each one
 * in arrival order with what it answered, notes when two deliveries overlap, and answers failures
 * on demand. Control: POST /_secrets {"secrets": [...]}, POST /_respond {"codes": [500, 410, ...]}
 * (answered in turn before 200s resume), POST /_delay {"ms": n}, POST /_kill_after {"count": n,
 * "pid": p} (SIGKILLs process p right after answering the n-th delivery from now: a server that
 * dies between a 2xx and its record), GET /_received (with `connections`: how many connections
 * carried deliveries, to see them kept alive). It prints "listening <port>" once ready.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

let secrets = [];
let codes = [];
let delayMs = 0;
let inFlight = 0;
let overlaps = 0;
const received = [];
/** Connections that carried at least one delivery (not the control calls). */
const deliverySockets = new WeakSet();
let connections = 0;
let killAfter;

function signatureOf(secret, id, timestamp, body) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
}

/** Indexes of the known secrets that some v1 signature of the header matches. */
function matching(id, timestamp, body, header) {
  const given = String(header ?? '').split(' ').filter((part) => part.startsWith('v1,')).map((part) => Buffer.from(part.slice(3), 'base64'));
  return secrets.flatMap((secret, index) => {
    const expected = signatureOf(secret, id, timestamp, body);
    return given.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected)) ? [index] : [];
  });
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const answer = (status, value) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value ?? {}));
    };
    if (request.url === '/_secrets') { secrets = JSON.parse(body).secrets; return answer(200); }
    if (request.url === '/_respond') { codes = JSON.parse(body).codes; return answer(200); }
    if (request.url === '/_delay') { delayMs = JSON.parse(body).ms; return answer(200); }
    if (request.url === '/_kill_after') { killAfter = JSON.parse(body); return answer(200); }
    if (request.url === '/_received') return answer(200, { received, overlaps, connections });
    if (!deliverySockets.has(request.socket)) {
      deliverySockets.add(request.socket);
      connections += 1;
    }
    inFlight += 1;
    if (inFlight > 1) overlaps += 1;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const status = codes.length > 0 ? codes.shift() : 200;
    const id = request.headers['webhook-id'];
    const timestamp = request.headers['webhook-timestamp'];
    received.push({
      id, timestamp, path: request.url, status, signatures: String(request.headers['webhook-signature'] ?? '').split(' ').length,
      valid_with: matching(id, timestamp, body, request.headers['webhook-signature']), event: JSON.parse(body),
    });
    inFlight -= 1;
    answer(status);
    if (killAfter !== undefined && --killAfter.count === 0) {
      const { pid } = killAfter;
      killAfter = undefined;
      setImmediate(() => process.kill(pid, 'SIGKILL'));
    }
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
