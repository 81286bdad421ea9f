/**
 * Storage contract: the totals `insertEntry` maintains (per account all time, per period, before a
 * date; closing entries; per currency) equal the sums of the posted lines exactly, up to 2^127 - 1,
 * and the currency bound refuses an entry that would pass it without writing any of it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { currencyTotalOverflow, LedgerError } from '../../../src/domain/errors.js';
import type { JournalEntry } from '../../../src/domain/types.js';
import {
  accountFixture, addDays, credit, currencyDebitTotalsOf, debit, LARGEST_AMOUNT, monthPeriod,
  SeededRandom, subAccountFixture, totalsOf,
} from './fixtures.js';
import { contractSeed, freshBooksPerTest, rejectionOf } from './support.js';

describe('storage contract: maintained totals', () => {
  const { context, books, fixtures } = freshBooksPerTest();
  let posted: JournalEntry[];

  beforeEach(() => {
    posted = [];
  });

  const post = async (...entries: JournalEntry[]) => {
    await context.store.write(async (tx) => {
      for (const entry of entries) await tx.insertEntry(entry);
    });
    posted.push(...entries);
    return entries;
  };

  /**
   * January to March, several entries a day on some days, entries on the first and last day of a
   * period, two lines on one account in one entry, a second currency, and a closing entry.
   */
  const postQuarter = async () => {
    const { cash, bankNorth, bankSouth, sales, rent, retained, till, euroSales, january, february, march } = books;
    await post(
      fixtures.entry({ date: '2026-01-01', period: january, lines: [debit(cash, 1_000), credit(sales, 1_000)] }),
      fixtures.entry({ date: '2026-01-15', period: january, lines: [debit(rent, 300), credit(cash, 100), credit(cash, 200)] }),
      fixtures.entry({ date: '2026-01-15', period: january, lines: [debit(bankNorth, 50), debit(bankSouth, 70), credit(sales, 120)] }),
      fixtures.entry({ date: '2026-01-31', period: january, lines: [debit(cash, 5), credit(sales, 5)] }),
      fixtures.entry({ date: '2026-01-31', period: january, entry_type: 'closing', lines: [debit(sales, 1_125), credit(rent, 300), credit(retained, 825)] }),
      fixtures.entry({ date: '2026-02-01', period: february, lines: [debit(cash, 7), credit(sales, 7)] }),
      fixtures.entry({ date: '2026-02-14', period: february, lines: [debit(till, 900), credit(euroSales, 900)] }),
      fixtures.entry({ date: '2026-02-15', period: february, lines: [debit(bankSouth, 11), credit(cash, 11)] }),
      fixtures.entry({ date: '2026-02-28', period: february, lines: [debit(rent, 13), credit(bankNorth, 13)] }),
      fixtures.entry({ date: '2026-03-01', period: march, lines: [debit(cash, 17), credit(sales, 17)] }),
      fixtures.entry({ date: '2026-03-31', period: march, entry_type: 'closing', lines: [debit(sales, 24), credit(rent, 13), credit(retained, 11)] }),
    );
  };

  describe('per account', () => {
    it('keeps all-time totals per account with activity, equal to the sums of the lines', async () => {
      expect(await context.store.accountTotals({})).toEqual(new Map());
      await postQuarter();
      const totals = await context.store.accountTotals({});
      expect(totals).toEqual(totalsOf(posted));
      expect(totals.get(books.cash.id)).toEqual({ debit_total: 1_029n, credit_total: 311n });
      expect(totals.has(books.bank.id)).toBe(false);
      expect(totals.has(books.retained.id)).toBe(true);
    });

    it('keeps totals per period, none for a period without entries', async () => {
      await postQuarter();
      for (const period of books.periods) {
        expect(await context.store.accountTotals({ period_id: period.id }), period.name)
          .toEqual(totalsOf(posted, (entry) => entry.period_id === period.id));
      }
      expect((await context.store.accountTotals({ period_id: books.january.id })).get(books.sales.id))
        .toEqual({ debit_total: 1_125n, credit_total: 1_125n });
      const april = monthPeriod('2026-04');
      await context.store.write((tx) => tx.insertPeriod(april));
      expect(await context.store.accountTotals({ period_id: april.id })).toEqual(new Map());
      expect(await context.store.accountTotals({ period_id: 'period-unknown' })).toEqual(new Map());
    });

    it('sums everything dated before a date: whole periods before it and the days of its own period', async () => {
      await postQuarter();
      // Every day from before the first period to after the last, including each period's bounds.
      for (let date = '2025-12-30'; date <= '2026-04-02'; date = addDays(date, 1)) {
        expect(await context.store.accountTotals({ before_date: date }), `before ${date}`)
          .toEqual(totalsOf(posted, (entry) => entry.entry_date < date));
      }
      expect(await context.store.accountTotals({ before_date: '2026-01-01' })).toEqual(new Map());
      expect((await context.store.accountTotals({ before_date: '2026-01-16' })).get(books.cash.id)).toEqual({ debit_total: 1_000n, credit_total: 300n });
    });

    it('sums everything dated in a range: whole periods inside it by their totals, the partial ones by their days', async () => {
      await postQuarter();
      const may = monthPeriod('2026-05');
      await context.store.write((tx) => tx.insertPeriod(may));
      await post(fixtures.entry({ date: '2026-05-10', period: may, lines: [debit(books.cash, 19), credit(books.sales, 19)] }));
      const dates = ['2025-12-31', '2026-01-01', '2026-01-15', '2026-01-31', '2026-02-01', '2026-02-14', '2026-02-28', '2026-03-01',
        '2026-03-20', '2026-03-31', '2026-04-15', '2026-05-10', '2026-05-31', '2026-06-01'];
      for (const start of dates) {
        for (const end of dates.filter((date) => date >= start)) {
          expect(await context.store.accountTotals({ between: { start_date: start, end_date: end } }), `${start} to ${end}`)
            .toEqual(totalsOf(posted, (entry) => entry.entry_date >= start && entry.entry_date <= end));
        }
      }
      const accountIds = [books.cash.id, 'account-unknown'];
      expect(await context.store.accountTotals({ account_ids: accountIds, between: { start_date: '2026-01-10', end_date: '2026-03-05' } }))
        .toEqual(totalsOf(posted, (entry) => entry.entry_date >= '2026-01-10' && entry.entry_date <= '2026-03-05', accountIds));
      expect(await context.store.accountTotals({ account_ids: [], between: { start_date: '2026-01-01', end_date: '2026-12-31' } })).toEqual(new Map());
    });

    it('sums everything dated before a date that falls in a gap between periods or after the last one', async () => {
      await postQuarter();
      const may = monthPeriod('2026-05');
      await context.store.write((tx) => tx.insertPeriod(may));
      await post(fixtures.entry({ date: '2026-05-10', period: may, lines: [debit(books.cash, 19), credit(books.sales, 19)] }));
      for (const date of ['2026-04-01', '2026-04-15', '2026-04-30', '2026-05-01', '2026-05-10', '2026-05-11', '2026-06-01', '2027-01-01']) {
        expect(await context.store.accountTotals({ before_date: date }), `before ${date}`)
          .toEqual(totalsOf(posted, (entry) => entry.entry_date < date));
      }
    });

    it('restricts every kind of totals query to the accounts asked for, and answers none for no accounts', async () => {
      await postQuarter();
      const accountIds = [books.cash.id, books.bankSouth.id, books.bank.id, 'account-unknown'];
      expect(await context.store.accountTotals({ account_ids: accountIds })).toEqual(totalsOf(posted, undefined, accountIds));
      expect(await context.store.accountTotals({ account_ids: accountIds, period_id: books.february.id }))
        .toEqual(totalsOf(posted, (entry) => entry.period_id === books.february.id, accountIds));
      for (const date of ['2026-01-15', '2026-02-15', '2026-03-15']) {
        expect(await context.store.accountTotals({ account_ids: accountIds, before_date: date }), `before ${date}`)
          .toEqual(totalsOf(posted, (entry) => entry.entry_date < date, accountIds));
      }
      expect(await context.store.accountTotals({ account_ids: [] })).toEqual(new Map());
      expect(await context.store.accountTotals({ account_ids: [], period_id: books.january.id })).toEqual(new Map());
      expect(await context.store.accountTotals({ account_ids: [], before_date: '2026-12-31' })).toEqual(new Map());
      expect(await context.store.accountTotals({ account_ids: [books.rent.id, books.rent.id] }))
        .toEqual(totalsOf(posted, undefined, [books.rent.id]));
    });

    it('agrees with a model of the lines for a random workload over periods with gaps', async () => {
      const seed = contractSeed('random totals workload');
      const random = new SeededRandom(seed);
      const periods = [monthPeriod('2026-04'), monthPeriod('2026-05'), monthPeriod('2026-07'), monthPeriod('2026-08', { status: 'closed' })];
      const extraSub = subAccountFixture('1100-09', books.bank, 'ninth-bank');
      await context.store.write(async (tx) => {
        for (const period of periods) await tx.insertPeriod(period);
        await tx.insertAccount(extraSub);
      });
      const usdAccounts = [books.cash, books.bankNorth, books.bankSouth, extraSub, books.retained, books.sales, books.rent];
      for (let index = 0; index < 60; index += 1) {
        const period = random.pick([...books.periods, ...periods]);
        const days = (Date.parse(period.end_date) - Date.parse(period.start_date)) / 86_400_000;
        const date = addDays(period.start_date, random.integer(0, days));
        const debits = Array.from({ length: random.integer(1, 3) }, () => debit(random.pick(usdAccounts), random.amount(random.integer(1, 96))));
        const sum = debits.reduce((total, line) => total + line.debit, 0n);
        const creditAccount = random.pick(usdAccounts);
        const entryType = random.integer(0, 9) === 0 ? 'closing' : 'standard';
        await post(fixtures.entry({ date, period, entry_type: entryType, lines: [...debits, credit(creditAccount, sum)] }));
      }
      const message = `seed ${seed}`;
      expect(await context.store.accountTotals({}), message).toEqual(totalsOf(posted));
      for (const period of [...books.periods, ...periods]) {
        expect(await context.store.accountTotals({ period_id: period.id }), `${message}, ${period.name}`)
          .toEqual(totalsOf(posted, (entry) => entry.period_id === period.id));
      }
      for (let date = '2025-12-31'; date <= '2026-09-01'; date = addDays(date, random.integer(1, 9))) {
        expect(await context.store.accountTotals({ before_date: date }), `${message}, before ${date}`)
          .toEqual(totalsOf(posted, (entry) => entry.entry_date < date));
      }
      expect(await context.store.closingTotals({}), message).toEqual(totalsOf(posted, (entry) => entry.entry_type === 'closing'));
      // Per account and day, of some accounts, in a range: the lines' sums, closing entries alone too.
      const some = [books.cash.id, extraSub.id, books.sales.id];
      const byDay = (entries: JournalEntry[], start: string, end: string) => {
        const rows: { account_id: string; entry_date: string; debit_total: bigint; credit_total: bigint }[] = [];
        for (const entry of entries.filter((e) => e.entry_date >= start && e.entry_date <= end)) {
          for (const [accountId, sums] of totalsOf([entry])) {
            if (!some.includes(accountId)) continue;
            const row = rows.find((r) => r.account_id === accountId && r.entry_date === entry.entry_date);
            if (row) {
              row.debit_total += sums.debit_total;
              row.credit_total += sums.credit_total;
            } else rows.push({ account_id: accountId, entry_date: entry.entry_date, ...sums });
          }
        }
        return rows.filter((row) => row.debit_total !== 0n || row.credit_total !== 0n);
      };
      const sorted = <T extends { account_id: string; entry_date: string }>(rows: T[]) =>
        [...rows].sort((a, b) => (a.account_id + a.entry_date < b.account_id + b.entry_date ? -1 : 1));
      const nonZero = <T extends { debit_total: bigint; credit_total: bigint }>(rows: T[]) => rows.filter((row) => row.debit_total !== 0n || row.credit_total !== 0n);
      for (const [start, end] of [['2026-04-10', '2026-07-20'], ['0001-01-01', '9999-12-31']] as const) {
        expect(sorted(nonZero(await context.store.accountDailyTotals(some, { start_date: start, end_date: end }))), `${message}, days ${start}..${end}`)
          .toEqual(sorted(byDay(posted, start, end)));
        expect(sorted(await context.store.closingDailyTotals(some, { start_date: start, end_date: end })), `${message}, closing days ${start}..${end}`)
          .toEqual(sorted(byDay(posted.filter((entry) => entry.entry_type === 'closing'), start, end)));
      }
      expect(await context.store.accountDailyTotals([], {})).toEqual([]);
      expect(await context.store.currencyDebitTotal(books.usd.id), message).toBe(currencyDebitTotalsOf(posted).get(books.usd.id));
      expect(await context.store.countEntries(), message).toBe(posted.length);
    });
  });

  describe('closing entries', () => {
    it('sums only closing entries: all time, one period, or those dated in an inclusive range', async () => {
      await postQuarter();
      const closing = (entry: JournalEntry) => entry.entry_type === 'closing';
      expect(await context.store.closingTotals({})).toEqual(totalsOf(posted, closing));
      expect(await context.store.closingTotals({ period_id: books.january.id }))
        .toEqual(totalsOf(posted, (entry) => closing(entry) && entry.period_id === books.january.id));
      expect(await context.store.closingTotals({ period_id: books.february.id })).toEqual(new Map());
      expect(await context.store.closingTotals({ range: { start_date: '2026-01-31', end_date: '2026-03-30' } }))
        .toEqual(totalsOf(posted, (entry) => closing(entry) && entry.entry_date === '2026-01-31'));
      expect(await context.store.closingTotals({ range: { start_date: '2026-02-01', end_date: '2026-03-31' } }))
        .toEqual(totalsOf(posted, (entry) => closing(entry) && entry.entry_date === '2026-03-31'));
      expect(await context.store.closingTotals({ range: { end_date: '2026-01-31' } }))
        .toEqual(totalsOf(posted, (entry) => closing(entry) && entry.period_id === books.january.id));
      expect(await context.store.closingTotals({ range: { start_date: '2026-03-31' } }))
        .toEqual(totalsOf(posted, (entry) => closing(entry) && entry.period_id === books.march.id));
      expect(await context.store.closingTotals({ range: { start_date: '2026-02-01', end_date: '2026-03-30' } })).toEqual(new Map());
      expect(await context.store.closingTotals({ range: {} })).toEqual(totalsOf(posted, closing));
      expect((await context.store.closingTotals({})).get(books.retained.id)).toEqual({ debit_total: 0n, credit_total: 836n });
    });
  });

  describe('per currency', () => {
    it('keeps each currency\'s all-time debit total, zero for a currency without lines', async () => {
      expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(0n);
      expect(await context.store.allCurrencyDebitTotals()).toEqual(new Map());
      await postQuarter();
      expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(currencyDebitTotalsOf(posted).get(books.usd.id));
      expect(await context.store.currencyDebitTotal(books.eur.id)).toBe(900n);
      expect(await context.store.allCurrencyDebitTotals()).toEqual(currencyDebitTotalsOf(posted));
      const gold = accountFixture('1900', { ...books.usd, id: 'currency-XAU' });
      await context.store.write(async (tx) => {
        await tx.insertCurrency({ ...books.usd, id: 'currency-XAU', code: 'XAU', caip19_id: 'test:0/token:XAU' });
        await tx.insertAccount(gold);
      });
      expect(await context.store.currencyDebitTotal('currency-XAU')).toBe(0n);
      expect([...(await context.store.allCurrencyDebitTotals()).keys()].sort()).toEqual([books.eur.id, books.usd.id]);
    });
  });

  describe('exact amounts up to 2^127 - 1', () => {
    it('posts a line of 2^127 - 1 and keeps every total of it exact', async () => {
      const [entry] = await post(fixtures.entry({
        date: '2026-02-10', period: books.february, lines: [debit(books.cash, LARGEST_AMOUNT), credit(books.sales, LARGEST_AMOUNT)],
      }));
      expect((await context.store.getEntry(entry!.id))?.lines.map((line) => [line.debit_amount, line.credit_amount]))
        .toEqual([[LARGEST_AMOUNT, 0n], [0n, LARGEST_AMOUNT]]);
      const both = { [books.cash.id]: { debit_total: LARGEST_AMOUNT, credit_total: 0n }, [books.sales.id]: { debit_total: 0n, credit_total: LARGEST_AMOUNT } };
      const expected = new Map(Object.entries(both));
      expect(await context.store.accountTotals({})).toEqual(expected);
      expect(await context.store.accountTotals({ period_id: books.february.id })).toEqual(expected);
      expect(await context.store.accountTotals({ before_date: '2026-02-11' })).toEqual(expected);
      expect(await context.store.accountTotals({ before_date: '2026-03-01' })).toEqual(expected);
      expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(LARGEST_AMOUNT);
      expect(await context.store.allCurrencyDebitTotals()).toEqual(new Map([[books.usd.id, LARGEST_AMOUNT]]));
      const lines = await context.store.listAccountLines({ account_id: books.cash.id }, {}, 'asc', { limit: 5 });
      expect(lines.items.map((line) => line.debit_amount)).toEqual([LARGEST_AMOUNT]);
    });

    it('adds amounts beyond 64 bits exactly, up to a currency total of exactly 2^127 - 1 over several entries and periods', async () => {
      const half = 1n << 126n;
      // With the last entry's debit of 1 these add up to exactly 2^127 - 1.
      const pieces = [half - 2n, (1n << 125n) + 12_345n, (1n << 125n) - 12_345n];
      expect(pieces.reduce((sum, piece) => sum + piece, 1n)).toBe(LARGEST_AMOUNT);
      await post(
        fixtures.entry({ date: '2026-01-31', period: books.january, lines: [debit(books.cash, pieces[0]!), credit(books.sales, pieces[0]!)] }),
        fixtures.entry({ date: '2026-02-01', period: books.february, lines: [debit(books.cash, pieces[1]!), credit(books.sales, pieces[1]!)] }),
        fixtures.entry({ date: '2026-02-01', period: books.february, lines: [debit(books.cash, pieces[2]!), credit(books.rent, pieces[2]!)] }),
      );
      await post(fixtures.entry({ date: '2026-03-31', period: books.march, lines: [debit(books.bankNorth, 1), credit(books.cash, 1)] }));
      expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(LARGEST_AMOUNT);
      expect(await context.store.accountTotals({})).toEqual(totalsOf(posted));
      expect((await context.store.accountTotals({})).get(books.cash.id)).toEqual({ debit_total: LARGEST_AMOUNT - 1n, credit_total: 1n });
      expect(await context.store.accountTotals({ before_date: '2026-03-01' })).toEqual(totalsOf(posted, (entry) => entry.entry_date < '2026-03-01'));
      expect(await context.store.accountTotals({ period_id: books.february.id }))
        .toEqual(totalsOf(posted, (entry) => entry.period_id === books.february.id));
    });
  });

  describe('the currency bound', () => {
    const expectOverflow = async (promise: Promise<unknown>) => {
      const error = await rejectionOf(promise);
      const expected = currencyTotalOverflow();
      expect({ code: error.code, message: error.message, field: error.field, suggestion: error.suggestion })
        .toEqual({ code: expected.code, message: expected.message, field: expected.field, suggestion: expected.suggestion });
      expect(error.code).toBe('VALIDATION_ERROR');
    };

    /** Everything a refused entry could have touched, to compare before and after. */
    const everything = async () => ({
      totals: await context.store.accountTotals({}),
      periodTotals: await context.store.accountTotals({ period_id: books.february.id }),
      beforeTotals: await context.store.accountTotals({ before_date: '2026-03-01' }),
      closing: await context.store.closingTotals({}),
      currencies: await context.store.allCurrencyDebitTotals(),
      count: await context.store.countEntries(),
      entries: (await context.store.listEntriesInPostingOrder({ limit: 100 })).items,
      lines: (await context.store.listAccountLines({ account_id: books.cash.id }, {}, 'asc', { limit: 100 })).items,
    });

    const fill = async (total: bigint) => post(fixtures.entry({
      date: '2026-02-10', period: books.february, lines: [debit(books.cash, total), credit(books.sales, total)],
    }));

    it('refuses an entry that would take the currency\'s debit total past 2^127 - 1, and writes nothing of it', async () => {
      await fill(LARGEST_AMOUNT - 10n);
      const before = await everything();
      const tooMuch = fixtures.entry({ date: '2026-02-11', period: books.february, lines: [debit(books.cash, 6), debit(books.rent, 5), credit(books.sales, 11)] });
      await expectOverflow(context.store.write((tx) => tx.insertEntry(tooMuch)));
      expect(await context.store.getEntry(tooMuch.id)).toBeUndefined();
      expect(await everything()).toEqual(before);
      const exactlyEnough = fixtures.entry({ date: '2026-02-11', period: books.february, lines: [debit(books.cash, 4), debit(books.rent, 6), credit(books.sales, 10)] });
      await post(exactlyEnough);
      expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(LARGEST_AMOUNT);
      await expectOverflow(context.store.write((tx) => tx.insertEntry(
        fixtures.entry({ date: '2026-03-01', period: books.march, lines: [debit(books.cash, 1), credit(books.sales, 1)] }))));
      expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(LARGEST_AMOUNT);
    });

    it('refuses a single entry whose own debits pass the bound in a currency without lines', async () => {
      const before = await everything();
      await expectOverflow(context.store.write((tx) => tx.insertEntry(fixtures.entry({
        date: '2026-02-11', period: books.february, lines: [debit(books.cash, LARGEST_AMOUNT), debit(books.rent, 1), credit(books.sales, LARGEST_AMOUNT), credit(books.sales, 1)],
      }))));
      expect(await everything()).toEqual(before);
      expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(0n);
    });

    it('bounds each currency on its own', async () => {
      await fill(LARGEST_AMOUNT);
      await post(fixtures.entry({ date: '2026-02-12', period: books.february, lines: [debit(books.till, LARGEST_AMOUNT), credit(books.euroSales, LARGEST_AMOUNT)] }));
      expect(await context.store.allCurrencyDebitTotals()).toEqual(new Map([[books.usd.id, LARGEST_AMOUNT], [books.eur.id, LARGEST_AMOUNT]]));
    });

    it('rolls back the whole job that goes on after a refused entry, and rejects it with the refusal', async () => {
      await fill(LARGEST_AMOUNT);
      const before = await everything();
      const refused = fixtures.entry({ date: '2026-02-20', period: books.february, lines: [debit(books.cash, 1), credit(books.sales, 1)] });
      let caught: unknown;
      const outcome = await rejectionOf(context.store.write(async (tx) => {
        try {
          await tx.insertEntry(refused);
        } catch (error) {
          caught = error;
        }
        // Every later call of the job is refused the same way.
        await tx.setSetting('after-refusal', 'written');
      }));
      expect(caught).toBeInstanceOf(LedgerError);
      expect((caught as LedgerError).message).toBe(currencyTotalOverflow().message);
      expect(outcome).toBe(caught);
      expect(await context.store.getSetting('after-refusal')).toBeUndefined();
      expect(await context.store.getEntry(refused.id)).toBeUndefined();
      expect(await everything()).toEqual(before);
    });

    it('checks the bound against the total at commit: of two concurrent entries that fit only alone, one is refused', async () => {
      const half = 1n << 126n;
      const entries = [0, 1].map(() => fixtures.entry({
        date: '2026-02-10', period: books.february, lines: [debit(books.cash, half), credit(books.sales, half)],
      }));
      const outcomes = await Promise.allSettled(entries.map((entry) => context.store.write(async (tx) => {
        // Both jobs read the total first, as a caller checking the bound itself would.
        await tx.currencyDebitTotal(books.usd.id);
        await tx.insertEntry(entry);
      })));
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: 'VALIDATION_ERROR', message: currencyTotalOverflow().message });
      expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(half);
      expect(await context.store.countEntries()).toBe(1);
    });
  });

  it('shows a write job its own postings in every total before it commits', async () => {
    const entry = fixtures.entry({ date: '2026-02-10', period: books.february, lines: [debit(books.cash, 42), credit(books.sales, 42)] });
    const seen = await context.store.write(async (tx) => {
      await tx.insertEntry(entry);
      return {
        all: await tx.accountTotals({}),
        period: await tx.accountTotals({ period_id: books.february.id }),
        before: await tx.accountTotals({ before_date: '2026-02-11' }),
        currency: await tx.currencyDebitTotal(books.usd.id),
        count: await tx.countEntries(),
        entry: await tx.getEntry(entry.id),
      };
    });
    const expected = totalsOf([entry]);
    expect(seen).toMatchObject({ all: expected, period: expected, before: expected, currency: 42n, count: 1 });
    expect(seen.entry?.id).toBe(entry.id);
  });
});
