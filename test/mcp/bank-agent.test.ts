/**
 * An agent working a bank statement through the MCP tools, over streamable HTTP and stdio, on
 * each store: a person imported the statement (and keeps the rules); the agent only reads the
 * unmatched lines with their suggestions and candidates, dry-runs its proposals (nothing is
 * stored), posts and matches them with idempotency keys (a retry acts once), and reconciles the
 * account to zero. A key without bank:write, and one without journals:create, is refused with the
 * API's FORBIDDEN and stores nothing. Every answer is compared with the API's for the same request.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createAccount, dataOf, newApiKey, postEntry, startApi, walkPages } from '../helpers/api-fixture.js';
import { loggedInHuman } from '../helpers/auth-helpers.js';
import { type BankBooks, bankBooks, bankLinesOf, importCsv, semicolonCsv } from '../helpers/bank-books.js';
import { connectHttp, connectStdio } from './connect.js';
import { type Connect, TOOL_NAMES, call, dataOfCall, errorOfCall } from './mcp-scenarios.js';

/** March: 1000.00 brought forward, seven lines, 1636.02 at its end. */
const MARCH = semicolonCsv([
  ['02.03.2026', 'Kartenzahlung REWE Markt 4711', '-54,20', '945,80'],
  ['03.03.2026', 'Dauerauftrag Miete März', '-800,00', '145,80'],
  ['04.03.2026', 'Entgelt Kontoführung', '-9,90', '135,90'],
  ['05.03.2026', 'Kartenzahlung Fehlbuchung', '-20,00', '115,90'],
  ['05.03.2026', 'Storno Fehlbuchung', '20,00', '135,90'],
  ['06.03.2026', 'Gutschrift ACME RE-17 RE-18', '1.500,00', '1.635,90'],
  ['31.03.2026', 'Zinsen', '0,12', '1.636,02'],
]);

type LineName = 'rewe' | 'rent' | 'fee' | 'charge' | 'reversal' | 'acme' | 'interest';

function describeBankAgent(transportName: string, connect: Connect): void {
  describe(`an agent working a bank statement over MCP (${transportName})`, () => {
    let api: ApiFixture;
    let books: BankBooks;
    let rent: { id: string };
    let lines: Record<LineName, any>;
    const entries: Record<string, any> = {};
    let agentKey: string;
    let agent: Client;
    const clients: Client[] = [];
    const connected = async (key: string) => {
      const client = await connect(api, key);
      clients.push(client);
      return client;
    };

    beforeAll(async () => {
      api = await startApi();
      dataOf(await api.request('POST', '/api/v1/periods', { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' }), 201);
      books = await bankBooks(api);
      rent = await createAccount(api, { account_number: `${books.bank.id}-rent`, name: 'Rent', currency_id: books.currency.id,
        account_type: 'expense', normal_balance: 'debit' });
      // What a person did before the agent starts: the opening balance and the entries of other systems, the rules, the import.
      entries.opening = await postEntry(api, books.bank.id, books.equity.id, '100000', '2026-02-28', 'Opening balance');
      entries.rent = await postEntry(api, rent.id, books.bank.id, '80000', '2026-03-01', 'Rent March (standing order)');
      entries.paid17 = await postEntry(api, books.bank.id, books.receivables.id, '100000', '2026-03-06', 'ACME pays RE-17');
      entries.paid18 = await postEntry(api, books.bank.id, books.receivables.id, '50000', '2026-03-06', 'ACME pays RE-18');
      const person = await loggedInHuman(api, { 'bank:write': true, 'journals:create': true });
      const token = person.tokens.access_token;
      for (const rule of [
        { name: 'Bank fees', account_id: books.bank.id, match: { description_contains: 'entgelt', direction: 'out' }, counter_account_id: books.fees.id },
        { name: 'Groceries', account_id: books.bank.id, match: { description_regex: '\\brewe\\b', amount_max: '15000' }, counter_account_id: books.groceries.id,
          description: 'Groceries' },
      ]) dataOf(await api.request('POST', '/api/v1/bank-rules', rule, { token }), 201);
      const statement = dataOf(await importCsv(api, books.bank.id, MARCH, token), 201);
      expect(statement.imported_by).toBe(person.id);
      const [rewe, rentLine, fee, charge, reversal, acme, interest] = await bankLinesOf(api, `statement_id=${statement.id}`);
      lines = { rewe, rent: rentLine, fee, charge, reversal, acme, interest };
      agentKey = await newApiKey(api, { 'journals:create': true, 'bank:write': true });
      agent = await connected(agentKey);
    });
    afterAll(async () => {
      for (const client of clients) await client.close();
      await api?.close();
    });

    const bankAccountNumber = async () => dataOf(await api.request('GET', `/api/v1/accounts/${books.bank.id}`)).account_number as string;
    const bankEntries = async () => (await walkPages(api, `/api/v1/journal-entries?account_id=${books.bank.id}`)).rows;
    const bankLines = () => bankLinesOf(api, `account_id=${books.bank.id}`);
    const reconciliations = async () => (await walkPages(api, `/api/v1/reconciliations?account_id=${books.bank.id}`)).rows;

    it('offers the bank tools, posting ones with dry_run and idempotency_key', async () => {
      const { tools } = await agent.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
      const post = tools.find((tool) => tool.name === 'post_bank_line')!;
      expect(Object.keys(post.inputSchema.properties!).sort()).toEqual(
        ['counter_account_id', 'counter_account_number', 'description', 'dry_run', 'entry_date', 'id', 'idempotency_key']);
      expect(post.annotations).toMatchObject({ readOnlyHint: false });
      expect(tools.find((tool) => tool.name === 'list_bank_lines')!.annotations).toMatchObject({ readOnlyHint: true });
    });

    it('reads the unmatched lines with their suggestions, the statements and the rules, as the API answers them', async () => {
      const number = await bankAccountNumber();
      const listed = await call(agent, 'list_bank_lines', { account_number: number, status: 'unmatched' });
      expect(listed.structuredContent).toEqual((await api.request('GET', `/api/v1/bank-lines?account_id=${books.bank.id}&status=unmatched`)).body);
      const data = dataOfCall(listed);
      expect(data.map((line: any) => line.suggestion?.rule_name ?? null)).toEqual(['Groceries', null, 'Bank fees', null, null, null, null]);
      expect((listed.content[0] as { text: string }).text.split('\n')[1]).toBe(
        `2026-03-02 -54.20 "Kartenzahlung REWE Markt 4711" unmatched, suggests ${number.replace('1000', '6200')} Groceries (rule "Groceries") id ${lines.rewe.id}`);
      expect((await call(agent, 'list_bank_statements', { account_id: books.bank.id })).structuredContent)
        .toEqual((await api.request('GET', `/api/v1/bank-statements?account_id=${books.bank.id}`)).body);
      expect((await call(agent, 'list_bank_rules')).structuredContent).toEqual((await api.request('GET', '/api/v1/bank-rules')).body);
      const unknown = errorOfCall(await call(agent, 'list_bank_lines', { account_number: 'no-such-number' }));
      expect(unknown).toMatchObject({ code: 'NOT_FOUND', field: 'account_number' });
    });

    it('finds the entry a line could be matched to among the candidates, as the API answers them', async () => {
      const candidates = await call(agent, 'get_bank_line_candidates', { id: lines.rent.id });
      expect(candidates.structuredContent).toEqual((await api.request('GET', `/api/v1/bank-lines/${lines.rent.id}/candidates`)).body);
      expect(dataOfCall(candidates).map((candidate: any) => candidate.journal_entry_id)).toEqual([entries.rent.id]);
      expect(dataOfCall(await call(agent, 'get_bank_line_candidates', { id: lines.acme.id }))).toEqual([]);
    });

    it('is refused with FORBIDDEN, storing nothing, with a key that lacks bank:write', async () => {
      const withoutBank = await connected(await newApiKey(api, { 'journals:create': true }));
      const [linesBefore, entriesBefore] = [await bankLines(), await bankEntries()];
      const refused = errorOfCall(await call(withoutBank, 'post_bank_line', { id: lines.fee.id }));
      const overHttp = await api.request('POST', `/api/v1/bank-lines/${lines.fee.id}/post`, {}, { token: await newApiKey(api, { 'journals:create': true }) });
      expect(overHttp.status).toBe(403);
      expect(refused).toEqual(overHttp.body);
      expect(refused).toMatchObject({ code: 'FORBIDDEN', message: 'This action needs the permission bank:write' });
      for (const [name, args] of [
        ['post_bank_line', { id: lines.fee.id, dry_run: true }],
        ['accept_bank_lines', { line_ids: [lines.fee.id] }],
        ['match_bank_line', { id: lines.rent.id, journal_entry_ids: [entries.rent.id] }],
        ['exclude_bank_line', { id: lines.charge.id, reason: 'x' }],
        ['start_reconciliation', { account_id: books.bank.id, statement_date: '2026-03-31', statement_balance: '0' }],
      ] as const) {
        expect({ name, code: errorOfCall(await call(withoutBank, name, args)).code }).toEqual({ name, code: 'FORBIDDEN' });
      }
      expect(dataOfCall(await call(withoutBank, 'list_bank_lines', { account_id: books.bank.id })).length).toBe(7);
      expect([await bankLines(), await bankEntries(), await reconciliations()]).toEqual([linesBefore, entriesBefore, []]);
    });

    it('is refused with FORBIDDEN, storing nothing, when posting with a key that lacks journals:create', async () => {
      const bankOnlyKey = await newApiKey(api, { 'bank:write': true });
      const bankOnly = await connected(bankOnlyKey);
      const [linesBefore, entriesBefore] = [await bankLines(), await bankEntries()];
      const refused = errorOfCall(await call(bankOnly, 'post_bank_line', { id: lines.fee.id, idempotency_key: 'refused-post' }));
      const overHttp = await api.request('POST', `/api/v1/bank-lines/${lines.fee.id}/post`, {}, { token: bankOnlyKey });
      expect(overHttp.status).toBe(403);
      expect(refused).toEqual(overHttp.body);
      expect(refused).toMatchObject({ code: 'FORBIDDEN', message: 'This action needs the permission journals:create' });
      expect(errorOfCall(await call(bankOnly, 'post_bank_line', { id: lines.fee.id, dry_run: true })).code).toBe('FORBIDDEN');
      expect(errorOfCall(await call(bankOnly, 'accept_bank_lines', { line_ids: [lines.rewe.id, lines.fee.id] })).code).toBe('FORBIDDEN');
      expect([await bankLines(), await bankEntries()]).toEqual([linesBefore, entriesBefore]);
    });

    it('dry-runs its proposals: the entries as they would be, and nothing stored', async () => {
      const [linesBefore, entriesBefore] = [await bankLines(), await bankEntries()];
      const single = await call(agent, 'post_bank_line', { id: lines.fee.id, dry_run: true });
      const dry = dataOfCall(single);
      expect(dry.dry_run).toBe(true);
      expect(dry.lines[0]).toMatchObject({ id: lines.fee.id, status: 'matched' });
      expect(dry.entries[0].lines.map((line: any) => [line.account_id, line.debit_amount, line.credit_amount]))
        .toEqual([[books.bank.id, '0', '990'], [books.fees.id, '990', '0']]);
      expect((single.content[0] as { text: string }).text).toMatch(/^Dry run, nothing was posted\. Would post this entry:\nstandard entry /);
      const batch = dataOfCall(await call(agent, 'accept_bank_lines', { line_ids: [lines.rewe.id, lines.fee.id], dry_run: true, idempotency_key: 'ignored' }));
      expect(batch.entries.map((entry: any) => entry.description)).toEqual(['Groceries', 'Entgelt Kontoführung']);
      expect([await bankLines(), await bankEntries()]).toEqual([linesBefore, entriesBefore]);
    });

    it('posts and matches with idempotency keys: a retry answers the same and acts once', async () => {
      const count = (await bankEntries()).length;
      const postArgs = { id: lines.rewe.id, idempotency_key: `post-${lines.rewe.id}` };
      const posted = dataOfCall(await call(agent, 'post_bank_line', postArgs));
      expect(posted).toMatchObject({ status: 'matched', suggestion: null });
      expect(dataOfCall(await call(agent, 'post_bank_line', postArgs))).toEqual(posted);
      expect(posted).toEqual(dataOf(await api.request('GET', `/api/v1/bank-lines/${lines.rewe.id}`)));

      const acceptArgs = { line_ids: [lines.fee.id], idempotency_key: `accept-${lines.fee.id}` };
      const accepted = dataOfCall(await call(agent, 'accept_bank_lines', acceptArgs));
      expect(dataOfCall(await call(agent, 'accept_bank_lines', acceptArgs))).toEqual(accepted);

      const number = await bankAccountNumber();
      const interest = dataOfCall(await call(agent, 'post_bank_line', { id: lines.interest.id, counter_account_number: number.replace('1000', '4000'),
        description: 'Interest March', idempotency_key: `post-${lines.interest.id}` }));
      expect(dataOf(await api.request('GET', `/api/v1/journal-entries/${interest.journal_entry_ids[0]}`)).lines
        .map((line: any) => [line.account_id, line.debit_amount, line.credit_amount])).toEqual([[books.bank.id, '12', '0'], [books.sales.id, '0', '12']]);
      expect((await bankEntries()).length).toBe(count + 3);

      const matchArgs = { id: lines.acme.id, journal_entry_ids: [entries.paid17.id, entries.paid18.id], idempotency_key: `match-${lines.acme.id}` };
      const matched = dataOfCall(await call(agent, 'match_bank_line', matchArgs));
      expect(matched).toMatchObject({ status: 'matched', journal_entry_ids: [entries.paid17.id, entries.paid18.id] });
      expect(dataOfCall(await call(agent, 'match_bank_line', matchArgs))).toEqual(matched);
      expect(errorOfCall(await call(agent, 'match_bank_line', { ...matchArgs, journal_entry_ids: [entries.paid17.id] })).code).toBe('IDEMPOTENCY_CONFLICT');
      expect(dataOfCall(await call(agent, 'match_bank_line', { id: lines.rent.id, journal_entry_ids: [entries.rent.id] })).status).toBe('matched');

      // The charge and its reversal cancel out: neither is in the books.
      for (const line of [lines.charge, lines.reversal]) {
        expect(dataOfCall(await call(agent, 'exclude_bank_line', { id: line.id, reason: 'Card charge reversed by the bank' })).status).toBe('excluded');
      }
      const unmatched = dataOfCall(await call(agent, 'unmatch_bank_line', { id: lines.reversal.id }));
      expect(unmatched).toMatchObject({ status: 'unmatched', excluded_reason: null });
      dataOfCall(await call(agent, 'exclude_bank_line', { id: lines.reversal.id, reason: 'Reverses the card charge' }));
      expect(dataOfCall(await call(agent, 'list_bank_lines', { account_id: books.bank.id, status: 'unmatched' }))).toEqual([]);

      const agentUser = await api.service.authenticate(agentKey);
      const audit = dataOf(await api.request('GET', `/api/v1/audit-log?target_id=${lines.rewe.id}`));
      expect(audit).toEqual([expect.objectContaining({ action: 'bank_line.post', actor_id: agentUser.user_id, credential_type: 'api_key',
        credential_id: agentUser.credential!.id })]);
    });

    it('reconciles the account to zero: start, clear the opening balance, finish', async () => {
      const number = await bankAccountNumber();
      const start = await call(agent, 'start_reconciliation', { account_number: number, statement_date: '2026-03-31', statement_balance: '163602' });
      const started = dataOfCall(start);
      expect(started).toMatchObject({ status: 'open', cleared_balance: '63602', difference: '100000', unmatched_bank_lines: [] });
      expect((start.content[0] as { text: string }).text).toBe(`Reconciliation ${started.id} (open) as of 2026-03-31: statement 1636.02, cleared `
        + '636.02, difference 1000.00; 1 outstanding journal lines, 0 unmatched bank lines');
      const report = await call(agent, 'get_reconciliation', { id: started.id });
      expect(report.structuredContent).toEqual((await api.request('GET', `/api/v1/reconciliations/${started.id}`)).body);
      const [opening] = dataOfCall(report).outstanding;
      expect(opening).toMatchObject({ journal_entry_id: entries.opening.id, amount: '100000' });

      const early = errorOfCall(await call(agent, 'finish_reconciliation', { id: started.id }));
      expect(early).toEqual((await api.request('POST', `/api/v1/reconciliations/${started.id}/finish`)).body);
      expect(early.code).toBe('RECONCILIATION_DIFFERENCE');

      expect(dataOfCall(await call(agent, 'clear_reconciliation_lines', { id: started.id, journal_line_ids: [opening.journal_line_id] })).difference).toBe('0');
      const finished = dataOfCall(await call(agent, 'finish_reconciliation', { id: started.id }));
      expect(finished).toMatchObject({ status: 'finished', cleared_balance: '163602', difference: '0' });
      expect(finished).toEqual(dataOf(await api.request('GET', `/api/v1/reconciliations/${started.id}`)));
      expect(errorOfCall(await call(agent, 'unmatch_bank_line', { id: lines.rewe.id })).code).toBe('RECONCILED');
    });
  });
}

describeBankAgent('streamable HTTP', (api, apiKey) => connectHttp(api.baseUrl, apiKey));
describeBankAgent('stdio', (api, apiKey) => connectStdio(api.location, apiKey));
