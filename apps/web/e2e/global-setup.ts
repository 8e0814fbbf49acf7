import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { webDistDir, webRoot } from './paths';

/**
 * The server serves the built app, so browser tests need apps/web/dist. `npm test` builds it first;
 * running the e2e project alone on a fresh checkout builds it here.
 */
export default async function setup() {
  if (existsSync(path.join(webDistDir, 'index.html'))) return;
  await build({ root: webRoot, logLevel: 'warn' });
}
