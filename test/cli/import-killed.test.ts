/**
 * `ledger journal-entries import` killed midway keeps nothing of the file: it posts every entry in
 * one transaction. The import runs on a pseudo-terminal (util-linux `script`), so that it draws its
 * progress bar (bytes read, and entries posted); as soon as it shows some entries posted and not all, the import process is
 * killed with SIGKILL. Afterwards the ledger holds none of the file's entries, verifies clean, and
 * the same file imports whole.
 */
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, entry, ledger, ledgerJson, ROOT, seedBooks, tempFolder } from '../helpers/cli.js';

const folder = tempFolder('import-killed');
afterAll(() => folder.remove());

const ENTRIES = 20_000;

/** Quotes a word for the shell that `script` runs the command in. */
const quoted = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * Runs the import on a pseudo-terminal and kills it (SIGKILL) once the progress bar shows a count
 * of entries posted strictly between 0 and the total. Answers the count it was killed at and how the process ended.
 */
function importKilledMidway(db: string, file: string, apiKey: string): Promise<{ killedAt: number; signal: NodeJS.Signals | null }> {
  const command = ['exec', process.execPath, BIN, '--db', db, 'journal-entries', 'import', file].map(quoted).join(' ');
  const terminal = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env: cliEnv({ LEDGER_API_KEY: apiKey }) });
  return new Promise((resolve, reject) => {
    let output = '';
    let killedAt: number | undefined;
    let importPid: number | undefined;
    terminal.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (killedAt !== undefined) return;
      const counts = [...output.matchAll(/, ([\d,]+) entries/g)].map((match) => Number(match[1]!.replaceAll(',', '')));
      const partial = counts.find((count) => count > 0 && count < ENTRIES);
      if (partial === undefined) return;
      killedAt = partial;
      // `script` runs the command as its child (the shell `exec`s the import): kill that process.
      importPid = Number(execFileSync('ps', ['-o', 'pid=', '--ppid', String(terminal.pid)], { encoding: 'utf8' }).trim());
      process.kill(importPid, 'SIGKILL');
    });
    terminal.on('error', reject);
    terminal.on('close', () => {
      if (killedAt === undefined) reject(new Error(`the import ended before it could be killed midway:\n${output}`));
      else resolve({ killedAt, signal: importPid === undefined ? null : 'SIGKILL' });
    });
  });
}

describe('ledger journal-entries import killed midway', () => {
  it('keeps none of the file, and the same file then imports whole', async () => {
    const db = join(folder.dir, 'killed.db');
    const books = await seedBooks(db);
    const lines = Array.from({ length: ENTRIES }, (_, index) =>
      JSON.stringify(entry(books.cash.id, books.sales.id, String(100 + index), '2026-03-01', `Sale ${index}`)));
    const file = join(folder.dir, 'entries.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);

    const killed = await importKilledMidway(db, file, books.adminKey);
    expect(killed.killedAt).toBeGreaterThan(0);
    expect(killed.killedAt).toBeLessThan(ENTRIES);

    const afterKill = ledgerJson(['journal-entries', 'list'], { db });
    expect(afterKill.data).toEqual([]);
    expect(ledgerJson(['accounts', 'get', books.cash.id], { db }).data.balance.total_debits).toBe('0');
    const verified = ledger(['verify'], { db, apiKey: books.adminKey, timeoutMs: 60_000 });
    expect(verified.status).toBe(0);

    const again = ledger(['journal-entries', 'import', file], { db, apiKey: books.adminKey, timeoutMs: 120_000 });
    expect(again).toEqual({ status: 0, stdout: `Imported ${ENTRIES} entries.\n`, stderr: '' });
    const total = BigInt(ENTRIES) * 100n + BigInt((ENTRIES * (ENTRIES - 1)) / 2);
    expect(ledgerJson(['accounts', 'get', books.cash.id], { db }).data.balance.total_debits).toBe(total.toString());
  });
});
