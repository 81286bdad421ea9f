/**
 * Bundles the compiled program (dist/cli/main.js, written by `tsc -p tsconfig.build.json`) into
 * dist/bundle/, which `bin/ledger.js` runs. Node loads one module per file and an ES module costs
 * a resolution, a read and a compile of its own: the hundred-odd files a short command such as
 * `ledger accounts list` needs took about a quarter of its start-up. npm packages stay outside
 * (they load from node_modules as before). Code splitting keeps the dynamic imports lazy: the
 * HTTP server, PostgreSQL and the MCP transports are still loaded only by the commands that use
 * them. Source maps point back to dist/ (the benchmark's CPU profile names modules through them).
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');

// Chunk names carry a hash of their content: clear the old ones rather than let them pile up.
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'dist', 'cli', 'main.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
});
