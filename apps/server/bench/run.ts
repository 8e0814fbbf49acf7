// `npm run bench`: starts the built portal as `npm start` would (embedded database, or
// PostgreSQL with DATABASE_URL), loads it with autocannon from this process, and prints each
// scenario's requests/s and the server's CPU per request against a bare Fastify route answering
// the same bytes. A scenario is a function in SCENARIOS below; bench/harness.ts has the parts.

import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { systemClock } from '../src/adapters/clock.js';
import { signTbankRequest } from '../src/adapters/tbank/token.js';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { users } from '../src/modules/accounts/schema.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { SessionStore } from '../src/modules/auth/sessions.js';
import { SANDBOX_TERMINAL_KEY, sandboxPassword } from '../src/modules/payment-sandbox/terminal.js';
import { payments } from '../src/modules/payments/schema.js';
import { NOTIFICATION_PATH } from '../src/modules/payments/top-up.js';
import {
  CONNECTIONS,
  DURATION_S,
  measure,
  openBenchDatabase,
  type Portal,
  printTable,
  type Row,
  SECRET_KEY,
  startBareTwin,
  startPortal,
  WARM_UP_S,
} from './harness.js';
import { OIDC_BENCH_ENV, oidcSignInRows } from './oidc-sign-in.js';
import { scaleScenarios } from './scale-scenarios.js';
import { slowPhoneTable } from './slow-phone.js';
import { webBytesRows, webBytesTable } from './web-bytes.js';

const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 3000);
const PAYERS = 50;
const TOP_UP_KOPECKS = 10_000;
const PASSWORD = 'Bench-Pass1';

/** What a scenario gets: the running portal, the seeded users, the database between runs. */
export interface BenchContext {
  /** The portal, started on first use and again after `withDatabase`. */
  portal(): Promise<Portal>;
  /** Runs `use` on the bench database with the portal stopped (PGlite has one owner at a time). */
  withDatabase<T>(use: (database: Database) => Promise<T>): Promise<T>;
  user: SeededUser;
  payers: SeededUser[];
  /** Signed CONFIRMED notifications, one per distinct pending payment, sent once each. */
  notifications: string[];
  /** The bench database's settings, for a scenario that starts a portal of its own. */
  databaseEnv: Record<string, string>;
  /** Requests/s of the first bare twin measured (`Auth/user`'s): the scale scenarios' reference. */
  bareRequestsPerSecond?: number;
}

export type Scenario = (bench: BenchContext) => Promise<Row[]>;

interface SeededUser {
  token: string;
  userName: string;
  id: string;
}

/** Users with live sessions, written before the portal starts. */
async function seedUsers(database: Database, count: number): Promise<SeededUser[]> {
  const sessions = new SessionStore({ db: database.db, clock: systemClock });
  const passwordHash = await hashPassword(PASSWORD);
  const seeded: SeededUser[] = [];
  for (let index = 0; index < count; index++) {
    const userName = `bench_${index}`;
    const [user] = await database.db
      .insert(users)
      .values({
        email: `${userName}@example.com`,
        emailKey: `${userName}@example.com`,
        userName,
        userNameKey: userName,
        passwordHash,
        firstName: 'Бенч',
        lastName: 'Тестов',
        confirmedAt: new Date(),
      })
      .returning();
    const { token } = await sessions.create({
      userId: user!.id,
      userAgent: 'bench',
      ipAddress: '127.0.0.1',
    });
    seeded.push({ token, userName, id: user!.id });
  }
  return seeded;
}

/** Pending sandbox top-ups spread over `payers`, and the signed notification of each. */
async function seedPayments(database: Database, payers: SeededUser[], count: number) {
  const rows = Array.from({ length: count }, (_, index) => ({
    userId: payers[index % payers.length]!.id,
    method: 'card' as const,
    amountKopecks: TOP_UP_KOPECKS,
    provider: 'sandbox' as const,
    status: 'NEW',
    providerPaymentId: String(100_000 + index),
  }));
  const ids: { id: string; providerPaymentId: string | null }[] = [];
  for (let start = 0; start < rows.length; start += 500) {
    ids.push(
      ...(await database.db
        .insert(payments)
        .values(rows.slice(start, start + 500))
        .returning({ id: payments.id, providerPaymentId: payments.providerPaymentId })),
    );
  }
  const password = sandboxPassword({ SECRET_KEY });
  return ids.map((payment) =>
    JSON.stringify(
      signTbankRequest(
        {
          TerminalKey: SANDBOX_TERMINAL_KEY,
          OrderId: payment.id,
          Success: true,
          Status: 'CONFIRMED',
          PaymentId: Number(payment.providerPaymentId),
          ErrorCode: '0',
          Amount: TOP_UP_KOPECKS,
          Pan: '430000******0777',
        },
        password,
      ),
    ),
  );
}

/**
 * A signed-in read against its bare twin: the same request to a bare Fastify route answering the
 * portal's answer byte for byte, run just before it, so both see the machine in the same state.
 */
function signedInRead(
  scenario: string,
  method: 'GET' | 'POST',
  path: string,
  maxRatio: number,
): Scenario {
  return async (bench) => {
    const portal = await bench.portal();
    const request = { method, path, headers: { authorization: `Bearer ${bench.user.token}` } };
    const bare = await startBareTwin(portal, request);
    const goal = `CPU ≤ ${maxRatio}× bare`;
    if (bare.answer.status !== 200) {
      await bare.stop();
      return [
        { scenario, requestsPerSecond: 0, p99Ms: 0, goal, note: `HTTP ${bare.answer.status}` },
      ];
    }
    const reference = await measure(bare.pid, { url: `${bare.base}${path}`, ...request });
    bench.bareRequestsPerSecond ??= reference.requestsPerSecond;
    await bare.stop();
    const result = await measure(
      portal.pid,
      { url: `${portal.base}${path}`, ...request },
      { logFd: portal.logFd },
    );
    const bytes = Buffer.byteLength(bare.answer.body);
    return [
      {
        scenario,
        requestsPerSecond: result.requestsPerSecond,
        p99Ms: result.p99Ms,
        cpuUsPerRequest: result.cpuUsPerRequest,
        bareCpuUsPerRequest: reference.cpuUsPerRequest,
        goal,
        met:
          result.cpuUsPerRequest <= maxRatio * reference.cpuUsPerRequest &&
          result.non2xx === 0 &&
          result.errors === 0,
        note: `${bytes} B body; bare ${Math.round(reference.requestsPerSecond)} req/s; kernel ${result.systemUsPerRequest.toFixed(1)} vs bare ${reference.systemUsPerRequest.toFixed(1)} µs; log ${Math.round(result.logBytesPerRequest ?? 0)} B/request`,
      },
    ];
  };
}

/** Reads measured while 20 other clients keep argon2 busy with sign-ins. */
const readsWhileSigningIn: Scenario = async (bench) => {
  const { base } = await bench.portal();
  const hammer = autocannon({
    url: `${base}/authms/api/Auth/login`,
    method: 'POST',
    connections: 20,
    duration: DURATION_S,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ usernameOrEmail: bench.user.userName, password: PASSWORD }),
  });
  const underLoad = await autocannon({
    url: `${base}/authms/api/Auth/user`,
    method: 'POST',
    connections: 5,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${bench.user.token}` },
  });
  const logins = await hammer;
  return [
    {
      scenario: 'p99 of user reads while 20 clients sign in (argon2)',
      requestsPerSecond: underLoad.requests.average,
      p99Ms: underLoad.latency.p99,
      goal: 'p99 < 50 ms',
      met: underLoad.latency.p99 < 50 && underLoad.non2xx === 0,
      note: `sign-ins ${Math.round(logins.requests.average)}/s`,
    },
  ];
};

/**
 * A sign-in to a site through the provider against a portal password sign-in (oidc-sign-in.ts),
 * on a portal of its own that knows the bench's site (the others run without OIDC_CLIENTS).
 * `BENCH_OIDC_BASELINE` (a bundle one level below apps/server, e.g. `.tmp/server.js`: an older
 * build copied there) measures that build too, on a fresh database of its own, taking turns with
 * this one round by round.
 */
const oidcSignIn: Scenario = async (bench) => {
  await bench.withDatabase(async () => {});
  const user = { userName: bench.user.userName, password: PASSWORD };
  const started: { stop(): Promise<void> }[] = [];
  try {
    const portal = await startPortal({ ...bench.databaseEnv, ...OIDC_BENCH_ENV });
    started.push(portal);
    const portals = [{ label: '', portal, user }];
    const baseline = process.env.BENCH_OIDC_BASELINE;
    if (baseline) {
      const database = await openBenchDatabase();
      started.push({ stop: database.drop });
      const seedDb = await database.open();
      await migrate(seedDb);
      const [seeded] = await seedUsers(seedDb, 1);
      await seedDb.close();
      const old = await startPortal({ ...database.env, ...OIDC_BENCH_ENV }, baseline);
      started.push(old);
      portals.push({
        label: `${baseline}: `,
        portal: old,
        user: { ...user, userName: seeded!.userName },
      });
    }
    return await oidcSignInRows(portals);
  } finally {
    for (const one of started.reverse()) await one.stop();
  }
};

/** Signed CONFIRMED notifications, each for a distinct payment; then the ledger is checked. */
const paymentNotifications: Scenario = async (bench) => {
  const portal = await bench.portal();
  let next = 0;
  const run = await measure(
    portal.pid,
    {
      url: `${portal.base}${NOTIFICATION_PATH}`,
      method: 'POST',
      // `amount` ends the run once every notification is sent.
      amount: bench.notifications.length,
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            body: bench.notifications[next++ % bench.notifications.length],
          }),
        },
      ],
    },
    { warmUp: false },
  );
  // Every notification must have credited its payment exactly once.
  const credit = await bench.withDatabase(async (database) => {
    const result = (await database.db.execute(sql`
      SELECT count(*)::int AS entries, count(DISTINCT reference)::int AS payments,
             coalesce(sum(amount), 0)::bigint AS total,
             (SELECT sum(balance_kopecks) FROM users WHERE user_name LIKE 'bench_%') AS balance
      FROM ledger_entries WHERE kind = 'topUp'`)) as unknown as {
      rows: { entries: number; payments: number; total: string; balance: string }[];
    };
    return result.rows[0]!;
  });
  const expected = bench.notifications.length * TOP_UP_KOPECKS;
  const exactlyOnce =
    credit.entries === bench.notifications.length &&
    credit.payments === bench.notifications.length &&
    Number(credit.total) === expected &&
    Number(credit.balance) === expected;
  const onPostgres = Boolean(process.env.DATABASE_URL);
  return [
    {
      scenario: `signed payment notifications, ${bench.notifications.length} distinct payments over ${PAYERS} customers`,
      requestsPerSecond: run.requestsPerSecond,
      p99Ms: run.p99Ms,
      cpuUsPerRequest: run.cpuUsPerRequest,
      goal: '≥ 1,000/s on PostgreSQL, each credited once',
      met: onPostgres
        ? run.requestsPerSecond >= 1000 && exactlyOnce && run.non2xx === 0
        : undefined,
      note: exactlyOnce
        ? `each credited once${onPostgres ? '' : '; the goal is for PostgreSQL'}`
        : `credited ${credit.entries} entries, balance ${credit.balance}`,
    },
  ];
};

/**
 * Run in this order; the notifications last, as they change balances. `BENCH_ONLY` (names,
 * comma-separated, e.g. `notifications`) runs only those; the web bytes are `web`.
 */
const SCENARIOS: Record<string, Scenario> = {
  user: signedInRead('authenticated `POST …/Auth/user`', 'POST', '/authms/api/Auth/user', 1.5),
  devices: signedInRead(
    'authenticated `POST …/Auth/devices`',
    'POST',
    '/authms/api/Auth/devices',
    2,
  ),
  services: signedInRead(
    'authenticated `GET owner/services`',
    'GET',
    '/serversms/api/Servers/owner/services',
    2,
  ),
  history: signedInRead('authenticated payment history page', 'GET', '/payments/payments/user', 2),
  signIns: readsWhileSigningIn,
  oidc: oidcSignIn,
  notifications: paymentNotifications,
  // Costs as data grows (scale-scenarios.ts): minutes, most of them seeding; BENCH_SCALE=0 skips.
  scale: async (bench) =>
    process.env.BENCH_SCALE === '0' ? [] : scaleScenarios(bench.bareRequestsPerSecond ?? 0),
};

/** The scenarios `BENCH_ONLY` names (all when unset); an unknown name stops the bench. */
function chosenScenarios(only = process.env.BENCH_ONLY): Set<string> {
  const known = [...Object.keys(SCENARIOS), 'web'];
  if (!only) return new Set(known);
  const names = new Set(only.split(',').map((name) => name.trim()));
  for (const name of names) {
    if (!known.includes(name)) {
      throw new Error(`BENCH_ONLY: unknown scenario ${name}; known: ${known.join(', ')}`);
    }
  }
  return names;
}

async function main() {
  const chosen = chosenScenarios();
  const database = await openBenchDatabase();
  const seedDb = await database.open();
  await migrate(seedDb);
  // Customers pay independently: the top-ups are spread over PAYERS accounts (each credit locks
  // its account's row, so one account would measure a queue, not the server).
  const [user, ...payers] = await seedUsers(seedDb, 1 + PAYERS);
  const notifications = !chosen.has('notifications')
    ? []
    : await seedPayments(seedDb, payers, NOTIFICATIONS);
  await seedDb.close();

  let running: Portal | undefined;
  const bench: BenchContext = {
    user: user!,
    payers,
    databaseEnv: database.env,
    notifications,
    portal: async () => {
      running ??= await startPortal(database.env);
      return running;
    },
    withDatabase: async (use) => {
      await running?.stop();
      running = undefined;
      const open = await database.open();
      try {
        return await use(open);
      } finally {
        await open.close();
      }
    },
  };
  const rows: Row[] = [];
  try {
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      if (chosen.has(name)) rows.push(...(await scenario(bench)));
    }
  } finally {
    await running?.stop();
    await database.drop();
  }
  printTable(
    rows,
    `Бенчмарк (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${DURATION_S} с на сценарий после ${WARM_UP_S} с разогрева, ${CONNECTIONS} соединений; CPU — время процесса сервера за прогон / ответы)`,
  );
  if (chosen.has('web')) {
    console.info(webBytesTable(await webBytesRows()));
    console.info(await slowPhoneTable());
  }
}

await main();
