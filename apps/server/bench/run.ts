// `npm run bench`: starts the real portal (embedded database, or PostgreSQL with DATABASE_URL),
// loads it with autocannon from this process, and prints each scenario against a bare Fastify
// route measured on the same machine in the same run.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { systemClock } from '../src/adapters/clock.js';
import { signTbankRequest } from '../src/adapters/tbank/token.js';
import { connectPostgres, type Database, openPglite } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { users } from '../src/modules/auth/schema.js';
import { SessionStore } from '../src/modules/auth/sessions.js';
import { SANDBOX_TERMINAL_KEY, sandboxPassword } from '../src/modules/payments/provider.js';
import { payments } from '../src/modules/payments/schema.js';
import { NOTIFICATION_PATH } from '../src/modules/payments/top-up.js';
import { withDatabaseName } from '../test/database-url.js';
import { freePort, startProcess } from './processes.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 20;
const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 3000);
const PAYERS = 50;
const TOP_UP_KOPECKS = 10_000;
// Fixed so the bench can sign sandbox notifications the way the provider would.
const SECRET_KEY = 'bench-secret-key-bench-secret-key-0123456789';

interface Row {
  scenario: string;
  requestsPerSecond: number;
  p99Ms: number;
  ratio?: number;
  goal: string;
  met?: boolean;
  note?: string;
}

async function load(options: autocannon.Options) {
  const result = await autocannon({ duration: DURATION_S, connections: CONNECTIONS, ...options });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function openBenchDatabase() {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const name = `portal_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = withDatabaseName(adminUrl, name);
    return {
      env: { DATABASE_URL: url } as Record<string, string>,
      open: async () => connectPostgres(url),
      drop: async () => {
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
  return {
    env: { DATA_DIR: dataDir } as Record<string, string>,
    open: async () => openPglite(path.join(dataDir, 'pgdata')),
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** Pending sandbox top-ups, one per notification the bench will send. */
async function seedPayments(database: Database, userIds: string[], count: number) {
  const rows = Array.from({ length: count }, (_, index) => ({
    userId: userIds[index % userIds.length]!,
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

/** Users with live sessions, written before the server starts (PGlite has one owner at a time). */
async function seed(database: Database, count: number) {
  await migrate(database);
  const sessions = new SessionStore(database.db, systemClock);
  const passwordHash = await hashPassword('Bench-Pass1');
  const seeded: { token: string; userName: string; id: string }[] = [];
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

async function main() {
  const rows: Row[] = [];
  const barePort = await freePort();
  const bare = await startProcess(
    'bench/bare-server.ts',
    { PORT: String(barePort) },
    `http://127.0.0.1:${barePort}/bare`,
  );
  const reference = await load({ url: `http://127.0.0.1:${barePort}/bare` });
  await bare.stop();
  rows.push({ scenario: 'bare Fastify route (reference)', ...reference, ratio: 1, goal: '—' });

  const bench = await openBenchDatabase();
  const database = await bench.open();
  // Customers pay independently: the top-ups are spread over PAYERS accounts (each credit locks
  // its account's row, so one account would measure a queue, not the server).
  const [user, ...payers] = await seed(database, 1 + PAYERS);
  const payerIds = payers.map((payer) => payer.id);
  const notifications = await seedPayments(database, payerIds, NOTIFICATIONS);
  await database.close();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const portal = await startProcess(
    'src/server.ts',
    {
      ...bench.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      SECRET_KEY,
      PUBLIC_URL: base,
    },
    `${base}/ready`,
  );
  const auth = { authorization: `Bearer ${user!.token}` };
  let notificationRun: { perSecond: number; p99: number; non2xx: number } | undefined;

  try {
    const reads: { scenario: string; method: 'GET' | 'POST'; path: string; goal: number }[] = [
      {
        scenario: 'POST /authms/api/Auth/user',
        method: 'POST',
        path: '/authms/api/Auth/user',
        goal: 0.5,
      },
      {
        scenario: 'POST /authms/api/Auth/devices',
        method: 'POST',
        path: '/authms/api/Auth/devices',
        goal: 0.3,
      },
      {
        scenario: 'GET owner/services',
        method: 'GET',
        path: '/serversms/api/Servers/owner/services',
        goal: 0.3,
      },
      {
        scenario: 'GET payment history page',
        method: 'GET',
        path: '/payments/payments/user',
        goal: 0.3,
      },
    ];
    for (const read of reads) {
      const probe = await fetch(`${base}${read.path}`, { method: read.method, headers: auth });
      if (!probe.ok) {
        rows.push({
          scenario: read.scenario,
          requestsPerSecond: 0,
          p99Ms: 0,
          goal: `≥ ${read.goal}`,
          note: `HTTP ${probe.status}`,
        });
        continue;
      }
      // A short unmeasured run first: JIT, connection pool and caches warm up.
      await autocannon({
        url: `${base}${read.path}`,
        method: read.method,
        headers: auth,
        duration: 2,
        connections: CONNECTIONS,
      });
      const result = await load({ url: `${base}${read.path}`, method: read.method, headers: auth });
      const ratio = result.requestsPerSecond / reference.requestsPerSecond;
      rows.push({
        scenario: read.scenario,
        ...result,
        ratio,
        goal: `≥ ${read.goal}`,
        met: ratio >= read.goal && result.non2xx === 0,
      });
    }

    // Reads measured while 20 other clients keep argon2 busy with sign-ins.
    const hammer = autocannon({
      url: `${base}/authms/api/Auth/login`,
      method: 'POST',
      connections: 20,
      duration: DURATION_S,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ usernameOrEmail: user!.userName, password: 'Bench-Pass1' }),
    });
    const underLoad = await autocannon({
      url: `${base}/authms/api/Auth/user`,
      method: 'POST',
      connections: 5,
      duration: DURATION_S,
      headers: auth,
    });
    const logins = await hammer;
    rows.push({
      scenario: 'p99 of user reads while 20 clients sign in',
      requestsPerSecond: underLoad.requests.average,
      p99Ms: underLoad.latency.p99,
      goal: 'p99 < 50 ms',
      met: underLoad.latency.p99 < 50 && underLoad.non2xx === 0,
      note: `sign-ins ${Math.round(logins.requests.average)}/s`,
    });
    // Signed CONFIRMED notifications, one per distinct pending payment.
    let next = 0;
    const started = performance.now();
    const delivered = await autocannon({
      url: `${base}${NOTIFICATION_PATH}`,
      method: 'POST',
      connections: CONNECTIONS,
      amount: notifications.length,
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            body: notifications[next++ % notifications.length],
          }),
        },
      ],
    });
    const seconds = (performance.now() - started) / 1000;
    notificationRun = {
      perSecond: notifications.length / seconds,
      p99: delivered.latency.p99,
      non2xx: delivered.non2xx,
    };
  } finally {
    await portal.stop();
  }

  // Every notification must have credited its payment exactly once.
  const check = await bench.open();
  const result = (await check.db.execute(sql`
    SELECT count(*)::int AS entries, count(DISTINCT reference)::int AS payments,
           coalesce(sum(amount), 0)::bigint AS total,
           (SELECT sum(balance_kopecks) FROM users WHERE user_name LIKE 'bench_%') AS balance
    FROM ledger_entries WHERE kind = 'topUp'`)) as unknown as {
    rows: {
      entries: number;
      payments: number;
      total: string;
      balance: string;
    }[];
  };
  const [credit] = result.rows;
  await check.close();
  await bench.drop();
  const expected = NOTIFICATIONS * TOP_UP_KOPECKS;
  const exactlyOnce =
    credit!.entries === NOTIFICATIONS &&
    credit!.payments === NOTIFICATIONS &&
    Number(credit!.total) === expected &&
    Number(credit!.balance) === expected;
  rows.push({
    scenario: `signed notifications, ${NOTIFICATIONS} distinct payments`,
    requestsPerSecond: notificationRun?.perSecond ?? 0,
    p99Ms: notificationRun?.p99 ?? 0,
    goal: '≥ 500/s on PostgreSQL, each credited once',
    met: (notificationRun?.perSecond ?? 0) >= 500 && exactlyOnce && notificationRun?.non2xx === 0,
    note: exactlyOnce
      ? undefined
      : `credited ${credit!.entries} entries, balance ${credit!.balance}`,
  });

  printTable(rows);
}

function printTable(rows: Row[]) {
  const lines = [
    `| scenario | req/s | p99 ms | ratio to bare | goal | met |`,
    `|---|---:|---:|---:|---|---|`,
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${Math.round(row.requestsPerSecond)} | ${row.p99Ms} | ${row.ratio === undefined ? '—' : row.ratio.toFixed(2)} | ${row.goal} | ${row.note ?? (row.met === undefined ? '—' : row.met ? 'да' : 'нет')} |`,
    ),
  ];
  console.info(
    `\nБенчмарк (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${DURATION_S} с на сценарий, ${CONNECTIONS} соединений)\n`,
  );
  console.info(lines.join('\n'));
}

await main();
