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

/**
 * npm packages that are bundled all the same: pure JavaScript shipped as many small ES modules that
 * every command loads. TypeBox alone is 373 files; loaded one by one they were about half the
 * start-up of `ledger --version`. Everything else (native addons, the server's and PostgreSQL's
 * packages, which the commands that need them load lazily) stays in node_modules.
 */
const BUNDLED_PACKAGES = new Set(['typebox', 'csv-parse', 'fast-xml-parser']);

/** Every npm package our own code imports stays external unless listed; what a listed one imports is bundled with it. */
function externalPackagesBut(bundled) {
  return {
    name: 'external-packages-but',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.importer.includes('/node_modules/')) return undefined;
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return bundled.has(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

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
  plugins: [externalPackagesBut(BUNDLED_PACKAGES)],
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
});
