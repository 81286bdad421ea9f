/**
 * `npm run bench:banking`: bank statement imports and the unmatched-lines page (docs/benchmarks.md,
 * "Bank statements"). For a 50,000-line CSV and a 50,000-line CAMT.053 file, written here with
 * realistic shapes:
 *
 *   - the bare parse and store: the library alone (csv-parse, fast-xml-parser) reads the file, and
 *     bare better-sqlite3 stores every row the import stores (the statement and its lines, in the
 *     ledger's own tables and indexes), in one transaction with synchronous=FULL, WAL: the ceiling;
 *   - the ledger's import through the service (the compiled build), into a fresh ledger: reading,
 *     exact amounts, fingerprints, duplicate checks, the statement, its lines and the audit record;
 *   - then `GET /api/v1/bank-lines?status=unmatched` of a `ledger serve` on that ledger: its first
 *     page and a page deep in the lines (200 rows, every suggestion computed), 100 calls each.
 *
 * Each import runs three times (a fresh ledger each time); the best time counts. Goal (issue 23):
 * the import at least half as fast as the bare parse and store. Prints Markdown.
 */
import { createHash, randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { buildDist, fmt, ROOT, table } from './lib.js';

const LINES = Number(process.env.BENCH_BANK_LINES ?? 50_000);
const RUNS = 3;
const PAGE_CALLS = 100;

const MERCHANTS = ['REWE Markt', 'Kaffee Bohne', 'Deutsche Bahn', 'Amazon EU', 'Stadtwerke', 'ACME GmbH Rechnung', 'Tankstelle', 'Apotheke'];

function dayOf(index: number): string {
  const date = new Date(Date.UTC(2026, 0, 1) + Math.floor((index * 364) / LINES) * 86_400_000);
  return date.toISOString().slice(0, 10);
}

function amountOf(index: number): bigint {
  return BigInt(((index * 7919) % 250_000) + 1) * (index % 5 === 0 ? 1n : -1n);
}

function major(amount: bigint, separator: ',' | '.'): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}${separator}${digits.slice(-2)}`;
}

function csvFile(): string {
  const rows = ['Buchungstag;Verwendungszweck;Betrag'];
  for (let index = 0; index < LINES; index += 1) {
    const [year, month, day] = dayOf(index).split('-');
    rows.push(`${day}.${month}.${year};${MERCHANTS[index % MERCHANTS.length]} ${index};${major(amountOf(index), ',')}`);
  }
  return rows.join('\n');
}

function camtFile(): string {
  const entries: string[] = [];
  for (let index = 0; index < LINES; index += 1) {
    const amount = amountOf(index);
    entries.push(`<Ntry><NtryRef>E${index}</NtryRef><Amt Ccy="EUR">${major(amount < 0n ? -amount : amount, '.')}</Amt>`
      + `<CdtDbtInd>${amount < 0n ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${dayOf(index)}</Dt></BookgDt>`
      + `<ValDt><Dt>${dayOf(index)}</Dt></ValDt><AcctSvcrRef>REF-${index}</AcctSvcrRef><BkTxCd/>`
      + `<NtryDtls><TxDtls><RltdPties><Cdtr><Nm>${MERCHANTS[index % MERCHANTS.length]}</Nm></Cdtr></RltdPties>`
      + `<RmtInf><Ustrd>Payment ${index}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>`
    + '<GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2026-12-31T23:00:00</CreDtTm></GrpHdr><Stmt><Id>S1</Id><CreDtTm>2026-12-31T23:00:00</CreDtTm>'
    + '<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>'
    + `${entries.join('\n')}</Stmt></BkToCstmrStmt></Document>`;
}

interface Row { date: string; amount: string; description: string; reference: string }

/**
 * The ceiling: the library's parse, then bare better-sqlite3 storing every row the import stores
 * (the statement, and its lines into the ledger's own `bank_lines` table with the same indexes,
 * made by the ledger's migrations), in one transaction with synchronous=FULL.
 */
async function bareParseAndStore(rows: () => Row[], dir: string): Promise<{ parseMs: number; storeMs: number }> {
  const started = performance.now();
  const parsed = rows();
  const parseMs = performance.now() - started;
  const { initLedger } = await import(join(ROOT, 'dist/app/open-ledger.js')) as typeof import('../src/app/open-ledger.js');
  const path = join(dir, `bare-${randomUUID()}.db`);
  await initLedger(path);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`INSERT INTO currencies (id, code, name, symbol, asset_scale, asset_type, caip19_id, created_at)
      VALUES ('eur', 'EUR', 'Euro', '€', 2, 'fiat', 'swift:0/iso4217:EUR', '2026-01-01T00:00:00Z');
    INSERT INTO accounts (id, account_number, name, currency_id, account_type, normal_balance, has_subledger, is_active, created_at)
      VALUES ('account', '1010', 'Bank', 'eur', 'asset', 'debit', 0, 1, '2026-01-01T00:00:00Z')`);
  const storeStarted = performance.now();
  const statementId = randomUUID();
  const insert = db.prepare(`INSERT INTO bank_lines (id, statement_id, account_id, posted_date, amount, description, external_id, fingerprint,
    line_number, status) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, 'unmatched')`);
  db.transaction(() => {
    db.prepare(`INSERT INTO bank_statements (id, account_id, format, file_sha256, imported_at, start_date, end_date, line_count, new_count,
      duplicate_count) VALUES (?, 'account', 'csv', ?, ?, ?, ?, ?, ?, 0)`).run(statementId, randomUUID(), new Date().toISOString(),
      parsed[0]!.date, parsed[parsed.length - 1]!.date, parsed.length, parsed.length);
    parsed.forEach((row, index) => {
      insert.run(randomUUID(), statementId, 'account', row.date, row.amount, row.description,
        createHash('sha256').update(`${row.date}\n${row.amount}\n${row.description}\n${row.reference}`).digest('hex'), index + 2);
    });
  }).immediate();
  const storeMs = performance.now() - storeStarted;
  db.close();
  return { parseMs, storeMs };
}

function csvRows(text: string): () => Row[] {
  return () => (parse(text, { delimiter: ';', from_line: 2 }) as string[][]).map((cells) =>
    ({ date: cells[0]!, amount: cells[2]!, description: cells[1]!, reference: '' }));
}

function camtRows(text: string): () => Row[] {
  return () => {
    const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, parseAttributeValue: false, removeNSPrefix: true });
    const document = parser.parse(text) as any;
    return (document.Document.BkToCstmrStmt.Stmt.Ntry as any[]).map((entry) => ({
      date: entry.BookgDt.Dt, amount: typeof entry.Amt === 'object' ? entry.Amt['#text'] : entry.Amt,
      description: entry.NtryDtls?.TxDtls?.RmtInf?.Ustrd ?? '', reference: entry.AcctSvcrRef ?? '',
    }));
  };
}

interface ImportRun { ms: number; location: string; accountId: string; key: string }

async function ledgerImport(format: 'csv' | 'camt053', text: string, dir: string): Promise<ImportRun> {
  const { initLedger, openLedger } = await import(join(ROOT, 'dist/app/open-ledger.js')) as typeof import('../src/app/open-ledger.js');
  const { LOCAL_OPERATOR } = await import(join(ROOT, 'dist/service/actor.js')) as typeof import('../src/service/actor.js');
  const location = join(dir, `ledger-${randomUUID()}.db`);
  await initLedger(location);
  const service = await openLedger(location, undefined, { scryptCost: 2 ** 10 });
  try {
    const eur = await service.createFiatCurrency(LOCAL_OPERATOR, 'EUR');
    const bank = await service.createAccount(LOCAL_OPERATOR, { account_number: '1010', name: 'Bank', currency_id: eur.id, account_type: 'asset',
      normal_balance: 'debit' });
    const fees = await service.createAccount(LOCAL_OPERATOR, { account_number: '6100', name: 'Fees', currency_id: eur.id,
      account_type: 'expense', normal_balance: 'debit' });
    for (const [index, merchant] of MERCHANTS.entries()) {
      await service.createBankRule(LOCAL_OPERATOR, { name: merchant, priority: index, match: { description_contains: merchant.split(' ')[0]! },
        counter_account_id: fees.id });
    }
    const key = (await service.createServiceAccount(null, { name: 'reader', permissions: {} })).api_key;
    const started = performance.now();
    const statement = await service.importBankStatement(LOCAL_OPERATOR, {
      account_id: bank.id, format, content: text,
      ...(format === 'csv' ? { csv: { delimiter: ';', date_column: 1, date_format: 'DD.MM.YYYY', description_column: 2, amount_column: 3,
        decimal_separator: ',' } } : {}),
    });
    const ms = performance.now() - started;
    if (statement.new_count !== LINES) throw new Error(`imported ${statement.new_count} lines of ${LINES}`);
    return { ms, location, accountId: bank.id, key };
  } finally {
    await service.ctx.store.close();
  }
}

async function pageTimes(run: ImportRun): Promise<{ first: number[]; deep: number[] }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/ledger.js'), '--db', run.location, 'serve', '--port', '0', '--host', '127.0.0.1'],
    { env: { ...process.env, LEDGER_LOG_LEVEL: 'warn' } });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(printed);
      if (found) resolve(found[1]!);
    });
    child.on('exit', (code) => reject(new Error(`ledger serve exited ${code}`)));
  });
  try {
    const headers = { authorization: `Bearer ${run.key}` };
    const url = `${baseUrl}/api/v1/bank-lines?status=unmatched&account_id=${run.accountId}&limit=200`;
    const get = async (target: string) => {
      const response = await fetch(target, { headers });
      const body = await response.json() as { next_cursor: string | null };
      if (response.status !== 200) throw new Error(`GET answered ${response.status}`);
      return body;
    };
    let cursor: string | null = null;
    for (let page = 0; page < LINES / 400; page += 1) cursor = (await get(`${url}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).next_cursor;
    const deepUrl = `${url}&cursor=${encodeURIComponent(cursor!)}`;
    const time = async (target: string) => {
      const times: number[] = [];
      for (let call = 0; call < PAGE_CALLS; call += 1) {
        const started = performance.now();
        await get(target);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b);
    };
    return { first: await time(url), deep: await time(deepUrl) };
  } finally {
    child.kill('SIGTERM');
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  if (!process.argv.includes('--skip-build')) await buildDist();
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-banking-'));
  try {
    const files = { csv: csvFile(), camt053: camtFile() };
    writeFileSync(join(dir, 'statement.csv'), files.csv);
    const rows: string[][] = [];
    let pages: { first: number[]; deep: number[] } | undefined;
    for (const format of ['csv', 'camt053'] as const) {
      const text = files[format];
      const bares: { parseMs: number; storeMs: number }[] = [];
      for (let run = 0; run < RUNS; run += 1) bares.push(await bareParseAndStore(format === 'csv' ? csvRows(text) : camtRows(text), dir));
      const bare = bares.sort((a, b) => (a.parseMs + a.storeMs) - (b.parseMs + b.storeMs))[0]!;
      const runs: ImportRun[] = [];
      for (let run = 0; run < RUNS; run += 1) runs.push(await ledgerImport(format, text, dir));
      const best = runs.sort((a, b) => a.ms - b.ms)[0]!;
      const bareMs = bare.parseMs + bare.storeMs;
      rows.push([`${format === 'csv' ? 'CSV' : 'CAMT.053'}, ${fmt(LINES)} lines, ${fmt(text.length / 1e6, 1)} MB`, fmt(bare.parseMs), fmt(bare.storeMs),
        fmt(bareMs), fmt(best.ms), fmt((LINES / best.ms) * 1000), (bareMs / best.ms).toFixed(2), bareMs / best.ms >= 0.5 ? 'pass' : 'FAIL']);
      if (format === 'csv') pages = await pageTimes(best);
    }
    const out = [
      `## Bank statements, ${new Date().toISOString()}`, '',
      table(['File', 'bare parse ms', 'bare store ms', 'bare total ms', 'ledger import ms', 'lines/s', 'import / bare (goal ≥ 0.5)', ''], rows), '',
      `Unmatched lines, 200 a page with their suggestions (8 rules), ${PAGE_CALLS} calls each, on the CSV's ledger through \`ledger serve\`:`, '',
      table(['Page', 'p50 ms', 'p99 ms'], [
        ['first', fmt(percentile(pages!.first, 50), 1), fmt(percentile(pages!.first, 99), 1)],
        [`deep (after ${fmt(LINES / 2)} lines)`, fmt(percentile(pages!.deep, 50), 1), fmt(percentile(pages!.deep, 99), 1)],
      ]),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
