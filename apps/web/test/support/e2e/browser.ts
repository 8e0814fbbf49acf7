import {
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
  type Request,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };
export const MOBILE_VIEWPORT = { width: 375, height: 740 };

export type NewPageOptions = {
  viewport?: { width: number; height: number };
  /** The system theme the page sees; 'no-preference' is a system that says nothing. */
  colorScheme?: 'light' | 'dark' | 'no-preference';
  /**
   * The portal theme the person picked before (stored as the app stores it): by default the
   * `colorScheme` asked for, so a page asked in light is light; 'none' for a visitor who never
   * picked one (the portal is then dark, whatever the system prefers).
   */
  theme?: 'light' | 'dark' | 'none';
  /** localStorage entries present before the app's first script runs. */
  localStorage?: Record<string, string>;
  /** A touch screen, as a phone has: `page.touchscreen` taps like a finger. */
  hasTouch?: boolean;
};

type ConsoleProblem = { url: string; text: string };

export type BrowserSession = {
  /** A page in a fresh context (own storage and cookies), watched for console errors. */
  newPage(options?: NewPageOptions): Promise<Page>;
  /** Marks console errors matching these as expected for the current test. */
  allowConsoleErrors(...patterns: (string | RegExp)[]): void;
  /**
   * Fails on any console.error or uncaught page error since the last check, except
   * those matching `allowed` (or allowed earlier in the test). Closes the test's pages.
   */
  expectNoConsoleErrors(allowed?: (string | RegExp)[]): Promise<void>;
  /** What a failed test's pages show and asked: their address, text and last requests. */
  describePages(): Promise<string>;
  close(): Promise<void>;
};

/** How many of a page's last requests a failed test prints. */
const REQUESTS_KEPT = 15;

async function launchBrowser(): Promise<BrowserSession> {
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  let contexts: BrowserContext[] = [];
  let pages: { page: Page; requests: string[]; pending: Set<Request> }[] = [];
  let problems: ConsoleProblem[] = [];
  let allowedInTest: (string | RegExp)[] = [];

  const matches = (text: string, pattern: string | RegExp) =>
    typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);

  return {
    async newPage(options = {}) {
      const context = await browser.newContext({
        viewport: options.viewport ?? DESKTOP_VIEWPORT,
        colorScheme: options.colorScheme ?? 'dark',
        hasTouch: options.hasTouch ?? false,
        locale: 'ru-RU',
        // No transitions: a test reads a dialog's size or opacity at its end state, not mid-way.
        reducedMotion: 'reduce',
      });
      contexts.push(context);
      const theme = options.theme ?? options.colorScheme ?? 'dark';
      const seeded = {
        ...(theme === 'light' || theme === 'dark' ? { theme } : {}),
        ...options.localStorage,
      };
      if (Object.keys(seeded).length > 0) {
        await context.addInitScript((entries) => {
          try {
            // Only on the first load of each tab: a reload must see what the app stored since.
            if (sessionStorage.getItem('__e2e_seeded')) return;
            sessionStorage.setItem('__e2e_seeded', '1');
            for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
          } catch {
            // about:blank has no storage.
          }
        }, seeded);
      }
      const page = await context.newPage();
      const requests: string[] = [];
      const pending = new Set<Request>();
      pages.push({ page, requests, pending });
      const started = Date.now();
      const keep = (line: string) => {
        requests.push(`+${Date.now() - started} ms ${line}`);
        if (requests.length > REQUESTS_KEPT) requests.shift();
      };
      page.on('request', (request) => pending.add(request));
      page.on('requestfinished', (request) => {
        pending.delete(request);
        // The page may be closed before its answer is read: the line is then left out.
        request.response().then(
          (response) => keep(`${request.method()} ${request.url()} → ${response?.status() ?? '?'}`),
          () => {},
        );
      });
      page.on('requestfailed', (request) => {
        pending.delete(request);
        keep(`${request.method()} ${request.url()} ✗ ${request.failure()?.errorText ?? ''}`);
      });
      page.on('console', (message) => {
        if (message.type() === 'error') {
          const location = message.location();
          const where = location.url ? ` (${location.url})` : '';
          problems.push({ url: page.url(), text: `${message.text()}${where}` });
        }
      });
      page.on('pageerror', (error) => {
        problems.push({ url: page.url(), text: `Uncaught: ${error.stack ?? error.message}` });
      });
      return page;
    },

    allowConsoleErrors(...patterns) {
      allowedInTest.push(...patterns);
    },

    async expectNoConsoleErrors(allowed = []) {
      const patterns = [...allowedInTest, ...allowed];
      const unexpected = problems
        .filter((problem) => !patterns.some((pattern) => matches(problem.text, pattern)))
        .map((problem) => `${problem.text} — on ${problem.url}`);
      problems = [];
      allowedInTest = [];
      pages = [];
      const closing = contexts;
      contexts = [];
      await Promise.all(closing.map((context) => context.close()));
      expect(unexpected, 'unexpected console errors in the browser').toEqual([]);
    },

    async describePages() {
      const described = await Promise.all(
        pages.map(async ({ page, requests, pending }) => {
          const text = await page
            .evaluate(() => document.body?.innerText ?? '')
            .catch((error: unknown) => `(не прочитан: ${String(error)})`);
          const shown = text.replace(/\s+/g, ' ').slice(0, 600);
          return [
            `page ${page.url()}`,
            `  text: ${shown}`,
            ...requests.map((line) => `  ${line}`),
            ...[...pending].map((request) => `  unanswered: ${request.method()} ${request.url()}`),
          ];
        }),
      );
      return described.flat().join('\n');
    },

    async close() {
      await browser.close();
    },
  };
}

/**
 * One browser for the whole test file; after every test its pages are closed and the test fails
 * on an unexpected console error.
 */
export function setupBrowser(): BrowserSession {
  let session: BrowserSession | undefined;
  const current = () => {
    if (!session) throw new Error('setupBrowser(): the browser is not launched yet');
    return session;
  };
  beforeAll(async () => {
    session = await launchBrowser();
  });
  afterEach(async (context) => {
    // A failed test says what its pages showed: a flaky failure seen once in CI can be read.
    if (context.task.result?.state === 'fail' && session) {
      console.error(
        `${context.task.name}: the pages at the failure\n${await session.describePages()}`,
      );
    }
    await session?.expectNoConsoleErrors();
  });
  afterAll(async () => {
    await session?.close();
  });
  return {
    newPage: (options) => current().newPage(options),
    allowConsoleErrors: (...patterns) => current().allowConsoleErrors(...patterns),
    expectNoConsoleErrors: (allowed) => current().expectNoConsoleErrors(allowed),
    describePages: () => current().describePages(),
    close: () => current().close(),
  };
}
