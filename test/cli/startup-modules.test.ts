/**
 * What a short command loads: the bundle (scripts/bundle-cli.mjs) and a handful of packages, not
 * hundreds of files. Each module file is read, resolved and compiled on its own, so their number
 * is the start-up time that a loaded test machine cannot measure reliably: TypeBox unbundled
 * (373 files) or the regular-expression analyser loaded eagerly each cost 300 ms or more of
 * `ledger --version` here. Counted with a module-loading hook, so the figures are exact.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, seedBooks, tempFolder } from '../helpers/cli.js';

const folder = tempFolder('startup-modules');
const hooks = join(folder.dir, 'hooks.mjs');
const register = join(folder.dir, 'register.mjs');
const db = join(folder.dir, 'small.db');
afterAll(() => folder.remove());

beforeAll(async () => {
  writeFileSync(hooks, "export async function load(url, context, next) { process.stderr.write(`LOADED ${url}\\n`); return next(url, context); }\n");
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  await seedBooks(db);
});

/** The files (not Node's built-in modules) that `ledger ...args` loads, as URLs. */
function loadedFiles(args: readonly string[]): string[] {
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, BIN, ...args], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stderr.split('\n').filter((line) => line.startsWith('LOADED file:')).map((line) => line.slice('LOADED '.length));
}

const packageOf = (url: string) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];

describe('the modules a short command loads', () => {
  for (const args of [['--version'], ['--db', db, 'accounts', 'list']]) {
    it(`ledger ${args.filter((arg) => arg !== db).join(' ')}: under 60 files, no file of TypeBox or the regular-expression analyser`, () => {
      const files = loadedFiles(args);
      const packages = new Set(files.map(packageOf).filter((name) => name !== undefined));
      expect(packages.has('typebox'), 'TypeBox is bundled (its 373 files)').toBe(false);
      expect(packages.has('recheck'), 'recheck is loaded when a rule is saved').toBe(false);
      expect(files.length, files.join('\n')).toBeLessThan(60);
      // The counting works: the program itself and its command-line parser are among them.
      expect(files.some((url) => url.includes('/dist/bundle/main.js'))).toBe(true);
      expect(packages.has('commander')).toBe(true);
    });
  }
});
