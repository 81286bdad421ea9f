/**
 * Files that ship beside the code: package.json (the version) and the built web UI. They are
 * found from the package's root, located by walking up from this module to the package.json
 * named "ledger", so the answer is the same wherever the module runs from: src/ under the tests,
 * dist/ as tsc writes it, or the bundle in dist/bundle/ that `bin/ledger.js` runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name?: string;
  version: string;
}

let root: { folder: string; pkg: PackageJson } | undefined;

function packageRoot(): { folder: string; pkg: PackageJson } {
  if (root) return root;
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(folder, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
      if (pkg.name === 'ledger') return (root = { folder, pkg });
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`the ledger package's package.json was not found above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
}

/** The version in package.json (`ledger --version`, the MCP server's version). */
export function packageVersion(): string {
  return packageRoot().pkg.version;
}

/** dist/web/: the web UI as `npm run build:web` writes it, served by `ledger serve`. */
export function builtWebRoot(): string {
  return join(packageRoot().folder, 'dist', 'web');
}
