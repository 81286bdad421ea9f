/**
 * Storage contract: write() runs each job as one transaction that behaves as if it ran alone (the
 * read-then-write rules of the port hold under concurrency), read() answers from one snapshot,
 * and the store offers every method of the port.
 */
import { describe, expect, it } from 'vitest';
import type { LedgerError } from '../../../src/domain/errors.js';
import type { JournalEntry } from '../../../src/domain/types.js';
import type { LedgerStore, LedgerTx } from '../../../src/service/ports/ledger-store.js';
import {
  accountFixture, adminFixture, credit, currencyFixture, debit, LARGEST_AMOUNT, periodFixture,
  refreshTokenFixture, SeededRandom, totalsOf, userFixture,
} from './fixtures.js';
import { contractSeed, expectLedgerError, freshBooksPerTest, openStoreForTest, rejectionOf, walkPages } from './support.js';

describe('storage contract: write transactions', () => {
  const { context, books, fixtures } = freshBooksPerTest();

  const sale = (value: bigint | number, date = '2026-02-10') =>
    fixtures.entry({ date, period: books.february, lines: [debit(books.cash, value), credit(books.sales, value)] });

  it('answers what the job returns, after committing all of its writes', async () => {
    const entry = sale(10);
    const answer = await context.store.write(async (tx) => {
      await tx.insertCurrency(currencyFixture('CHF'));
      await tx.insertEntry(entry);
      await tx.setSetting('note', 'written');
      return { answer: 42 };
    });
    expect(answer).toEqual({ answer: 42 });
    expect(await context.store.getCurrency('currency-CHF')).toBeDefined();
    expect(await context.store.getEntry(entry.id)).toBeDefined();
    expect(await context.store.getSetting('note')).toBe('written');
  });

  it('rolls back every write of a job that throws, and rejects with what the job threw', async () => {
    const entry = sale(10);
    const failure = new Error('the job changed its mind');
    const outcome = context.store.write(async (tx) => {
      await tx.insertCurrency(currencyFixture('CHF'));
      await tx.insertAccount(accountFixture('1999', books.usd));
      await tx.insertPeriod(periodFixture('2026-04-01', '2026-04-30'));
      await tx.updateAccount(books.cash.id, { name: 'Renamed' });
      await tx.insertEntry(entry);
      await tx.setSetting('note', 'written');
      await tx.insertUser(userFixture('rolled-back'));
      await tx.recordLoginFailure(['email:x'], '2026-01-01T00:00:00.000Z');
      await tx.reserveIdempotencyKey('user-a', 'key-1', 'hash', '2026-01-01T00:00:00.000Z');
      throw failure;
    });
    await expect(outcome).rejects.toBe(failure);
    expect(await context.store.getCurrency('currency-CHF')).toBeUndefined();
    expect(await context.store.getAccount('account-1999')).toBeUndefined();
    expect(await context.store.getPeriod('period-2026-04-01')).toBeUndefined();
    expect((await context.store.getAccount(books.cash.id))?.name).toBe(books.cash.name);
    expect(await context.store.getEntry(entry.id)).toBeUndefined();
    expect(await context.store.countEntries()).toBe(0);
    expect(await context.store.accountTotals({})).toEqual(new Map());
    expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(0n);
    expect(await context.store.getSetting('note')).toBeUndefined();
    expect(await context.store.countUsers()).toBe(0);
    expect(await context.store.recentLoginFailures('email:x', '2000-01-01T00:00:00.000Z', 10)).toEqual([]);
    expect(await context.store.getIdempotencyRecord('user-a', 'key-1')).toBeUndefined();
  });

  it('rolls back the earlier writes of a job that fails on a duplicate', async () => {
    await expectLedgerError(context.store.write(async (tx) => {
      await tx.insertCurrency(currencyFixture('CHF'));
      await tx.insertEntry(sale(5));
      await tx.insertAccount(accountFixture(books.cash.account_number, books.usd, { id: 'account-clash' }));
    }), 'DUPLICATE', 'account_number');
    expect(await context.store.getCurrency('currency-CHF')).toBeUndefined();
    expect(await context.store.countEntries()).toBe(0);
    expect(await context.store.accountTotals({})).toEqual(new Map());
  });

  describe('a refused write rejects inside the job with its LedgerError already, so the job can tell what went wrong', () => {
    /**
     * Runs `refused` in a job and answers the code and field it rejected with, as the job saw
     * them; the job, having met a refusal, then fails whole with that same error.
     */
    const seenInside = async (refused: (tx: LedgerTx) => Promise<unknown>) => {
      let seen: LedgerError | undefined;
      const outcome = await rejectionOf(context.store.write(async (tx) => {
        seen = await rejectionOf(refused(tx));
      }));
      expect(outcome).toBe(seen);
      return { code: seen!.code, field: seen!.field };
    };

    it('refuses an entry past the currency bound with currencyTotalOverflow()', async () => {
      await context.store.write((tx) => tx.insertEntry(sale(LARGEST_AMOUNT)));
      expect(await seenInside((tx) => tx.insertEntry(sale(1)))).toEqual({ code: 'VALIDATION_ERROR', field: 'lines' });
    });

    it('refuses a currency code that is taken as DUPLICATE on code', async () => {
      expect(await seenInside((tx) => tx.insertCurrency(currencyFixture('usd')))).toEqual({ code: 'DUPLICATE', field: 'code' });
    });

    it('refuses a second reversal of an entry as REVERSAL_NOT_ALLOWED', async () => {
      const original = sale(5);
      await context.store.write(async (tx) => {
        await tx.insertEntry(original);
        await tx.insertEntry(fixtures.reversal(original, books.accounts, '2026-02-11', books.february));
      });
      expect(await seenInside((tx) => tx.insertEntry(fixtures.reversal(original, books.accounts, '2026-02-12', books.february))))
        .toEqual({ code: 'REVERSAL_NOT_ALLOWED', field: undefined });
    });
  });

  it('rolls back only the job that fails among jobs running at the same time', async () => {
    const entries = [sale(1), sale(2), sale(3)];
    const outcomes = await Promise.allSettled([
      context.store.write(async (tx) => { await tx.insertEntry(entries[0]!); await tx.setSetting('a', '1'); }),
      context.store.write(async (tx) => { await tx.insertEntry(entries[1]!); await tx.setSetting('b', '2'); throw new Error('refused'); }),
      context.store.write(async (tx) => { await tx.insertEntry(entries[2]!); await tx.setSetting('c', '3'); }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await context.store.allSettings()).toEqual(new Map([['a', '1'], ['c', '3']]));
    expect(await context.store.getEntry(entries[1]!.id)).toBeUndefined();
    expect(await context.store.accountTotals({})).toEqual(totalsOf([entries[0]!, entries[2]!]));
  });

  it('commits both of two jobs that run at the same time', async () => {
    const [first, second] = [sale(7), sale(11)];
    await Promise.all([
      context.store.write(async (tx) => { await tx.insertEntry(first); await tx.insertCurrency(currencyFixture('CHF')); }),
      context.store.write(async (tx) => { await tx.insertEntry(second); await tx.insertCurrency(currencyFixture('SEK')); }),
    ]);
    expect(await context.store.countEntries()).toBe(2);
    expect(await context.store.getCurrency('currency-CHF')).toBeDefined();
    expect(await context.store.getCurrency('currency-SEK')).toBeDefined();
    expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(18n);
  });

  it('keeps a job\'s writes invisible to readers outside it until it commits', async () => {
    const entry = sale(9);
    const seenOutside = await context.store.write(async (tx) => {
      await tx.insertEntry(entry);
      await tx.setSetting('pending', 'yes');
      return {
        entry: await context.store.getEntry(entry.id),
        setting: await context.store.getSetting('pending'),
        total: await context.store.currencyDebitTotal(books.usd.id),
        snapshot: await context.store.read((reads) => reads.countEntries()),
      };
    });
    expect(seenOutside).toEqual({ entry: undefined, setting: undefined, total: 0n, snapshot: 0 });
    expect(await context.store.getEntry(entry.id)).toBeDefined();
    expect(await context.store.getSetting('pending')).toBe('yes');
  });

  it('keeps every total equal to the sum of the lines after 50 jobs post to the same two accounts at once', async () => {
    const seed = contractSeed('50 concurrent postings');
    const random = new SeededRandom(seed);
    const entries: JournalEntry[] = Array.from({ length: 50 }, () => {
      const period = random.pick(books.periods);
      const date = `${period.start_date.slice(0, 8)}${String(random.integer(1, 28)).padStart(2, '0')}`;
      const value = random.amount(random.integer(1, 100));
      return fixtures.entry({ date, period, lines: [debit(books.cash, value), credit(books.sales, value)] });
    });
    const outcomes = await Promise.allSettled(entries.map((entry) => context.store.write((tx) => tx.insertEntry(entry))));
    expect(outcomes.filter((outcome) => outcome.status === 'rejected'), `seed ${seed}`).toEqual([]);
    const message = `seed ${seed}`;
    const sum = entries.reduce((total, entry) => total + entry.lines[0]!.debit_amount, 0n);
    expect(await context.store.countEntries(), message).toBe(50);
    expect(await context.store.accountTotals({}), message).toEqual(new Map([
      [books.cash.id, { debit_total: sum, credit_total: 0n }], [books.sales.id, { debit_total: 0n, credit_total: sum }],
    ]));
    for (const period of books.periods) {
      expect(await context.store.accountTotals({ period_id: period.id }), `${message}, ${period.name}`)
        .toEqual(totalsOf(entries, (entry) => entry.period_id === period.id));
    }
    for (const date of ['2026-01-15', '2026-02-01', '2026-02-14', '2026-03-20', '2026-04-01']) {
      expect(await context.store.accountTotals({ before_date: date }), `${message}, before ${date}`)
        .toEqual(totalsOf(entries, (entry) => entry.entry_date < date));
    }
    expect(await context.store.currencyDebitTotal(books.usd.id), message).toBe(sum);
    expect(await context.store.allCurrencyDebitTotals(), message).toEqual(new Map([[books.usd.id, sum]]));
    const lines = await walkPages((request) => context.store.listAccountLines({ account_id: books.cash.id }, {}, 'asc', request), 7);
    expect(lines.items, message).toHaveLength(50);
    expect(new Set(lines.items.map((line) => line.journal_entry_id)).size, message).toBe(50);
  });

  describe('read-then-write rules hold while jobs run at the same time', () => {
    it('creates the first user once when several setups race (countUsers)', async () => {
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, index) => context.store.write(async (tx) => {
        if ((await tx.countUsers()) > 0) return 'already set up';
        await tx.insertUser(adminFixture(`first-${index}`));
        return 'created';
      })));
      expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
      expect(await context.store.countUsers()).toBe(1);
    });

    it('never deactivates the last active admin when two admins deactivate themselves at once (countActiveAdmins)', async () => {
      const admins = [adminFixture('ada'), adminFixture('grace'), adminFixture('linus')];
      await context.store.write(async (tx) => {
        for (const admin of admins) await tx.insertUser(admin);
      });
      const outcomes = await Promise.all(admins.map((admin) => context.store.write(async (tx) => {
        if ((await tx.countActiveAdmins()) <= 1) return 'kept';
        await tx.updateUser(admin.id, { is_active: false });
        return 'deactivated';
      })));
      expect(outcomes.filter((outcome) => outcome === 'deactivated')).toHaveLength(2);
      expect(await context.store.countActiveAdmins()).toBe(1);
    });

    it('creates only one of several overlapping periods created at once (findOverlappingPeriods)', async () => {
      const candidates = [periodFixture('2026-04-01', '2026-04-30'), periodFixture('2026-04-15', '2026-05-14'), periodFixture('2026-04-30', '2026-05-31')];
      const outcomes = await Promise.all(candidates.map((period) => context.store.write(async (tx) => {
        if ((await tx.findOverlappingPeriods(period.start_date, period.end_date)).length > 0) return 'overlaps';
        await tx.insertPeriod(period);
        return 'created';
      })));
      expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
      expect(await context.store.findOverlappingPeriods('2026-04-01', '2026-05-31')).toHaveLength(1);
    });

    it('rotates a refresh token once when several refreshes use it at once (findRefreshToken)', async () => {
      const user = userFixture('alice');
      const token = refreshTokenFixture(user, 'first', 'family-1');
      await context.store.write(async (tx) => {
        await tx.insertUser(user);
        await tx.insertRefreshToken(token);
      });
      const outcomes = await Promise.all(Array.from({ length: 5 }, (_, index) => context.store.write(async (tx) => {
        const found = await tx.findRefreshToken(token.token_hash);
        if (!found || found.revoked_at !== null) return 'reused';
        const successor = refreshTokenFixture(user, `next-${index}`, found.family_id);
        await tx.insertRefreshToken(successor);
        await tx.revokeRefreshToken(found.id, `2026-01-02T00:00:0${index}.000Z`, successor.id);
        return 'rotated';
      })));
      expect(outcomes.filter((outcome) => outcome === 'rotated')).toHaveLength(1);
      expect((await context.store.findRefreshToken(token.token_hash))?.revoked_at).not.toBeNull();
    });

    it('posts no entry into a period after a close that runs at the same time has counted it (findPeriodContaining, getPeriod)', async () => {
      const { february } = books;
      const attempt = (entry: JournalEntry) => context.store.write(async (tx) => {
        const period = await tx.findPeriodContaining(entry.entry_date);
        if (!period || period.status !== 'open') return 'refused';
        await tx.insertEntry(entry);
        return 'posted';
      });
      const close = () => context.store.write(async (tx) => {
        const period = await tx.getPeriod(february.id);
        if (!period || period.status !== 'open') return 'already closed';
        const inPeriod = await walkPages((request) => tx.listEntries({ period_id: february.id }, 'asc', request), 100);
        await tx.updatePeriod(february.id, { status: 'closed', closed_at: '2026-03-01T00:00:00.000Z', closed_by: 'user-closer' });
        await tx.setSetting('entries-when-closed', String(inPeriod.items.length));
        return 'closed';
      });
      const entries = Array.from({ length: 20 }, (_, index) => sale(index + 1, `2026-02-${String(index + 1).padStart(2, '0')}`));
      const outcomes = await Promise.all([...entries.slice(0, 10).map(attempt), close(), ...entries.slice(10).map(attempt)]);
      const posted = outcomes.filter((outcome) => outcome === 'posted').length;
      expect(outcomes).toContain('closed');
      expect(await context.store.getSetting('entries-when-closed')).toBe(String(posted));
      expect(await context.store.countEntries()).toBe(posted);
      expect((await context.store.getPeriod(february.id))?.status).toBe('closed');
    });
  });
});

describe('storage contract: snapshot reads', () => {
  const { context, books, fixtures } = freshBooksPerTest();

  const sale = (value: number) =>
    fixtures.entry({ date: '2026-02-10', period: books.february, lines: [debit(books.cash, value), credit(books.sales, value)] });

  it('answers every read inside read() from one snapshot, whatever is committed meanwhile', async () => {
    const early = sale(100);
    await context.store.write((tx) => tx.insertEntry(early));
    const late = sale(25);
    const seen = await context.store.read(async (reads) => {
      const before = {
        total: await reads.currencyDebitTotal(books.usd.id),
        totals: await reads.accountTotals({}),
        count: await reads.countEntries(),
      };
      await context.store.write(async (tx) => {
        await tx.insertEntry(late);
        await tx.setSetting('written', 'meanwhile');
      });
      const during = {
        total: await reads.currencyDebitTotal(books.usd.id),
        totals: await reads.accountTotals({}),
        count: await reads.countEntries(),
        entry: await reads.getEntry(late.id),
        setting: await reads.getSetting('written'),
        listed: (await reads.listEntries({}, 'asc', { limit: 10 })).items.length,
      };
      return { before, during };
    });
    expect(seen.before).toEqual({ total: 100n, totals: totalsOf([early]), count: 1 });
    expect(seen.during).toEqual({ ...seen.before, entry: undefined, setting: undefined, listed: 1 });
    expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(125n);
    expect(await context.store.read((reads) => reads.countEntries())).toBe(2);
    expect(await context.store.read((reads) => reads.getSetting('written'))).toBe('meanwhile');
  });

  it('answers what the work returns, rejects with what it throws, and reads on afterwards', async () => {
    await context.store.write((tx) => tx.setSetting('k', 'v'));
    expect(await context.store.read(async (reads) => ({ value: await reads.getSetting('k') }))).toEqual({ value: 'v' });
    const failure = new Error('the report failed');
    await expect(context.store.read(async (reads) => {
      await reads.countEntries();
      throw failure;
    })).rejects.toBe(failure);
    expect(await context.store.read((reads) => reads.getSetting('k'))).toBe('v');
    await context.store.write((tx) => tx.setSetting('k', 'w'));
    expect(await context.store.read((reads) => reads.getSetting('k'))).toBe('w');
  });

  it('serves several snapshots at once, each seeing its own moment', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    let firstReadDone: () => void = () => undefined;
    const started = new Promise<void>((resolve) => { firstReadDone = resolve; });
    const older = context.store.read(async (reads) => {
      const first = await reads.countEntries();
      firstReadDone();
      await gate;
      return [first, await reads.countEntries()];
    });
    await started;
    await context.store.write((tx) => tx.insertEntry(sale(1)));
    const newer = await context.store.read((reads) => reads.countEntries());
    release();
    expect(await older).toEqual([0, 0]);
    expect(newer).toBe(1);
  });
});

describe('storage contract: the store', () => {
  it('answers ping while open and closes', async () => {
    const opened = await openStoreForTest();
    try {
      expect(await opened.store.ping()).toBe(true);
    } finally {
      await opened.close();
    }
  });

  it('tells when its write queue has nothing queued or running: at once when idle, after the writes, or after the wait at most', async () => {
    const opened = await openStoreForTest();
    const { store } = opened;
    let release = () => {};
    try {
      // Idle: at once (before a timer of the wait could fire).
      expect(await Promise.race([store.writesIdle(60_000).then(() => 'idle'), new Promise((resolve) => { setTimeout(resolve, 1_000, 'waited'); })]))
        .toBe('idle');
      // A write held open, and two more queued behind it: idle only once all three committed.
      const held = new Promise<void>((resolve) => { release = resolve; });
      const order: string[] = [];
      const writes = [
        store.write(async (tx) => { await tx.setSetting('held', 'yes'); await held; }).then(() => order.push('write 1')),
        store.write(async (tx) => tx.setSetting('queued', '1')).then(() => order.push('write 2')),
        store.write(async (tx) => tx.setSetting('queued', '2')).then(() => order.push('write 3')),
      ];
      const idle = store.writesIdle(60_000).then(() => order.push('idle'));
      // Only the wait's end answers while the writes are held: 50 ms, not a minute.
      const started = Date.now();
      await store.writesIdle(50);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(order).toEqual([]);
      release();
      await Promise.all([...writes, idle]);
      expect(order).toEqual(['write 1', 'write 2', 'write 3', 'idle']);
      expect(await store.getSetting('queued')).toBe('2');
    } finally {
      release();
      await opened.close();
    }
  });

  it('knows its schema is current: every migration applied, none unknown', async () => {
    const opened = await openStoreForTest();
    try {
      const state = await opened.store.schemaState();
      expect(state.missing).toEqual([]);
      expect(state.newer).toEqual([]);
      expect(state.expected).toBeGreaterThanOrEqual(18);
    } finally {
      await opened.close();
    }
  });

  /** Listed here so that a method added to the port fails to compile until the suite knows it. */
  const STORE_METHODS: Record<keyof LedgerStore, true> = {
    write: true, writesIdle: true, read: true, ping: true, schemaState: true, connectionPool: true, close: true,
    getCurrency: true, listCurrencies: true, getAccount: true, getAccounts: true, listAccounts: true, listSubAccounts: true,
    allAccounts: true, accountTotals: true, accountDailyTotals: true, closingDailyTotals: true, closingTotals: true, listAccountLines: true, listSideAmounts: true, getPeriod: true,
    findPeriodContaining: true, findOverlappingPeriods: true, periodHasEntries: true, accountUses: true, listPeriods: true, getEntry: true, getEntries: true, listEntries: true,
    currencyDebitTotal: true, allCurrencyDebitTotals: true, currencyChainHeads: true, getSetting: true, getUser: true, getUserWithSession: true, findUserByEmail: true,
    findUserByApiKeyHash: true, credentialsVersion: true, listUsers: true, countUsers: true, countActiveAdmins: true, findRefreshToken: true,
    recentLoginFailures: true, getIdempotencyRecord: true, listEntriesInPostingOrder: true, countEntries: true,
    listStoredUsers: true, allApiKeys: true, allSettings: true, listAuditLog: true, listAuditChain: true, countAuditRecords: true,
    getBankStatement: true, findBankStatementByFile: true, listBankStatements: true, existingFingerprints: true, getBankLine: true,
    getBankLines: true, listBankLines: true, getBankRule: true, allBankRules: true, countBankRulesUsingAccount: true,
    listUnmatchedAccountLines: true, accountLinesOfEntries: true, getReconciliation: true, listReconciliations: true,
    findOpenReconciliation: true, lastFinishedReconciliation: true, unreconciledLines: true, reconciledLinesOf: true,
    reconciledTotal: true, reconciledLineIds: true, getExchangeRate: true, listExchangeRates: true, exchangeRatesThrough: true,
    listEvents: true, lastEventSeq: true, getWebhookEndpoint: true, listWebhookEndpoints: true, listWebhookDeliveries: true, anyWebhookDue: true,
  };
  const TX_WRITE_METHODS: Record<Exclude<keyof LedgerTx, keyof LedgerStore>, true> = {
    insertCurrency: true, updateCurrency: true, insertAccount: true, updateAccount: true, insertPeriod: true,
    updatePeriod: true, deletePeriod: true, deleteAccount: true, insertEntry: true, setSetting: true, deleteSetting: true, setSettingIfAbsent: true, insertUser: true, updateUser: true,
    insertApiKey: true, deleteUserApiKeys: true, insertRefreshToken: true, revokeRefreshToken: true, revokeRefreshFamily: true, revokeUserRefreshTokens: true,
    recordLoginFailure: true, lockLoginKeys: true, forgetLoginFailure: true, clearLoginFailures: true, deleteLoginFailuresBefore: true,
    lockIdempotencyKey: true, reserveIdempotencyKey: true,
    completeIdempotencyKey: true, releaseIdempotencyKey: true, deleteIdempotencyKeysBefore: true, insertAuditRecord: true,
    sealAuditRecords: true, lockBankAccount: true, insertBankStatement: true, matchBankLine: true, excludeBankLine: true,
    unmatchBankLine: true, insertBankRule: true, updateBankRule: true, deleteBankRule: true, insertReconciliation: true,
    markReconciliationLines: true, unmarkReconciliationLines: true, finishReconciliation: true, insertEvent: true,
    insertWebhookEndpoint: true, updateWebhookEndpoint: true, deleteWebhookEndpoint: true, claimDueWebhookEndpoints: true,
    releaseWebhookEndpoint: true, insertWebhookDeliveries: true, updateLeasedWebhookEndpoint: true,
    lockExchangeRates: true, upsertExchangeRate: true,
  };

  it('offers every read of the port on the store, inside read() and inside write(), and every write inside write()', async () => {
    const opened = await openStoreForTest();
    try {
      const store: LedgerStore = opened.store;
      const readNames = Object.keys(STORE_METHODS).filter((name) => !['write', 'writesIdle', 'read', 'ping', 'schemaState', 'connectionPool', 'close'].includes(name));
      for (const name of Object.keys(STORE_METHODS)) expect(typeof store[name as keyof LedgerStore], name).toBe('function');
      const inRead = await store.read(async (reads) => readNames.filter((name) => typeof (reads as unknown as Record<string, unknown>)[name] !== 'function'));
      expect(inRead).toEqual([]);
      const inWrite = await store.write(async (tx) => [...readNames, ...Object.keys(TX_WRITE_METHODS)]
        .filter((name) => typeof (tx as unknown as Record<string, unknown>)[name] !== 'function'));
      expect(inWrite).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
