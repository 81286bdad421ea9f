// The reference of issue 25's PostgreSQL posting goal, for bench/postgres.ts: a bare node:http
// server on `pg` that does for POST /api/v1/journal-entries only what a durable server on
// PostgreSQL cannot skip: read the whole body, parse it, check for the credential, write the entry
// and its lines, and answer 201 with the entry echoed only after the COMMIT that made it durable.
// Requests are written in groups, as the ledger's group commit does: one group in flight on one
// connection; whatever arrives meanwhile (at most 64 requests) is the next group, written by ONE
// statement (a CTE inserting the entries and their lines from unnest arrays) that runs as its own
// transaction, so its COMMIT is the statement's end. The two tables are its own and plain (an entry
// keyed by an id made here, its lines keyed by entry and position): nothing of the ledger's.
// Plain JavaScript, so that node runs it as it is; BENCH_PG_URL names the (empty) database.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const PATH = '/api/v1/journal-entries';
const GROUP = 64;
const PERIOD_ID = randomUUID();
const USER_ID = randomUUID();
const CURRENCY_ID = randomUUID();
const HASH = '0'.repeat(64);

const client = new pg.Client({ connectionString: process.env.BENCH_PG_URL });
await client.connect();
await client.query(`CREATE TABLE IF NOT EXISTS bare_entries (id uuid PRIMARY KEY, entry_date date NOT NULL, description text NOT NULL,
  posted_at timestamptz NOT NULL DEFAULT now())`);
await client.query(`CREATE TABLE IF NOT EXISTS bare_lines (entry_id uuid NOT NULL, position int NOT NULL, account_id text NOT NULL,
  debit_amount numeric NOT NULL, credit_amount numeric NOT NULL, PRIMARY KEY (entry_id, position))`);

const WRITE_GROUP = {
  name: 'write_group',
  text: `WITH entries AS (
    INSERT INTO bare_entries (id, entry_date, description) SELECT * FROM unnest($1::uuid[], $2::date[], $3::text[])
  )
  INSERT INTO bare_lines (entry_id, position, account_id, debit_amount, credit_amount)
  SELECT * FROM unnest($4::uuid[], $5::int[], $6::text[], $7::numeric[], $8::numeric[])`,
};

/** Requests parsed and waiting for the next group: { id, entry, res }. */
let waiting = [];
let writing = false;
let groups = 0;
let grouped = 0;

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function created(job) {
  const { id, entry } = job;
  return {
    data: {
      id, entry_date: entry.entry_date, description: entry.description, reference: null, metadata: null, period_id: PERIOD_ID,
      entry_type: 'standard', reverses_id: null, reversed_by_id: null, created_by: USER_ID, posted_at: new Date().toISOString(),
      currency_id: CURRENCY_ID, previous_hash: HASH, hash: HASH,
      lines: entry.lines.map((line, index) => ({
        id: `${id}:${index + 1}`, account_id: line.account_id, debit_amount: line.debit_amount ?? '0', credit_amount: line.credit_amount ?? '0',
        description: line.description ?? null,
      })),
    },
  };
}

/** Writes the waiting requests (at most GROUP) in one statement, answers them, then the next group. */
async function writeGroups() {
  if (writing) return;
  writing = true;
  try {
    while (waiting.length > 0) {
      const group = waiting.slice(0, GROUP);
      waiting = waiting.slice(group.length);
      const ids = [], dates = [], descriptions = [], lineEntries = [], positions = [], accounts = [], debits = [], credits = [];
      for (const { id, entry } of group) {
        ids.push(id);
        dates.push(entry.entry_date);
        descriptions.push(entry.description);
        entry.lines.forEach((line, index) => {
          lineEntries.push(id);
          positions.push(index + 1);
          accounts.push(line.account_id);
          debits.push(line.debit_amount ?? '0');
          credits.push(line.credit_amount ?? '0');
        });
      }
      try {
        await client.query({ ...WRITE_GROUP, values: [ids, dates, descriptions, lineEntries, positions, accounts, debits, credits] });
        groups += 1;
        grouped += group.length;
        for (const job of group) answer(job.res, 201, created(job));
      } catch (error) {
        for (const job of group) answer(job.res, 500, { error: { code: 'INTERNAL', message: String(error) } });
      }
    }
  } finally {
    writing = false;
  }
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') return answer(res, 200, { groups, entries: grouped });
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
    if (typeof entry?.entry_date !== 'string' || typeof entry.description !== 'string' || !Array.isArray(entry.lines)) {
      return answer(res, 400, { error: { code: 'VALIDATION_ERROR' } });
    }
    waiting.push({ id: randomUUID(), entry, res });
    void writeGroups();
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`bare node:http on pg listening on http://127.0.0.1:${port}\n`);
});
// Close on SIGTERM as ledger serve does (stopServer in bench/lib.ts sends it).
process.once('SIGTERM', () => {
  server.close(() => { void client.end().finally(() => process.exit(0)); });
  server.closeAllConnections();
});
