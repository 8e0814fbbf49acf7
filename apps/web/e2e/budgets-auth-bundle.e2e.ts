import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { expect, it } from 'vitest';
import { setupBrowser } from './browser';
import { setupPortal } from './portal';

/** Issue 7: the JavaScript a visitor downloads for /auth, gzipped, stays under this. */
const AUTH_JS_BUDGET_BYTES = 150 * 1024;

const portal = setupPortal();
const browser = setupBrowser();

/** Every JavaScript file the page downloads, including module preloads, by URL. */
function collectScripts(page: Page): () => Promise<Map<string, Buffer>> {
  const bodies = new Map<string, Promise<Buffer>>();
  page.on('response', (response: Response) => {
    const isScript =
      (response.headers()['content-type'] ?? '').includes('javascript') ||
      new URL(response.url()).pathname.endsWith('.js');
    if (isScript && response.ok() && !bodies.has(response.url())) {
      bodies.set(response.url(), response.body());
    }
  });
  return async () => {
    const files = new Map<string, Buffer>();
    for (const [url, body] of bodies) files.set(url, await body);
    return files;
  };
}

it('/auth loads at most 150 KB of gzipped JavaScript, both tabs included', async () => {
  const page = await browser.newPage();
  const scripts = collectScripts(page);
  await page.goto(`${portal().baseUrl}/auth`);
  await page.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();
  // The other tab may load code of its own: it counts, a visitor opens it.
  await page.getByRole('tab', { name: 'Регистрация' }).click();
  await page.getByRole('button', { name: 'Зарегистрироваться' }).waitFor();
  await page.waitForLoadState('networkidle');

  const files = await scripts();
  const rows = [...files].map(([url, body]) => ({
    file: new URL(url).pathname,
    raw: body.byteLength,
    gzip: gzipSync(body).byteLength,
  }));
  rows.sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, row) => sum + row.gzip, 0);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  process.stdout.write(
    `JavaScript loaded for /auth (gzip):\n${rows
      .map(
        (row) =>
          `  ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} ${kb(row.gzip).padStart(10)}`,
      )
      .join('\n')}\n  total ${kb(total)} of ${kb(AUTH_JS_BUDGET_BYTES)}\n`,
  );

  expect(rows.length, 'no JavaScript seen: the page did not load').toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(AUTH_JS_BUDGET_BYTES);
});
