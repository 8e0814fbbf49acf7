// `npm run dev`: the server restarting on change (port 3000) and Vite with hot reload (5173),
// which forwards API calls to the server.
import './require-node.mjs';
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', 'apps/server/src/server.ts'], { stdio: 'inherit' }),
  spawn('npx', ['vite', '--config', 'apps/web/vite.config.ts'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
