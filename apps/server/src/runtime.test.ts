import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import rootPackage from '../../../package.json' with { type: 'json' };
import { PORTAL_NODE_ARGS } from '../../../scripts/portal-node-args.mjs';
import { runtimeProblem } from '../../../scripts/require-node.mjs';
import { REPO_ROOT } from './paths.js';

/** What `node --version` answers where npm scripts run: node_modules/.bin comes first on PATH. */
function nodeOnScriptPath(): string {
  return spawnSync('node', ['--version'], { encoding: 'utf8' }).stdout.trim();
}

function systemNodeIsOlder(): boolean {
  if (!existsSync('/usr/bin/node')) return false;
  const version = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).stdout;
  return Number(version.slice(1).split('.')[0]) < 24;
}

/**
 * The packages npm's own engine check names when npm runs on `node`: a dry install from the
 * lockfile, which checks every package's `engines` against the Node.js running npm.
 */
function engineWarnings(node: string): string[] {
  const npm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  const result = spawnSync(
    node,
    [
      realpathSync(npm),
      'install',
      '--dry-run',
      '--offline',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
    ],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  expect(result.status, result.stderr).toBe(0);
  return [...result.stderr.matchAll(/EBADENGINE\s+package: (.+),/g)].map((match) => match[1]!);
}

describe('the runtime', () => {
  it('is Node.js 24 inside npm test, whatever node the machine has', () => {
    expect(process.version).toMatch(/^v24\./);
    expect(nodeOnScriptPath()).toBe(process.version);
  });

  it('is what engines asks for', () => {
    expect(rootPackage.engines.node).toMatch(/^>=24\.\d+$/);
    expect(runtimeProblem(process.versions.node)).toBeNull();
  });

  // On Node.js 24 no package asks for another runtime. npm run by the machine's Node.js 20 names
  // the root and the libraries that have left it (docs/decisions/0036-node-24-from-the-registry.md):
  // it checks against the Node.js that runs npm itself.
  it('installs without a word about engines when npm runs on it', () => {
    expect(engineWarnings(process.execPath)).toEqual([]);
    if (systemNodeIsOlder()) expect(engineWarnings('/usr/bin/node')).not.toEqual([]);
  });

  it('refuses an older Node.js with one Russian line naming the version it needs', () => {
    expect(runtimeProblem('20.20.2')).toBe(
      'Нужен Node.js 24.11 или новее, а запущен 20.20.2: установите зависимости (npm install) ' +
        'и запускайте командами npm, они берут Node.js 24 из node_modules.',
    );
    expect(runtimeProblem('24.10.0')).not.toBeNull();
    expect(runtimeProblem('24.11.0')).toBeNull();
    expect(runtimeProblem('26.0.0')).toBeNull();
  });

  // The machine's own older Node.js, where it has one: the real start stops before building.
  it.runIf(systemNodeIsOlder())(
    'a start on the machine’s older node stops with that line and exit code 1',
    () => {
      const result = spawnSync('/usr/bin/node', ['scripts/start.mjs'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^Нужен Node\.js 24\.11 или новее, а запущен 20\./);
    },
  );

  // Without the flag Node.js 24 keeps 128 MiB of new space on a host of 16 GB or more, and the
  // portal's memory doubles (scripts/portal-node-args.mjs).
  it('runs the portal with a young generation of at most 32 MiB, however much memory the host has', () => {
    const churn = `let kept = [];
      for (let i = 0; i < 3e6; i++) { kept.push({ i }); if (kept.length > 1e5) kept = []; }
      const young = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      console.log(young.space_size);`;
    const result = spawnSync(process.execPath, [...PORTAL_NODE_ARGS, '-e', churn], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(Number(result.stdout) / 2 ** 20).toBeLessThanOrEqual(32);
  });
});
