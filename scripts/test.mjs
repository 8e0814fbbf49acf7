// The one test command: lint, types, the web build the browser tests need, then every test
// project (contracts, server, browser) in one Vitest run. Extra arguments go to Vitest.
import './require-node.mjs';
import { run } from './run.mjs';

const vitestArgs = process.argv.slice(2);

run('npx', ['biome', 'check', '.']);
run('npm', ['run', 'typecheck', '--silent']);
run('npm', ['run', 'build', '-w', 'apps/web', '--silent']);
run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=./scripts/summary-reporter.mjs',
  ...vitestArgs,
]);
