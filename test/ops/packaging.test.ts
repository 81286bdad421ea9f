/**
 * The container image and the systemd unit (docs/operations.md, "Deploying"). Neither can run here
 * (no container engine, no systemd as PID 1), so this checks what can be checked: the unit passes
 * `systemd-analyze verify`, both start the server exactly as `npm start` does, the Dockerfile has
 * the shape the docs promise (multi-stage on node:20-bookworm-slim, no build tools and a non-root
 * user in the final image, tini, a HEALTHCHECK through `ledger health`), and `ledger health` itself
 * answers a running server and a stopped one.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initLedger } from '../../src/app/open-ledger.js';
import { ledger, ROOT, tempFolder } from '../helpers/cli.js';
import { startServe } from '../helpers/serve-process.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const startScript = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
function instructions(text: string): { keyword: string; args: string }[] {
  return text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

describe('the systemd unit', () => {
  const unit = read('deploy/ledger.service');

  it('passes systemd-analyze verify without a warning, and starts the server as npm start does', () => {
    const analyze = spawnSync('systemd-analyze', ['verify', join(ROOT, 'deploy/ledger.service')], { encoding: 'utf8' });
    if (analyze.error === undefined) {
      expect({ status: analyze.status, stderr: analyze.stderr }).toEqual({ status: 0, stderr: '' });
    } else {
      // Without systemd-analyze, at least every line is a section, a comment or key=value.
      for (const line of unit.split('\n')) expect(line).toMatch(/^(|#.*|\[[A-Za-z]+\]|[A-Za-z]+=.*)$/);
    }
    const exec = /^ExecStart=(.*)$/m.exec(unit)?.[1];
    expect(exec).toBe(`/usr/bin/${startScript.replace('bin/ledger.js', '/opt/ledger/bin/ledger.js')}`);
    for (const hardening of ['NoNewPrivileges=yes', 'ProtectSystem=strict', 'PrivateTmp=yes', 'CapabilityBoundingSet=', 'UMask=0077']) {
      expect(unit).toContain(`\n${hardening}\n`);
    }
    expect(unit).toMatch(/^User=ledger$/m);
  });
});

describe('the Dockerfile', () => {
  const steps = instructions(read('Dockerfile'));
  const froms = steps.map((step, index) => ({ step, index })).filter(({ step }) => step.keyword === 'FROM');
  const final = steps.slice(froms.at(-1)!.index);

  it('builds in one stage and runs in another, both node:20-bookworm-slim, installing as CI does', () => {
    expect(froms.map(({ step }) => step.args.split(' ')[0])).toEqual(['node:20-bookworm-slim', 'node:20-bookworm-slim']);
    const ci = read('.ci/run');
    const install = steps.find((step) => step.keyword === 'RUN' && step.args.startsWith('npm ci'));
    expect(install).toBeDefined();
    expect(ci).toContain('npm ci --no-audit --no-fund');
    expect(install!.args).toBe('npm ci --no-audit --no-fund');
    // The runtime dependencies only go on.
    expect(steps.some((step) => step.keyword === 'RUN' && step.args.startsWith('npm prune --omit=dev'))).toBe(true);
  });

  it('keeps build tools out of the final image, runs as a non-root user under tini, and starts as npm start does', () => {
    const finalRuns = final.filter((step) => step.keyword === 'RUN').map((step) => step.args).join('\n');
    for (const tool of ['g++', 'make', 'python3', 'gcc', 'build-essential']) expect(finalRuns).not.toMatch(new RegExp(`\\s${tool.replace('+', '\\+')}(\\s|$)`));
    // No source goes in: everything comes built from the build stage.
    expect(final.filter((step) => step.keyword === 'COPY').every((step) => step.args.includes('--from=build'))).toBe(true);
    const user = final.filter((step) => step.keyword === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(final.find((step) => step.keyword === 'ENTRYPOINT')?.args).toBe('["/usr/bin/tini", "--"]');
    expect(JSON.parse(final.find((step) => step.keyword === 'CMD')!.args)).toEqual(startScript.split(' '));
    // Every setting the image sets is one the server reads.
    const env = final.filter((step) => step.keyword === 'ENV').map((step) => step.args).join(' ');
    for (const name of env.match(/[A-Z_]+(?==)/g) ?? []) {
      expect({ name, documented: name === 'NODE_ENV' || read('README.md').includes(`\`${name}\``) }).toEqual({ name, documented: true });
    }
  });

  it('is built and run with the commands the README and its own header give', () => {
    const readme = read('README.md');
    const header = read('Dockerfile').split('\n').filter((line) => line.startsWith('#')).join('\n');
    for (const command of ['docker build -t ledger .', 'docker run -d -p 3000:3000 -v ledger-data:/data ledger']) {
      expect(readme).toContain(`\n${command}\n`);
      expect(read('docs/operations.md')).toContain(command);
    }
    expect(header).toContain('docker build -t ledger .');
    expect(header).toContain('docker run -p 3000:3000 -v ledger-data:/data ledger');
    // The port the README runs it on is the one the image listens on.
    expect(steps.find((step) => step.keyword === 'EXPOSE')?.args).toBe('3000');
  });

  it('checks its health with `ledger health`, which says ready for a running server and exit 6 for a stopped one', async () => {
    const check = final.find((step) => step.keyword === 'HEALTHCHECK')!.args;
    expect(check).toMatch(/CMD \["node", "bin\/ledger\.js", "health"\]$/);
    const folder = tempFolder('health');
    try {
      const db = join(folder.dir, 'ledger.db');
      await initLedger(db);
      const server = await startServe(db);
      let ready;
      try {
        ready = ledger(['health', '--url', server.baseUrl]);
      } finally {
        await server.stop();
      }
      expect(ready).toMatchObject({ status: 0, stdout: `ready: ${server.baseUrl}\n` });
      const stopped = ledger(['--json', 'health', '--url', server.baseUrl]);
      expect(stopped.status).toBe(6);
      expect(JSON.parse(stopped.stdout).data).toMatchObject({ ready: false, status: null, error: expect.stringContaining('ECONNREFUSED') });
    } finally {
      folder.remove();
    }
  });
});

