// What a browser downloads on a first visit: the built portal in Debian's Chromium, an empty cache
// per page, bytes counted as they came over the wire (compressed, headers included). Part of
// `npm run bench`; alone: `npm run bench:web` (builds the web app first).
import { pathToFileURL } from 'node:url';
import { ACCESS_TOKEN_STORAGE_KEY } from '@portal/contracts/constants';
import { chromium, type Page } from 'playwright-core';
// The browser tests' counter: one way to count, so the bench and the budget test agree.
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../web/test/support/e2e/chromium.js';
import { totalBytes, watchWireBytes } from '../../web/test/support/e2e/wire-bytes.js';
import { slowPhoneTable } from './slow-phone.js';
import { startWebPortal } from './web-portal.js';

const KB = 1024;

export interface WebBytesRow {
  scenario: string;
  /** What was measured, as printed: scripts and all bytes on the wire. */
  measured: string;
  goal: string;
  met: boolean;
}

interface Visit {
  scenario: string;
  path: string;
  signedIn: boolean;
  /** Absent: a row that only informs (what a visitor's next step adds). */
  scriptsGoal?: number;
  allGoal?: number;
  /** What the visitor does after the page shows, whose downloads count too. */
  afterShown?: (page: Page) => Promise<void>;
}

// The first visit is what the page loads to show itself; what the visitor's next step loads (the
// other tab, the schemas at the first check) comes after it, in the informing row.
const VISITS: Visit[] = [
  { scenario: '/auth', path: '/auth', signedIn: false, scriptsGoal: 110 * KB, allGoal: 125 * KB },
  {
    scenario: '/auth, then the Регистрация tab',
    path: '/auth',
    signedIn: false,
    afterShown: async (page) => {
      await page.getByRole('tab', { name: 'Регистрация' }).click();
      await page.getByRole('button', { name: 'Зарегистрироваться' }).waitFor();
    },
  },
  { scenario: 'home (signed in)', path: '/', signedIn: true, scriptsGoal: 170 * KB },
  { scenario: '/profile (signed in)', path: '/profile', signedIn: true, scriptsGoal: 170 * KB },
  {
    scenario: '/wallet/history (signed in)',
    path: '/wallet/history',
    signedIn: true,
    scriptsGoal: 170 * KB,
  },
];

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** Opens each page once in a fresh browser context and returns its row against the goals. */
export async function webBytesRows(): Promise<WebBytesRow[]> {
  const portal = await startWebPortal();
  const { base, token } = portal;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const rows: WebBytesRow[] = [];
  try {
    for (const visit of VISITS) {
      const context = await browser.newContext({ locale: 'ru-RU' });
      if (visit.signedIn) {
        // The session the web app finds on start, as after a sign-in.
        await context.addInitScript({
          content: `localStorage.setItem(${JSON.stringify(ACCESS_TOKEN_STORAGE_KEY)}, ${JSON.stringify(token)})`,
        });
      }
      const page = await context.newPage();
      const wireFiles = await watchWireBytes(page);
      await page.goto(`${base}${visit.path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await visit.afterShown?.(page);
      await page.waitForLoadState('networkidle');
      // A signed-in page whose session was refused ends on /auth: that visit is not the page's.
      const shownPath = new URL(page.url()).pathname;
      if (shownPath !== visit.path) throw new Error(`${visit.path} ended on ${shownPath}`);
      const files = wireFiles();
      await context.close();
      const totals = {
        scripts: totalBytes(files, 'Script'),
        all: totalBytes(files),
        largestApiAnswer: Math.max(
          0,
          ...files
            .filter((file) => file.type === 'XHR' || file.type === 'Fetch')
            .map((file) => file.bytes),
        ),
        // The support desk's chunks load only with /staff: a customer's first visit takes none.
        staff: totalBytes(files.filter((file) => /\/staff-/.test(new URL(file.url).pathname))),
      };
      const met =
        (visit.scriptsGoal === undefined || totals.scripts <= visit.scriptsGoal) &&
        (visit.allGoal === undefined || totals.all <= visit.allGoal) &&
        totals.staff === 0;
      rows.push({
        scenario: `first visit: ${visit.scenario}`,
        measured: `scripts ${kb(totals.scripts)}, all ${kb(totals.all)}, largest API answer ${kb(totals.largestApiAnswer)}, staff area ${kb(totals.staff)}`,
        goal:
          visit.scriptsGoal === undefined
            ? '—'
            : `scripts ≤ ${kb(visit.scriptsGoal)}${visit.allGoal ? `, all ≤ ${kb(visit.allGoal)}` : ''}, staff area 0`,
        met,
      });
    }
  } finally {
    await browser.close();
    await portal.stop();
  }
  return rows;
}

export function webBytesTable(rows: WebBytesRow[]): string {
  return [
    '\nБраузер: первое посещение, байты по сети (сжатые, с заголовками)\n',
    '| scenario | measured | goal | met |',
    '|---|---|---|---|',
    ...rows.map(
      (row) => `| ${row.scenario} | ${row.measured} | ${row.goal} | ${row.met ? 'да' : 'нет'} |`,
    ),
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.info(webBytesTable(await webBytesRows()));
  console.info(await slowPhoneTable());
}
