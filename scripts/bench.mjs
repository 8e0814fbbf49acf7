// `npm run bench`: see apps/server/bench/run.ts.
import { run } from './run.mjs';

run('npx', ['tsx', 'bench/run.ts'], { cwd: new URL('../apps/server/', import.meta.url) });
