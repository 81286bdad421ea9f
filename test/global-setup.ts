/**
 * Runs once per `vitest run`, before any test file: compiles the sources to dist/ and bundles
 * them into dist/bundle/ (scripts/bundle-cli.mjs) so that the CLI tests (test/cli) run
 * `node bin/ledger.js` on the current code, and builds the web UI into
 * dist/web for the browser tests (test/e2e), which `ledger serve` serves. Each build is skipped
 * when its output is already newer than every file it is made from, so runs that touch neither
 * stay fast; LEDGER_TEST_BUILD=always forces both, and LEDGER_TEST_BUILD=never skips both (`npm run
 * test:fast`, whose tests call the code in src/ directly and start no program).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const ENTRY = join(ROOT, 'dist/bundle/main.js');
const WEB_ENTRY = join(ROOT, 'dist/web/index.html');

function newestSourceMs(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMs(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function buildIsCurrent(): boolean {
  if (process.env.LEDGER_TEST_BUILD === 'always' || !existsSync(ENTRY)) return false;
  const sourcesMs = Math.max(newestSourceMs(join(ROOT, 'src')), statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs,
    statSync(join(ROOT, 'package.json')).mtimeMs);
  return statSync(ENTRY).mtimeMs > Math.max(sourcesMs, statSync(join(ROOT, 'scripts/bundle-cli.mjs')).mtimeMs);
}

/** Every file under `folder`, whatever its kind (the UI is .tsx, .css and .html as well as .ts). */
function newestFileMs(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestFileMs(path));
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The UI bundles web/ and the pure modules of src/ it imports (money, schema types). */
function webBuildIsCurrent(): boolean {
  if (process.env.LEDGER_TEST_BUILD === 'always' || !existsSync(WEB_ENTRY)) return false;
  const sourcesMs = Math.max(newestFileMs(join(ROOT, 'web')), newestSourceMs(join(ROOT, 'src')), statSync(join(ROOT, 'package.json')).mtimeMs);
  return statSync(WEB_ENTRY).mtimeMs > sourcesMs;
}

/**
 * A failed UI build must not stop the other suites, so it is reported here and its entry file
 * removed: the browser tests then fail on the missing dist/web/index.html instead of testing
 * an old bundle.
 */
function buildWeb(): void {
  if (webBuildIsCurrent()) return;
  const build = spawnSync('npm', ['run', 'build:web'], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
  if (build.status !== 0 || build.error || !existsSync(WEB_ENTRY)) {
    rmSync(WEB_ENTRY, { force: true });
    process.stderr.write(`web UI build failed (${build.status}): ${build.error?.message ?? ''}${build.stdout}${build.stderr}\n`);
  }
}

export default function setup(): void {
  if (process.env.LEDGER_TEST_BUILD === 'never') return;
  buildServer();
  buildWeb();
}

function buildServer(): void {
  if (buildIsCurrent()) return;
  // Type errors elsewhere in the tree (the typecheck gate reports them) still emit JavaScript;
  // only a missing entry point stops the CLI tests.
  const compile = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
  if (compile.error) throw new Error(`build failed: ${compile.error.message}`);
  const bundle = spawnSync(process.execPath, ['scripts/bundle-cli.mjs'], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
  if (!existsSync(ENTRY) || bundle.status !== 0 || bundle.error) {
    throw new Error(`build failed (tsc ${compile.status}, bundle ${bundle.status}): ${bundle.error?.message ?? ''}${compile.stdout}${compile.stderr}${bundle.stdout}${bundle.stderr}`);
  }
}
