import { STAFF_API } from '@portal/contracts/staff';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { setupBrowser } from '../test/support/e2e/browser';
import { openSignedInPage, setupPortalWithAccount } from '../test/support/e2e/fixtures';
import { totalBytes, type WireFile, watchWireBytes } from '../test/support/e2e/wire-bytes';

// Bytes on the wire of a first visit (empty cache): compressed bodies and headers, as Chromium
// counted them. With React DOM the largest library of every page, /auth stays within its budget by
// loading later what its first paint does not need: zod and the schemas, the Регистрация tab,
// passkeys, the code screen (docs/decisions/0034-react-in-the-build.md).
const KB = 1024;
const AUTH_SCRIPTS_BUDGET = 110 * KB;
const AUTH_ALL_BUDGET = 125 * KB;
/**
 * The goal of docs/benchmarks.md. Every signed-in page pays about 21 KB for the data layer it reads
 * through (RTK Query with its own copies of Redux Toolkit's core,
 * docs/decisions/0041-server-data-through-rtk-query.md); it stays within the goal because its
 * dialogs — their forms and react-hook-form with them, Radix Dialog, the code boxes — load when
 * first opened (`lazyModal`, shared/ui/modal.tsx), not with the page that shows their openers.
 */
const SIGNED_IN_SCRIPTS_BUDGET = 170 * KB;

const world = setupPortalWithAccount();
const browser = setupBrowser();

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** Opens the page, waits until it shows and the network is idle, and prints what came. */
async function visit(page: Page, path: string, afterShown?: () => Promise<void>) {
  const wireFiles = await watchWireBytes(page);
  await page.goto(`${world().portal.baseUrl}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await afterShown?.();
  await page.waitForLoadState('networkidle');
  const files = wireFiles();
  const rows = [...files].sort((a, b) => b.bytes - a.bytes);
  process.stdout.write(
    `First visit of ${path}, bytes on the wire:\n${rows
      .map(
        (file) =>
          `  ${new URL(file.url).pathname.padEnd(48)} ${file.type.padEnd(10)} ${file.encoding.padEnd(8)} ${kb(file.bytes).padStart(9)}`,
      )
      .join('\n')}\n  scripts ${kb(totalBytes(files, 'Script'))}, all ${kb(totalBytes(files))}\n`,
  );
  return files;
}

/**
 * Nothing of the support desk (features/staff, loaded only by /staff) comes with a customer's
 * first visit: no file of its chunks, and no script that holds its calls' address.
 */
async function expectNoStaffCode(page: Page, files: WireFile[]) {
  const scripts = files.filter((file) => file.type === 'Script');
  expect(
    scripts.map((file) => new URL(file.url).pathname).filter((name) => /staff/.test(name)),
  ).toEqual([]);
  for (const script of scripts) {
    const text = await (await page.request.get(script.url)).text();
    expect(text.includes(STAFF_API), script.url).toBe(false);
  }
}

/** The build compressed every script worth it, and the server sent the brotli copy. */
function expectScriptsCompressed(files: WireFile[]) {
  const scripts = files.filter((file) => file.type === 'Script');
  expect(scripts.length, 'no JavaScript seen: the page did not load').toBeGreaterThan(0);
  for (const script of scripts.filter((file) => file.bytes > KB)) {
    expect(script.encoding, script.url).toBe('br');
  }
}

it('/auth downloads at most 110 KB of scripts and 125 KB in all on its first visit', async () => {
  const page = await browser.newPage();
  const files = await visit(page, '/auth');
  expectScriptsCompressed(files);
  expect(totalBytes(files, 'Script')).toBeLessThanOrEqual(AUTH_SCRIPTS_BUDGET);
  expect(totalBytes(files)).toBeLessThanOrEqual(AUTH_ALL_BUDGET);
  // What the first paint does not need waits for the visitor: no schema, no registration form.
  const names = files.map((file) => new URL(file.url).pathname);
  expect(names.filter((name) => /\/(register-form|zod|common)-/.test(name))).toEqual([]);
  // Each file once: a preload the page does not use (another credentials mode) comes again.
  expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  await expectNoStaffCode(page, files);
});

it('a signed-in page downloads at most 170 KB of scripts on its first visit', async () => {
  for (const path of ['/', '/profile', '/wallet/history']) {
    const page = await openSignedInPage(browser, world().account.token);
    const files = await visit(page, path);
    expectScriptsCompressed(files);
    expect(totalBytes(files, 'Script'), path).toBeLessThanOrEqual(SIGNED_IN_SCRIPTS_BUDGET);
    await expectNoStaffCode(page, files);
    await page.close();
  }
});
