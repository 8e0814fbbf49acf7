// How soon the built portal is usable on a slow phone: Debian's Chromium with its CPU slowed four
// times and a slow mobile network, an empty cache. Part of `npm run bench:web`, beside the same
// figures of the previous build (bench/web-baseline.json, or a build measured live from
// BENCH_BASELINE_DIST=<a built apps/web/dist>).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../web/test/support/e2e/chromium.js';
import { BENCH_ACCOUNT, startWebPortal } from './web-portal.js';

/** A slow phone: CPU and network as Chromium's DevTools emulate them. */
const SLOW_PHONE = {
  cpuSlowdown: 4,
  latencyMs: 150,
  /** 1.6 Mbit/s down, 750 kbit/s up, in bytes per second. */
  downloadBytesPerSecond: 200_000,
  uploadBytesPerSecond: 93_750,
};

const RUNS = Number(process.env.BENCH_SLOW_PHONE_RUNS ?? 3);
const AUTH_GOAL_MS = 2500;
const HOME_GOAL_MS = 3500;

/** What one build measured: medians over RUNS, in milliseconds. */
export interface SlowPhoneFigures {
  authUsableMs: number;
  homeAfterSignInMs: number;
  /** How long this machine took for the fixed work of `machineWorkMs` at full speed (median). */
  machineWorkMs: number;
}

/** What one visit measures. */
type VisitFigures = Omit<SlowPhoneFigures, 'machineWorkMs'>;

interface Baseline extends VisitFigures {
  /** Absent from a record made before the bench timed the machine. */
  machineWorkMs?: number;
  /** Where the figures come from, as printed: the build's commit and date, or its folder. */
  source: string;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * One visit with an empty cache: from the navigation to /auth until its login field holds what was
 * typed and «Войти» answers (the empty password's message shows); then from «Войти» with the
 * right password until home shows its content and its top-up button can be pressed.
 */
async function measureOnce(browser: Browser, base: string): Promise<VisitFigures> {
  const context = await browser.newContext({ locale: 'ru-RU' });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: SLOW_PHONE.latencyMs,
      downloadThroughput: SLOW_PHONE.downloadBytesPerSecond,
      uploadThroughput: SLOW_PHONE.uploadBytesPerSecond,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpuSlowdown });

    const navigated = performance.now();
    await page.goto(`${base}/auth`, { waitUntil: 'commit' });
    const login = page.getByLabel('Логин или почта');
    await login.pressSequentially(BENCH_ACCOUNT.userName);
    const typed = await login.inputValue();
    if (typed !== BENCH_ACCOUNT.userName) throw new Error(`the login field holds «${typed}»`);
    const signIn = page.getByRole('button', { name: 'Войти', exact: true });
    await signIn.click();
    await page.getByText('Введите пароль').waitFor();
    const authUsableMs = performance.now() - navigated;

    await page.getByLabel('Пароль', { exact: true }).fill(BENCH_ACCOUNT.password);
    const pressed = performance.now();
    await signIn.click();
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    await page.getByText(`@${BENCH_ACCOUNT.userName}`).waitFor();
    await page.getByRole('button', { name: 'Пополнить' }).and(page.locator(':enabled')).waitFor();
    return { authUsableMs, homeAfterSignInMs: performance.now() - pressed };
  } finally {
    await context.close();
  }
}

/**
 * A fixed piece of JavaScript timed in a page without the slowdown. The 4× slowdown is of this
 * machine's own speed, which differs from day to day (the same build has measured 1.7 s one day
 * and 2.6 s another): figures of two days compare only beside this one.
 */
async function machineWorkMs(browser: Browser): Promise<number> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(() => {
      const started = performance.now();
      let text = '';
      for (let index = 0; index < 300_000; index++) text = (text + index.toString(36)).slice(-64);
      const items = Array.from({ length: 100_000 }, (_, index) => ({
        key: `k${(index * 7919) % 100_003}`,
      }));
      items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const elapsed = performance.now() - started;
      // Read once, so no part of the work can be left out as unused.
      if (text.length !== 64 || !items[0]) throw new Error('the fixed work went wrong');
      return elapsed;
    });
  } finally {
    await page.close();
  }
}

/** RUNS visits of the portal serving `webDistDir` (each with a fresh context); the medians. */
export async function measureSlowPhone(webDistDir?: string): Promise<SlowPhoneFigures> {
  const portal = await startWebPortal(webDistDir);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const runs: VisitFigures[] = [];
    const work: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      work.push(await machineWorkMs(browser));
      runs.push(await measureOnce(browser, portal.base));
    }
    return {
      authUsableMs: median(runs.map((figures) => figures.authUsableMs)),
      homeAfterSignInMs: median(runs.map((figures) => figures.homeAfterSignInMs)),
      machineWorkMs: median(work),
    };
  } finally {
    await browser.close();
    await portal.stop();
  }
}

/** The previous build's figures: measured now from BENCH_BASELINE_DIST, else the recorded ones. */
async function baseline(): Promise<Baseline> {
  const dist = process.env.BENCH_BASELINE_DIST;
  if (dist) {
    // `npm run bench:web` runs from apps/server; a relative folder means where npm was started.
    const dir = path.resolve(process.env.INIT_CWD ?? process.cwd(), dist);
    return { ...(await measureSlowPhone(dir)), source: `${dir}, measured now` };
  }
  const recorded = JSON.parse(
    readFileSync(new URL('./web-baseline.json', import.meta.url), 'utf8'),
  ) as { commit: string; date: string; build: string } & SlowPhoneFigures;
  return {
    authUsableMs: recorded.authUsableMs,
    homeAfterSignInMs: recorded.homeAfterSignInMs,
    machineWorkMs: recorded.machineWorkMs,
    source: `${recorded.build}, ${recorded.commit.slice(0, 8)}, ${recorded.date}`,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Measures this build and the previous one and returns the printed table. */
export async function slowPhoneTable(): Promise<string> {
  const current = await measureSlowPhone();
  const previous = await baseline();
  const rows = [
    {
      scenario: '/auth usable (typing in the login field, «Войти» answers)',
      now: current.authUsableMs,
      before: previous.authUsableMs,
      goal: AUTH_GOAL_MS,
    },
    {
      scenario: 'home after «Войти» (content shown, «Пополнить» enabled)',
      now: current.homeAfterSignInMs,
      before: previous.homeAfterSignInMs,
      goal: HOME_GOAL_MS,
    },
  ];
  return [
    `\nМедленный телефон: CPU ×${SLOW_PHONE.cpuSlowdown}, ${SLOW_PHONE.latencyMs} мс, 1.6/0.75 Мбит/с, пустой кэш; медиана ${RUNS} прогонов\n`,
    `| scenario | now | previous build (${previous.source}) | goal | met |`,
    '|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${seconds(row.now)} | ${seconds(row.before)} | ≤ ${seconds(row.goal)} | ${row.now <= row.goal ? 'да' : 'нет'} |`,
    ),
    `| this machine: a fixed piece of JavaScript at full speed (the slowdown is of it) | ${Math.round(current.machineWorkMs)} ms | ${previous.machineWorkMs ? `${Math.round(previous.machineWorkMs)} ms` : 'not recorded'} | — | — |`,
  ].join('\n');
}
