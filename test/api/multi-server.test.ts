/**
 * Several real `ledger serve` processes on one database (a SQLite file, or a PostgreSQL database
 * in the postgres project), the way a business behind a load balancer runs them. Only the database
 * can keep the rules here: no process sees another's memory. While many clients post valid and
 * invalid entries to one hot account through every server, one closes a period, two reverse the
 * same entry, two send the same Idempotency-Key and readers ask for reports; afterwards the
 * books' identities hold. Sessions, the last-admin rule and the login throttle work across servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initLedger, openLedger } from '../../src/app/open-ledger.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';
import { createTestLocation, type TestLocation } from '../helpers/test-location.js';

const SERVERS = 3;
const PASSWORD = 'three servers share this passphrase';

interface Answer {
  status: number;
  body: any;
}

let place: TestLocation;
let servers: ServeProcess[] = [];
let books: Awaited<ReturnType<typeof seed>>;

async function call(server: ServeProcess, method: string, path: string, token: string | null, body?: unknown,
  headers: Record<string, string> = {}): Promise<Answer> {
  const allHeaders: Record<string, string> = { ...headers };
  if (token !== null) allHeaders.authorization = `Bearer ${token}`;
  if (body !== undefined) allHeaders['content-type'] = 'application/json';
  const response = await fetch(server.baseUrl + path, { method, headers: allHeaders, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The books, written through the service as the local operator (no admin API key exists). */
async function seed(location: string) {
  await initLedger(location);
  const service = await openLedger(location, undefined, { scryptCost: 2 ** 10 });
  try {
    const op = LOCAL_OPERATOR;
    const usd = await service.createFiatCurrency(op, 'USD');
    const january = await service.createPeriod(op, { name: 'January', start_date: '2026-01-01', end_date: '2026-01-31' });
    const february = await service.createPeriod(op, { name: 'February', start_date: '2026-02-01', end_date: '2026-02-28' });
    const account = (account_number: string, name: string, account_type: 'asset' | 'equity' | 'revenue' | 'expense') =>
      service.createAccount(op, {
        account_number, name, currency_id: usd.id, account_type,
        normal_balance: account_type === 'asset' || account_type === 'expense' ? 'debit' : 'credit',
      });
    const cash = await account('1000', 'Cash', 'asset');
    const equity = await account('3000', 'Retained Earnings', 'equity');
    const sales = await account('4000', 'Sales', 'revenue');
    const rent = await account('6000', 'Rent', 'expense');
    const closedDown = await account('6100', 'Closed down', 'expense');
    await service.updateAccount(op, closedDown.id, { is_active: false });
    await service.updateSettings(op, { retained_earnings_account_id: equity.id });
    const clerk = await service.createServiceAccount(null, {
      name: 'posting agent', permissions: { 'journals:create': true, 'journals:reverse': true, 'periods:close': true },
    });
    const first = await service.createUser(null, { name: 'First Admin', email: 'first@example.com', password: PASSWORD, permissions: { admin: true } });
    const second = await service.createUser(null, { name: 'Second Admin', email: 'second@example.com', password: PASSWORD, permissions: { admin: true } });
    await service.createUser(null, { name: 'Bookkeeper', email: 'keeper@example.com', password: PASSWORD, permissions: {} });
    return { usd, january, february, cash, equity, sales, rent, closedDown, clerkKey: clerk.api_key, first, second };
  } finally {
    await service.ctx.store.close();
  }
}

function entry(date: string, amount: string, description: string, debit: string, credit: string) {
  return {
    entry_date: date, description,
    lines: [{ account_id: debit, debit_amount: amount }, { account_id: credit, credit_amount: amount }],
  };
}

/** Every page of a list, through one server. */
async function all(server: ServeProcess, token: string, path: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const answer = await call(server, 'GET', `${path}${separator}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    expect(answer.status).toBe(200);
    rows.push(...answer.body.data);
    cursor = answer.body.next_cursor;
  } while (cursor !== null);
  return rows;
}

beforeAll(async () => {
  place = await createTestLocation('ledger-multi-server');
  books = await seed(place.location);
  servers = await Promise.all(Array.from({ length: SERVERS }, () => startServe(place.location)));
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await place?.remove();
});

describe(`${SERVERS} ledger serve processes on one database`, () => {
  it('keeps every rule under concurrent posts, a close, double reversals and a repeated idempotency key', async () => {
    const key = books.clerkKey;
    const at = (index: number) => servers[index % SERVERS]!;
    const target = await call(at(0), 'POST', '/api/v1/journal-entries', key,
      entry('2026-02-03', '500', 'to be reversed twice', books.cash.id, books.sales.id));
    expect(target.status).toBe(201);

    const jobs: Promise<{ kind: string; answer: Answer }>[] = [];
    const job = (kind: string, answer: Promise<Answer>) => jobs.push(answer.then((result) => ({ kind, answer: result })));
    // The close starts once some January entries have landed, while the rest are still in flight.
    let januaryLanded = 0;
    const closeWhenUnderWay = (answer: Answer) => {
      if (answer.status === 201 && answer.body.data.entry_date.startsWith('2026-01') && (januaryLanded += 1) === 20) {
        job('close', call(at(1), 'POST', `/api/v1/periods/${books.january.id}/close`, key));
      }
      return answer;
    };
    for (let index = 0; index < 240; index += 1) {
      const server = at(index);
      const date = index % 2 === 0 ? '2026-01-15' : '2026-02-15';
      if (index % 6 === 5) {
        // Unbalanced, or to an inactive account: refused on every server, changing nothing.
        const bad = index % 12 === 5
          ? { ...entry(date, '7', 'unbalanced', books.cash.id, books.sales.id), lines: [{ account_id: books.cash.id, debit_amount: '7' }, { account_id: books.sales.id, credit_amount: '6' }] }
          : entry(date, '7', 'inactive', books.closedDown.id, books.cash.id);
        job('invalid', call(server, 'POST', '/api/v1/journal-entries', key, bad));
      } else {
        // Every valid entry touches the same two (hot) accounts.
        job('valid', call(server, 'POST', '/api/v1/journal-entries', key, entry(date, String(100 + index), `sale ${index}`, books.cash.id, books.sales.id))
          .then(closeWhenUnderWay));
      }
      if (index === 100) {
        job('reverse', call(at(0), 'POST', `/api/v1/journal-entries/${target.body.data.id}/reverse`, key, { entry_date: '2026-02-20' }));
        job('reverse', call(at(1), 'POST', `/api/v1/journal-entries/${target.body.data.id}/reverse`, key, { entry_date: '2026-02-21' }));
      }
      if (index === 120) {
        const body = entry('2026-02-10', '999', 'sent twice', books.cash.id, books.rent.id);
        job('idempotent', call(at(1), 'POST', '/api/v1/journal-entries', key, body, { 'idempotency-key': 'invoice-42' }));
        job('idempotent', call(at(2), 'POST', '/api/v1/journal-entries', key, body, { 'idempotency-key': 'invoice-42' }));
      }
      if (index % 20 === 0) {
        // Reports while others post: each is one snapshot, so each balances.
        job('trial-balance', call(at(index + 1), 'GET', '/api/v1/reports/trial-balance', key));
        job('balance-sheet', call(at(index + 2), 'GET', '/api/v1/reports/balance-sheet', key));
      }
    }
    let results = await Promise.all(jobs);
    // The close was added to `jobs` while they ran.
    results = await Promise.all(jobs);
    const statuses = (kind: string) => results.filter((result) => result.kind === kind).map((result) => result.answer.status);

    expect(results.filter((result) => result.answer.status >= 500)).toEqual([]);
    expect(new Set(statuses('invalid'))).toEqual(new Set([400]));
    // A valid post either lands or, dated in January after the close took it, is refused as closed.
    for (const result of results.filter((r) => r.kind === 'valid' && r.answer.status !== 201)) {
      expect({ status: result.answer.status, code: result.answer.body.code }).toEqual({ status: 400, code: 'NO_OPEN_PERIOD' });
    }
    expect(statuses('close')).toEqual([200]);
    expect(statuses('reverse').sort()).toEqual([201, 409]);
    expect(results.find((r) => r.kind === 'reverse' && r.answer.status === 409)!.answer.body.code).toBe('REVERSAL_NOT_ALLOWED');
    for (const result of results.filter((r) => r.kind === 'trial-balance')) expect(result.answer.body.data.is_balanced).toBe(true);
    for (const result of results.filter((r) => r.kind === 'balance-sheet')) expect(result.answer.body.data.is_balanced).toBe(true);
    // The same key on two servers acts once: the other answer replays it or says it is in progress.
    const idempotent = results.filter((r) => r.kind === 'idempotent').map((r) => r.answer);
    expect(idempotent.some((answer) => answer.status === 201)).toBe(true);
    for (const answer of idempotent) {
      if (answer.status !== 201) expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 409, code: 'IDEMPOTENCY_CONFLICT' });
    }

    const entries = await all(servers[0]!, key, '/api/v1/journal-entries');
    expect(entries.filter((e) => e.description === 'sent twice')).toHaveLength(1);
    expect(entries.filter((e) => e.reverses_id === target.body.data.id)).toHaveLength(1);
    const landed = results.filter((r) => r.kind === 'valid' && r.answer.status === 201).map((r) => r.answer.body.data.id);
    expect(new Set(entries.map((e) => e.id))).toEqual(new Set([
      target.body.data.id, ...landed,
      ...results.filter((r) => (r.kind === 'idempotent' || r.kind === 'reverse') && r.answer.status === 201).map((r) => r.answer.body.data.id),
      ...results.filter((r) => r.kind === 'close').map((r) => r.answer.body.data.closing_entry.id),
    ]));

    // Every maintained total equals the sum of its lines, all time and per period.
    const sums = new Map<string, { debits: bigint; credits: bigint }>();
    const periodSums = new Map<string, { debits: bigint; credits: bigint }>();
    for (const e of entries) {
      for (const line of e.lines) {
        for (const [map, mapKey] of [[sums, line.account_id], [periodSums, `${line.account_id}:${e.period_id}`]] as const) {
          const sum = map.get(mapKey) ?? { debits: 0n, credits: 0n };
          sum.debits += BigInt(line.debit_amount);
          sum.credits += BigInt(line.credit_amount);
          map.set(mapKey, sum);
        }
      }
    }
    for (const account of [books.cash, books.sales, books.rent, books.equity, books.closedDown]) {
      const balance = (await call(at(account.account_number.length), 'GET', `/api/v1/accounts/${account.id}/balance`, key)).body.data;
      expect({ debits: balance.total_debits, credits: balance.total_credits }).toEqual({
        debits: String(sums.get(account.id)?.debits ?? 0n), credits: String(sums.get(account.id)?.credits ?? 0n),
      });
      for (const period of [books.january, books.february]) {
        const inPeriod = (await call(at(1), 'GET', `/api/v1/accounts/${account.id}/balance?period_id=${period.id}`, key)).body.data;
        const expected = periodSums.get(`${account.id}:${period.id}`);
        expect({ debits: inPeriod.total_debits, credits: inPeriod.total_credits })
          .toEqual({ debits: String(expected?.debits ?? 0n), credits: String(expected?.credits ?? 0n) });
      }
    }

    // The close saw every January entry: January's revenue nets to zero after its closing entry,
    // and no January entry was posted after the close began.
    const january = (await call(at(2), 'GET', `/api/v1/periods/${books.january.id}`, key)).body.data;
    expect(january.status).toBe('closed');
    const januaryEntries = entries.filter((e) => e.period_id === books.january.id && e.entry_type !== 'closing');
    expect(januaryEntries.length).toBeGreaterThan(0);
    for (const e of januaryEntries) expect(e.posted_at <= january.closed_at).toBe(true);
    const januarySales = (await call(at(0), 'GET', `/api/v1/accounts/${books.sales.id}/balance?period_id=${books.january.id}`, key)).body.data;
    expect(januarySales.net_balance).toBe('0');
    const trialBalance = (await call(at(1), 'GET', '/api/v1/reports/trial-balance', key)).body.data;
    expect(trialBalance.is_balanced).toBe(true);

    // Entry numbers: every committed entry has one, 1 to n without a gap or a repeat, although
    // the servers posted at once and many posts were refused or rolled back; and they follow
    // posting order (verify's entry_numbers check walks the entries in posting order).
    const numbers = entries.map((e) => e.entry_number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: entries.length }, (_, index) => index + 1));
    const login = await call(servers[0]!, 'POST', '/auth/login', null, { email: 'first@example.com', password: PASSWORD });
    const verified = (await call(at(0), 'GET', '/api/v1/verify', login.body.data.access_token)).body.data;
    expect(verified.problems).toEqual([]);
  }, 120_000);

  it('shares the JWT secret, rotates a refresh token sent to two servers once, and counts failed logins across servers', async () => {
    const login = await call(servers[0]!, 'POST', '/auth/login', null, { email: 'keeper@example.com', password: PASSWORD });
    expect(login.status).toBe(200);
    for (const server of servers) {
      expect((await call(server, 'GET', '/auth/me', login.body.data.access_token)).status).toBe(200);
    }
    const rotations = await Promise.all([servers[1]!, servers[2]!].map((server) =>
      call(server, 'POST', '/auth/refresh', null, { refresh_token: login.body.data.refresh_token })));
    expect(rotations.map((answer) => answer.status).sort()).toEqual([200, 401]);

    // Ten failures for one e-mail, spread over every server; the eleventh attempt is throttled wherever it lands.
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const answer = await call(servers[attempt % SERVERS]!, 'POST', '/auth/login', null, { email: 'first@example.com', password: 'wrong password' });
      expect(answer.status).toBe(401);
    }
    for (const server of servers) {
      const answer = await call(server, 'POST', '/auth/login', null, { email: 'first@example.com', password: 'wrong password' });
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    }
  }, 60_000);

  it('keeps the last active admin when two admins remove each other on two servers at once', async () => {
    // Tokens signed with the secret every server reads from the database (logins from this
    // address are throttled by the test above).
    const operator = await openLedger(place.location, undefined, { scryptCost: 2 ** 10 });
    try {
      // An access token is good while its login session is open, and deactivation ends the
      // user's sessions: each round opens a session per admin (a refresh-token family) and signs
      // a token for it.
      const sessionToken = async (userId: string, round: number) => {
        const familyId = `session-${userId}-${round}`;
        const now = new Date().toISOString();
        await operator.ctx.store.write((tx) => tx.insertRefreshToken({
          id: `${familyId}-token`, user_id: userId, family_id: familyId, token_hash: `hash-${familyId}`, created_at: now,
          expires_at: new Date(Date.now() + 60 * 60 * 1000).toISOString(), revoked_at: null, replaced_by: null,
        }));
        return operator.ctx.accessTokens.issue(userId, familyId);
      };
      // The race is short, so it is run many times; after each round the loser is reactivated.
      for (let round = 0; round < 25; round += 1) {
        const [firstToken, secondToken] = [await sessionToken(books.first.id, round), await sessionToken(books.second.id, round)];
        const answers = await Promise.all([
          call(servers[round % SERVERS]!, 'PATCH', `/api/v1/users/${books.first.id}`, secondToken, { is_active: false }),
          call(servers[(round + 1) % SERVERS]!, 'PATCH', `/api/v1/users/${books.second.id}`, firstToken, { is_active: false }),
        ]);
        // One wins. The other is refused: as the last admin (400), or, when the winner removed its
        // caller first, because its caller is no longer active (401).
        expect(await operator.ctx.store.countActiveAdmins()).toBe(1);
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
        const refused = answers.find((answer) => answer.status !== 200)!;
        expect([[400, 'VALIDATION_ERROR'], [401, 'UNAUTHORIZED']]).toContainEqual([refused.status, refused.body.code]);
        for (const user of [books.first, books.second]) await operator.updateUser(null, user.id, { is_active: true });
      }
    } finally {
      await operator.ctx.store.close();
    }
  }, 60_000);
});
