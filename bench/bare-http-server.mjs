// The ceiling of HTTP on this machine, for bench/http-baseline.ts: node:http alone, doing for
// POST /api/v1/journal-entries only what no server can skip (read the whole body, parse it, look
// for the credential, answer JSON the size of the real API's answer) and nothing of the ledger's.
// For bench/reports.ts, a GET of any other path answers a small JSON body (the size of an account
// balance) at once: the floor of one request's latency on this machine.
// Plain JavaScript, so that node runs it as it is, without a loader.
import { randomUUID } from 'node:crypto';
import http from 'node:http';

const PATH = '/api/v1/journal-entries';
// Stand-ins for the ids and hashes the real answer carries, so that its size is about the same.
const PERIOD_ID = randomUUID();
const USER_ID = randomUUID();
const CURRENCY_ID = randomUUID();
const HASH = '0'.repeat(64);

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function line(sent, index) {
  const debit = sent.debit_amount ?? '0';
  const credit = sent.credit_amount ?? '0';
  return {
    id: randomUUID(), account_id: sent.account_id, account_number: String(1000 + index), account_name: `Account ${index}`,
    debit_amount: debit, credit_amount: credit, display_debit: debit, display_credit: credit, description: sent.description ?? null,
  };
}

/** An answer shaped like GET /accounts/{id}/balance's (about 0.2 KiB). */
const FLOOR_ANSWER = {
  data: {
    account_id: PERIOD_ID, period_id: null, total_debits: '123456789012', total_credits: '1234567', net_balance: '123455554445',
    display_debits: '1234567890.12', display_credits: '12345.67', display_net_balance: '1234555544.45', normal_balance: 'debit',
  },
};

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    if (req.headers.authorization === undefined) return answer(res, 401, { error: { code: 'UNAUTHORIZED' } });
    return answer(res, 200, FLOOR_ANSWER);
  }
  if (req.method !== 'POST' || req.url !== PATH) return answer(res, 404, { error: { code: 'NOT_FOUND' } });
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.headers.authorization === undefined) return answer(res, 401, { error: { code: 'UNAUTHORIZED' } });
    let entry;
    try {
      entry = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(res, 400, { error: { code: 'VALIDATION_ERROR' } });
    }
    const lines = Array.isArray(entry?.lines) ? entry.lines : [];
    answer(res, 201, {
      data: {
        id: randomUUID(), entry_date: entry.entry_date, description: entry.description, reference: entry.reference ?? null,
        metadata: entry.metadata ?? null, period_id: PERIOD_ID, entry_type: 'standard', reverses_id: null, reversed_by_id: null,
        created_by: USER_ID, posted_at: new Date().toISOString(), currency_id: CURRENCY_ID, previous_hash: HASH, hash: HASH,
        lines: lines.map(line),
      },
    });
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`bare node:http listening on http://127.0.0.1:${port}\n`);
});
// Close on SIGTERM as ledger serve does (stopServer in bench/lib.ts sends it).
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
