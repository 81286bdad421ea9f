/**
 * The webhook receiver of the posting benchmark's webhook case (bench/webhooks.ts): its own process
 * on 127.0.0.1, pinned away from the server's core, so that what it costs is not the ledger's and
 * it does not share the load generator's event loop. It reads each delivery whole and answers 200
 * with an empty body at once; it counts deliveries per path (one path per endpoint) and deliveries
 * whose `webhook-id` that path had already received (repeats). It does not verify signatures: the
 * webhook tests do (test/helpers/webhook-receiver.mjs); here it would only add CPU on the load
 * generator's core. GET /_counts answers {"total", "paths": {path: count}, "repeats"}.
 * It prints "webhook receiver listening on http://127.0.0.1:PORT" once ready.
 */
import { createServer } from 'node:http';

const counts = new Map();
const seen = new Map();
let total = 0;
let repeats = 0;

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    if (request.method === 'GET' && request.url === '/_counts') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ total, paths: Object.fromEntries(counts), repeats }));
      return;
    }
    const path = request.url ?? '/';
    const id = String(request.headers['webhook-id'] ?? '');
    let ids = seen.get(path);
    if (ids === undefined) seen.set(path, ids = new Set());
    if (ids.has(id)) repeats += 1;
    else ids.add(id);
    counts.set(path, (counts.get(path) ?? 0) + 1);
    total += 1;
    response.writeHead(200, { 'content-length': '0' });
    response.end();
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`webhook receiver listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
