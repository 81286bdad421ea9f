/**
 * `ledger journal-entries import` streams its file: a file larger than the memory the process is
 * allowed imports whole, in one transaction. The import runs with a V8 heap capped at 48 MiB
 * (`--max-old-space-size`) on a 64 MiB file, which could not be held in that heap once, let alone
 * as the file's text and its parsed entries side by side.
 */
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerJson, seedBooks, tempFolder } from '../helpers/cli.js';

const folder = tempFolder('import-large-file');
afterAll(() => folder.remove());

const HEAP_MIB = 48;
const FILE_MIB = 64;
/** Each entry carries an 8 KB metadata note, so that the file is large with few entries. */
const NOTE = 'n'.repeat(8000);

describe('ledger journal-entries import of a file larger than its memory', () => {
  it('imports every entry of a 64 MiB file with a 48 MiB heap, and the balances are exact', { timeout: 180_000 }, async () => {
    const db = join(folder.dir, 'large.db');
    const books = await seedBooks(db);
    const file = join(folder.dir, 'large.jsonl');
    const fd = openSync(file, 'w');
    let entries = 0;
    let total = 0n;
    try {
      while (statSync(file).size < FILE_MIB * 1024 * 1024) {
        const chunk: string[] = [];
        for (let index = 0; index < 500; index += 1, entries += 1) {
          const amount = 100 + (entries % 997);
          total += BigInt(amount);
          chunk.push(JSON.stringify({ ...entry(books.cash.id, books.sales.id, String(amount), '2026-03-01', `Sale ${entries}`),
            metadata: { note: NOTE } }));
        }
        writeSync(fd, `${chunk.join('\n')}\n`);
      }
    } finally {
      closeSync(fd);
    }

    const run = ledger(['journal-entries', 'import', file], {
      db, apiKey: books.adminKey, nodeArgs: [`--max-old-space-size=${HEAP_MIB}`], timeoutMs: 150_000,
    });
    expect(run).toEqual({ status: 0, stdout: `Imported ${entries} entries.\n`, stderr: '' });
    const balance = ledgerJson(['accounts', 'get', books.cash.id], { db }).data.balance;
    expect(balance).toMatchObject({ total_debits: total.toString(), total_credits: '0' });
    expect(ledger(['verify'], { db, apiKey: books.adminKey, timeoutMs: 60_000 }).status).toBe(0);
  });
});
