// `npm run bench`: see apps/server/bench/run.ts. The bench runs the built server and web app, as
// `npm start` serves them.
import './require-node.mjs';
import { run } from './run.mjs';

run('npm', ['run', 'build', '--silent']);
run('npx', ['tsx', 'bench/run.ts'], { cwd: new URL('../apps/server/', import.meta.url) });
