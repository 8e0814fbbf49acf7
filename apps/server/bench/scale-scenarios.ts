// Costs as data grows: the same reads on a database holding only the bench's accounts and on one of
// 100,000 accounts, 1,000,000 ledger entries and 200,000 sessions (large-database.ts); 5,000
// distinct sessions each reading once; the history's first and last page of a 50,000-entry
// account; resident memory; the restart of the built portal to /ready. Each portal runs twice: with
// its caches (what customers get), then with ACCOUNT_CACHE_ACCOUNTS=0 (every read asks the
// database, which is what grows); both are started by the harness's `startPortal`, as every other
// scenario's portal is, so they run as `npm start` runs it. On the large database, before its portal
// starts, support's account search (accounts/account-search.ts) is timed in this process.
import autocannon from 'autocannon';
import type { Database } from '../src/db/database.js';
import { AccountSearch } from '../src/modules/accounts/index.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { paymentOwnerIds } from '../src/modules/payments/operator-reads.js';
import { openBenchDatabase, type Portal, type Row, startPortal } from './harness.js';
import {
  accountId,
  accountPhone,
  type DatabaseSize,
  LARGE,
  LAST_NAMES,
  SHORT_HISTORY,
  seedDatabase,
  sessionToken,
  small,
} from './large-database.js';

const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 5);
const CONNECTIONS = 20;
const DISTINCT_SESSIONS = 5_000;
const PAGE = 20;

/** The table shows a row's note in place of its verdict: a figure in the note carries both. */
const verdict = (figure: string, met: boolean) => `${figure}: ${met ? 'да' : 'нет'}`;

interface Read {
  name: string;
  method: 'GET' | 'POST';
  path: string;
}

const READS: Read[] = [
  { name: 'Auth/user', method: 'POST', path: '/authms/api/Auth/user' },
  { name: 'Auth/devices', method: 'POST', path: '/authms/api/Auth/devices' },
  { name: 'owner/services', method: 'GET', path: '/serversms/api/Servers/owner/services' },
  { name: 'history page', method: 'GET', path: '/payments/payments/user' },
];
const HISTORY = READS[3]!.path;

interface Measured {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

async function load(url: string, method: 'GET' | 'POST', token: string): Promise<Measured> {
  const options = {
    url,
    method,
    headers: { authorization: `Bearer ${token}` },
    connections: CONNECTIONS,
  };
  await autocannon({ ...options, duration: 1 }); // JIT and the caches warm up, unmeasured
  const result = await autocannon({ ...options, duration: SECONDS });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

/** Every session of `tokens` reads its user once; the rate is requests over the whole run's time. */
async function distinctSessions(base: string, tokens: string[]): Promise<Measured> {
  let next = 0;
  const started = performance.now();
  const result = await autocannon({
    url: `${base}/authms/api/Auth/user`,
    method: 'POST',
    connections: CONNECTIONS,
    amount: tokens.length,
    requests: [
      {
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          headers: { ...request.headers, authorization: `Bearer ${tokens[next++]}` },
        }),
      },
    ],
  });
  return {
    requestsPerSecond: tokens.length / ((performance.now() - started) / 1000),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

/** Resident memory as the portal's own metrics report it (this machine may read /metrics). */
async function residentMegabytes(portal: Portal) {
  const text = await (await fetch(`${portal.base}/metrics`)).text();
  const bytes = /^process_resident_memory_bytes (\S+)$/m.exec(text)?.[1];
  return Number(bytes) / 1024 / 1024;
}

/** The cursor of the history's last page of account 2 (its long history), as the API makes it. */
async function lastPageCursor(open: () => Promise<Database>) {
  const database = await open();
  try {
    const rows = await database.withMigrationLock((session) =>
      session.query<{ key: string; id: string }>(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS key,
                id::text AS id
         FROM ledger_entries WHERE user_id = $1
         ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
        [accountId(2), LARGE.longHistory - PAGE - 1],
      ),
    );
    return Buffer.from(JSON.stringify([rows[0]!.key, rows[0]!.id])).toString('base64url');
  } finally {
    await database.close();
  }
}

/** Searches timed per kind of query, each for a different account (after a few unmeasured). */
const SEARCHES = 300;
const SEARCH_WARM_UP = 30;
/** The staff page's one more than a page (STAFF_PAGE_SIZE + 1), as the tool's `find` asks too. */
const SEARCH_PAGE = { limit: 51, offset: 0 };
const SEARCH_GOAL_MS = 50;

/** What support types, per kind; `n` is an account of the large database. */
const SEARCH_QUERIES: { kind: string; query: (n: number) => string }[] = [
  { kind: 'exact e-mail', query: (n) => `SCALE_${n}@example.com` },
  { kind: 'exact phone, typed 8 …', query: (n) => `8${accountPhone(n).slice(2)}` },
  // The number and the domain: a part every address but a few hundred lacks.
  { kind: 'partial e-mail', query: (n) => `${n}@exam` },
  // A surname's stem: 2% of the accounts hold it (large-database.ts), newest first.
  { kind: 'partial name', query: (n) => LAST_NAMES[n % LAST_NAMES.length]!.slice(0, 5) },
  {
    kind: 'partial name and first name',
    query: (n) => `${LAST_NAMES[n % LAST_NAMES.length]!.slice(0, 5)} анна`,
  },
  // The worst part: every account holds it.
  { kind: 'partial e-mail held by all', query: () => 'example.com' },
];

interface SearchTiming {
  kind: string;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  /** Whether every search found at least one account (a wrong query would be fast and useless). */
  allFound: boolean;
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;

/** Each kind of query SEARCHES times, for accounts spread over the database, one after another. */
async function timeSearches(database: Database, accounts: number): Promise<SearchTiming[]> {
  // What the payments plugin hands over in the portal: a payment's id finds its payer.
  const search = new AccountSearch();
  search.addReference({ matchedBy: 'payment', ownersOf: paymentOwnerIds });
  const timings: SearchTiming[] = [];
  for (const { kind, query } of SEARCH_QUERIES) {
    const millis: number[] = [];
    let allFound = true;
    for (let index = 0; index < SEARCH_WARM_UP + SEARCHES; index++) {
      const n = 1 + Math.floor(Math.random() * accounts);
      const started = performance.now();
      const hits = await search.search(database.db, query(n), SEARCH_PAGE);
      if (index >= SEARCH_WARM_UP) millis.push(performance.now() - started);
      if (hits.length === 0) allFound = false;
    }
    millis.sort((a, b) => a - b);
    timings.push({
      kind,
      p50Ms: percentile(millis, 0.5),
      p95Ms: percentile(millis, 0.95),
      p99Ms: percentile(millis, 0.99),
      allFound,
    });
  }
  return timings;
}

interface SizeRun {
  seedSeconds: number;
  cached: Map<string, Measured>;
  uncached: Map<string, Measured>;
  distinct: Measured;
  residentMb: number;
  firstStartMs: number;
  restartMs: number;
  /** Support's account search, timed on the large database only. */
  search: SearchTiming[];
}

async function runSize(size: DatabaseSize, passwordHash: string): Promise<SizeRun> {
  const bench = await openBenchDatabase();
  try {
    const database = await bench.open();
    const seedSeconds = await seedDatabase(database, size, passwordHash);
    const search = size === LARGE ? await timeSearches(database, size.accounts) : [];
    await database.close();
    const cursor = size.longHistory > 0 ? await lastPageCursor(bench.open) : undefined;
    const reader = sessionToken(1);

    const portal = await startPortal(bench.env);
    const cached = new Map<string, Measured>();
    let distinct: Measured;
    let residentMb: number;
    try {
      // Sessions 2… are nobody's yet in this process: each check and each user read asks the
      // database. A short run of the reader's own first warms the JIT.
      await autocannon({
        url: `${portal.base}/authms/api/Auth/user`,
        method: 'POST',
        headers: { authorization: `Bearer ${reader}` },
        connections: CONNECTIONS,
        duration: 1,
      });
      distinct = await distinctSessions(
        portal.base,
        Array.from({ length: DISTINCT_SESSIONS }, (_, index) => sessionToken(index + 2)),
      );
      residentMb = await residentMegabytes(portal);
      for (const read of READS) {
        cached.set(read.name, await load(`${portal.base}${read.path}`, read.method, reader));
      }
    } finally {
      await portal.stop();
    }

    const restarted = await startPortal({ ...bench.env, ACCOUNT_CACHE_ACCOUNTS: '0' });
    const uncached = new Map<string, Measured>();
    try {
      for (const read of READS) {
        uncached.set(read.name, await load(`${restarted.base}${read.path}`, read.method, reader));
      }
      if (cursor) {
        const longReader = sessionToken(2);
        uncached.set(
          'history first page, 50,000 entries',
          await load(`${restarted.base}${HISTORY}`, 'GET', longReader),
        );
        uncached.set(
          'history last page, 50,000 entries',
          await load(`${restarted.base}${HISTORY}?cursor=${cursor}`, 'GET', longReader),
        );
      }
    } finally {
      await restarted.stop();
    }
    return {
      seedSeconds,
      cached,
      uncached,
      distinct,
      residentMb,
      firstStartMs: portal.readyMs,
      restartMs: restarted.readyMs,
      search,
    };
  } finally {
    await bench.drop();
  }
}

/** The scale scenarios' rows; `bareRequestsPerSecond` is the bare route's rate in this run. */
export async function scaleScenarios(bareRequestsPerSecond: number): Promise<Row[]> {
  const passwordHash = await hashPassword('Bench-Pass1');
  // Accounts 2… hold the distinct sessions; account 1 is the reader.
  const empty = await runSize(small(DISTINCT_SESSIONS + 1), passwordHash);
  const large = await runSize(LARGE, passwordHash);
  const rows: Row[] = [];

  for (const [label, run] of [
    ['bench accounts only', empty],
    ['large database', large],
  ] as const) {
    const ratio = run.distinct.requestsPerSecond / bareRequestsPerSecond;
    rows.push({
      scenario: `${DISTINCT_SESSIONS} distinct sessions, Auth/user once each (${label})`,
      requestsPerSecond: run.distinct.requestsPerSecond,
      p99Ms: run.distinct.p99Ms,
      note: `ratio ${ratio.toFixed(2)}`,
      goal: '≥ 0.3 of bare',
      met: ratio >= 0.3 && run.distinct.non2xx === 0,
    });
    rows.push({
      scenario: `resident memory after them (${label})`,
      requestsPerSecond: 0,
      p99Ms: 0,
      goal: '≤ 300 MB',
      note: verdict(`${Math.round(run.residentMb)} MB`, run.residentMb <= 300),
    });
  }

  const compare = (
    scenario: string,
    measured: Measured | undefined,
    base: Measured | undefined,
  ) => {
    const ratio = measured && base ? measured.requestsPerSecond / base.requestsPerSecond : 0;
    rows.push({
      scenario,
      requestsPerSecond: measured?.requestsPerSecond ?? 0,
      p99Ms: measured?.p99Ms ?? 0,
      note: `ratio ${ratio.toFixed(2)}`,
      goal: '≥ 0.85 of the small one',
      met: ratio >= 0.85 && measured?.non2xx === 0,
    });
  };
  for (const read of READS) {
    compare(
      `${read.name}, large database vs bench accounts only (cached)`,
      large.cached.get(read.name),
      empty.cached.get(read.name),
    );
  }
  for (const read of READS) {
    compare(
      `${read.name}, large database vs bench accounts only (from the database)`,
      large.uncached.get(read.name),
      empty.uncached.get(read.name),
    );
  }
  for (const page of ['first', 'last']) {
    compare(
      `history ${page} page, 50,000 entries vs ${SHORT_HISTORY} (from the database)`,
      large.uncached.get(`history ${page} page, 50,000 entries`),
      large.uncached.get('history page'),
    );
  }
  for (const timing of large.search) {
    rows.push({
      scenario: `staff account search, ${timing.kind}, ${LARGE.accounts.toLocaleString('en')} accounts (in process, one at a time)`,
      requestsPerSecond: 0,
      p99Ms: Math.round(timing.p99Ms),
      goal: `p95 < ${SEARCH_GOAL_MS} ms`,
      note: verdict(
        `p50 ${timing.p50Ms.toFixed(1)} ms, p95 ${timing.p95Ms.toFixed(1)} ms${timing.allFound ? '' : ', some found nothing'}`,
        timing.p95Ms < SEARCH_GOAL_MS && timing.allFound,
      ),
    });
  }
  for (const [label, run] of [
    ['bench accounts only', empty],
    ['large database', large],
  ] as const) {
    rows.push({
      scenario: `restart of the built portal to /ready (${label})`,
      requestsPerSecond: 0,
      p99Ms: 0,
      goal: '< 2 s',
      note: verdict(
        `${(run.restartMs / 1000).toFixed(2)} s (first start ${(run.firstStartMs / 1000).toFixed(2)} s, seeding took ${run.seedSeconds.toFixed(0)} s)`,
        run.restartMs < 2000,
      ),
    });
  }
  return rows;
}
