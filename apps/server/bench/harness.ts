// What every bench scenario is built from: a portal started the way `npm start` starts it, a
// bare Fastify twin of any of its answers, a load run that reports the server's CPU per request,
// and the table the rows end up in (run.ts).
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { PORTAL_NODE_ARGS } from '../../../scripts/portal-node-args.mjs';
import { connectPostgres, type Database, openPglite } from '../src/db/database.js';
import { withDatabaseName } from '../test/support/database-url.js';
import type { RecordedAnswer } from './bare-server.js';
import { cpuSeconds, freePort, type StartedProcess, startProcess } from './processes.js';

export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
export const WARM_UP_S = 2;
export const CONNECTIONS = 20;
/** Fixed so the bench can sign sandbox notifications the way the provider would. */
export const SECRET_KEY = 'bench-secret-key-bench-secret-key-0123456789';

/** One line of the printed table. */
export interface Row {
  scenario: string;
  requestsPerSecond: number;
  p99Ms: number;
  /** The server process's own CPU time over the run, divided by the requests it answered. */
  cpuUsPerRequest?: number;
  /** The same for the bare Fastify route answering the same bytes. */
  bareCpuUsPerRequest?: number;
  goal: string;
  met?: boolean;
  note?: string;
}

export interface Measured {
  requestsPerSecond: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  /** Of it, the kernel's time (system CPU): on these reads, mostly the socket. */
  systemUsPerRequest: number;
  answered: number;
  non2xx: number;
  errors: number;
  /** Bytes the server wrote to its output (log lines) per request, when `logFd` was given. */
  logBytesPerRequest?: number;
}

/**
 * Loads `pid`'s server with autocannon (a warm-up first: JIT, pools and caches) and reads the
 * process's CPU time around the measured run. On two cores the load generator, not the server,
 * limits requests/s; CPU per request is the server's own cost and barely moves with the
 * machine's other load.
 */
export async function measure(
  pid: number,
  options: autocannon.Options,
  { warmUp = true, logFd }: { warmUp?: boolean; logFd?: number } = {},
): Promise<Measured> {
  const run = { duration: DURATION_S, connections: CONNECTIONS, ...options };
  if (warmUp) {
    const { amount: _once, ...forAWhile } = run;
    await autocannon({ ...forAWhile, duration: WARM_UP_S });
  }
  const logBefore = logFd === undefined ? 0 : fstatSync(logFd).size;
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon(run);
  const cpuAfter = cpuSeconds(pid);
  const cpu = cpuAfter.total - cpuBefore.total;
  const answered = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  return {
    requestsPerSecond: answered / result.duration,
    p99Ms: result.latency.p99,
    cpuUsPerRequest: (cpu * 1e6) / Math.max(answered, 1),
    systemUsPerRequest: ((cpuAfter.system - cpuBefore.system) * 1e6) / Math.max(answered, 1),
    answered,
    non2xx: result.non2xx,
    errors: result.errors,
    logBytesPerRequest:
      logFd === undefined ? undefined : (fstatSync(logFd).size - logBefore) / Math.max(answered, 1),
  };
}

/** A fresh database for one bench run: a new PostgreSQL database or a new PGlite directory. */
export async function openBenchDatabase() {
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
      open: async (): Promise<Database> => connectPostgres(url),
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
    open: async (): Promise<Database> => openPglite(path.join(dataDir, 'pgdata')),
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

export interface Portal extends StartedProcess {
  base: string;
  /** Where the portal's stdout (its log lines) goes: a file, as a service manager would keep. */
  logFd: number;
}

/**
 * The built portal (`dist/server.js`, built by `npm run bench`, or another `bundle` one level
 * below apps/server, as its paths require) started as `npm start` starts it: NODE_ENV=production and every other setting at its default, LOG_LEVEL included, whatever
 * the bench's own environment says. `env` adds the database and the few settings the bench needs.
 */
export async function startPortal(
  env: Record<string, string>,
  bundle = 'dist/server.js',
): Promise<Portal> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-log-'));
  const logFd = openSync(path.join(logDir, 'portal.log'), 'a');
  const started = await startProcess(
    // BENCH_PORTAL_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the portal.
    [...(process.env.BENCH_PORTAL_NODE_ARGS?.split(' ') ?? []), ...PORTAL_NODE_ARGS, bundle],
    {
      LOG_LEVEL: undefined,
      ACCESS_LOG: undefined,
      DATABASE_URL: undefined,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      SECRET_KEY,
      PUBLIC_URL: base,
    },
    `${base}/ready`,
    logFd,
  );
  return {
    ...started,
    base,
    logFd,
    stop: async () => {
      await started.stop();
      closeSync(logFd);
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}

/**
 * The portal's answer to `request` recorded, and a bare Fastify process answering exactly it
 * (status, headers, body) at the same method and path: the reference for that request.
 */
export async function startBareTwin(
  portal: Portal,
  request: { method: 'GET' | 'POST'; path: string; headers: Record<string, string> },
): Promise<StartedProcess & { base: string; answer: RecordedAnswer }> {
  const response = await fetch(`${portal.base}${request.path}`, request);
  const headers: Record<string, string> = {};
  // Fastify sets these itself on every answer.
  const own = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  response.headers.forEach((value, name) => {
    if (!own.has(name)) headers[name] = value;
  });
  const answer: RecordedAnswer = {
    method: request.method,
    path: request.path,
    status: response.status,
    headers,
    body: await response.text(),
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-bench-bare-'));
  const answers = path.join(dir, 'answers.json');
  writeFileSync(answers, JSON.stringify([answer]));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const bare = await startProcess(
    ['--import', 'tsx', 'bench/bare-server.ts'],
    { PORT: String(port), BENCH_ANSWERS: answers },
    `${base}/bare`,
  );
  return {
    ...bare,
    base,
    answer,
    stop: async () => {
      await bare.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');

export function printTable(rows: Row[], title: string) {
  const lines = [
    '| scenario | req/s | p99 ms | server CPU µs/request | bare route µs/request | CPU ratio | goal | met |',
    '|---|---:|---:|---:|---:|---:|---|---|',
    ...rows.map((row) => {
      const ratio =
        row.cpuUsPerRequest !== undefined && row.bareCpuUsPerRequest !== undefined
          ? `${(row.cpuUsPerRequest / row.bareCpuUsPerRequest).toFixed(2)}×`
          : '—';
      const met = row.met === undefined ? '—' : row.met ? 'да' : 'нет';
      return [
        row.scenario,
        integer(row.requestsPerSecond),
        row.p99Ms,
        row.cpuUsPerRequest === undefined ? '—' : row.cpuUsPerRequest.toFixed(1),
        row.bareCpuUsPerRequest === undefined ? '—' : row.bareCpuUsPerRequest.toFixed(1),
        ratio,
        row.goal,
        row.note ? `${met} (${row.note})` : met,
      ].join(' | ');
    }),
  ];
  console.info(`\n${title}\n`);
  console.info(lines.map((line) => (line.startsWith('|') ? line : `| ${line} |`)).join('\n'));
}
