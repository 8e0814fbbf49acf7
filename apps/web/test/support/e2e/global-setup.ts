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
  // Vitest sets NODE_ENV=test, and Vite would then build React's development bundle, which is
  // neither what users get nor within the page budgets: build as `npm run build` does.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: webRoot, logLevel: 'warn', mode: 'production' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
