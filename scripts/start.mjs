// `npm start`: builds whatever is missing or older than its sources, then serves the portal
// (web app, API, uploads) from one process on one port, on the embedded database unless
// DATABASE_URL says otherwise.
import './require-node.mjs';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PORTAL_NODE_ARGS } from './portal-node-args.mjs';
import { run } from './run.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => path.join(root, ...parts);

function newestChange(paths) {
  let newest = 0;
  const visit = (file) => {
    if (!existsSync(file)) return;
    const stat = statSync(file);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file))
        if (entry !== 'node_modules') visit(path.join(file, entry));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

function isStale(output, sources) {
  return !existsSync(output) || statSync(output).mtimeMs < newestChange(sources);
}

const contracts = at('packages/contracts/src');
if (
  isStale(at('apps/web/dist/index.html'), [
    at('apps/web/src'),
    at('apps/web/index.html'),
    at('apps/web/public'),
    contracts,
  ])
) {
  console.info('Сборка веб-приложения…');
  run('npm', ['run', 'build', '-w', 'apps/web', '--silent']);
}
if (isStale(at('apps/server/dist/server.js'), [at('apps/server/src'), contracts])) {
  console.info('Сборка сервера…');
  run('npm', ['run', 'build', '-w', 'apps/server', '--silent']);
}

const server = spawn(process.execPath, [...PORTAL_NODE_ARGS, at('apps/server/dist/server.js')], {
  stdio: 'inherit',
  cwd: root,
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
