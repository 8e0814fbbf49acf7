/**
 * Bad input: every route of the OpenAPI document gets random and hostile bodies,
 * headers, query strings and path parameters, anonymously, with a live session and with a
 * sibling API key. Whatever arrives, the answer is never a 5xx, never shows a stack trace or an
 * internal detail, an error is `{ message, errors?, reason? }` in Russian, and an error changes no row.
 *
 * Reproducible: the seed is fixed (HOSTILE_SEED overrides it; fast-check prints the seed and the
 * path of a failure). HOSTILE_RUNS sets the runs per route (default keeps the file under a minute);
 * HOSTILE_DEBUG=1 prints every request and its answer.
 *
 * Routes left out, and why:
 * - GET /docs/**: the OpenAPI page and its static files are @fastify/swagger-ui's, not ours, and
 *   take no input; they are not in the document either.
 * - The web app's static files: no input but the path, which the 404 handler answers (covered by
 *   the "other method" requests of every route).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorReasonSchema } from '@portal/contracts/common';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeTelegramApi } from '../support/fake-telegram-api.js';
import { startFakeYandex } from '../support/fake-yandex.js';
import { createUser, DEFAULT_PASSWORD, signIn } from '../support/fixtures.js';
import {
  type AuthMode,
  type HostileRequest,
  type KnownValues,
  type RouteSpec,
  requestFor,
  routesOf,
} from '../support/hostile/route-catalogue.js';
import { changedTables, createTableChecksum } from '../support/hostile/table-checksum.js';
import { HOSTING_KEY, orderBody, placeOrder, SIBLING_CONFIG } from '../support/sibling-sites.js';
import { createWalletTestApp, fundUser } from '../support/wallet.js';

const SEED = Number(process.env.HOSTILE_SEED ?? 20_250_707);
const RUNS_PER_ROUTE = Number(process.env.HOSTILE_RUNS ?? 60);

const telegram = await startFakeTelegramApi();
const yandex = await startFakeYandex();
const uploadDir = mkdtempSync(path.join(tmpdir(), 'portal-hostile-uploads-'));
afterAll(async () => {
  await telegram.close();
  await yandex.close();
  rmSync(uploadDir, { recursive: true, force: true });
});

// Every outside dependency is configured (stand-ins), so no answer has a reason to be a 503.
const testApp = await createWalletTestApp({
  config: {
    ...SIBLING_CONFIG,
    ...telegram.config,
    ...yandex.config,
    UPLOAD_DIR: uploadDir,
    // Background jobs would change rows between the two snapshots of a request.
    PAYMENT_RECONCILE_INTERVAL_SECONDS: 0,
    SERVICE_RENEWAL_INTERVAL_SECONDS: 0,
  },
});
const { app } = testApp;
const checksum = await createTableChecksum(app.deps.db);

// The account the sessions belong to has money, points and a service, so that charges and
// history have something to work on; a second account gives a foreign id to aim at.
const owner = await createUser(testApp);
const stranger = await createUser(testApp);
await fundUser(testApp, owner.id, { kopecks: 500_000, points: 300 });
const ordered = orderBody(owner.id, { usePoints: true });
expect((await placeOrder(testApp, ordered)).statusCode).toBe(200);
const strangerSession = await signIn(testApp, stranger.id);

let session = await signIn(testApp, owner.id);
/** A success may have ended the session (logout, device removal): sign in again when it did. */
async function keepSessionAlive() {
  const result = await app.deps.db.execute(
    sql`SELECT 1 FROM sessions WHERE id = ${session.sessionId} AND revoked_at IS NULL`,
  );
  if ((result as unknown as { rows: unknown[] }).rows.length === 0) {
    session = await signIn(testApp, owner.id);
  }
}

const known: KnownValues = {
  emails: [owner.email, stranger.email],
  userNames: [owner.userName, stranger.userName],
  passwords: [DEFAULT_PASSWORD],
  ids: [owner.id, stranger.id, strangerSession.sessionId, session.sessionId],
  externalIds: [ordered.service.externalId],
  urls: ['https://hosting.example.com/servers/1', `${testApp.config.PUBLIC_URL}/uploads/x.png`],
};

function authHeaders(auth: AuthMode): Record<string, string> {
  switch (auth.kind) {
    case 'anonymous':
      return {};
    case 'session':
      return { authorization: `Bearer ${session.token}` };
    case 'api-key':
      return { 'x-api-key': HOSTING_KEY };
    case 'session-and-api-key':
      return { authorization: `Bearer ${session.token}`, 'x-api-key': HOSTING_KEY };
    case 'forged':
      return {
        authorization: auth.authorization,
        ...(auth.apiKey !== undefined ? { 'x-api-key': auth.apiKey } : {}),
      };
  }
}

/** What must never reach a client: stack frames, source paths, driver and framework internals. */
const INTERNAL_DETAILS = [
  /\n\s+at /,
  /\bat [\w$.<>]+ \(/,
  /\.(?:ts|js|mjs|cjs):\d+/,
  /node_modules/,
  /\/work\/|\/home\/|\/tmp\//,
  /\b(?:Type|Range|Syntax|Reference)?Error:/,
  /"stack"/,
  /\bFST_[A-Z_]+/,
  /syntax error at or near|duplicate key value|violates .* constraint|relation "|invalid input syntax/,
];

const CYRILLIC = /[а-яё]/i;

/**
 * Routes that answer a browser with pages rather than an API client with JSON: the sandbox
 * provider's checkout form (its errors are HTML pages a person reads) and the dev mailbox.
 * Their errors must still be Russian, free of internals, and change nothing.
 */
const PAGE_ROUTES = new Set(['/sandbox/tbank/pay/{checkoutToken}', '/dev/mail']);

/** Answers seen per route, printed at the end: proof that requests got past the front door. */
const statuses = new Map<string, Map<number, number>>();

/** Sends one request and checks the answer; answers its status. */
async function sendAndCheck(route: RouteSpec, request: HostileRequest): Promise<number> {
  const headers = { ...request.headers, ...authHeaders(request.auth) };
  const before = await checksum();
  const response = await app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers,
    payload: request.payload,
    remoteAddress: request.remoteAddress,
  });
  const status = response.statusCode;
  const body = response.body;
  const where = `${request.method} ${request.url.slice(0, 300)} → ${status} ${body.slice(0, 300)}`;

  expect(status, `a server error: ${where}`).toBeLessThan(500);
  const contentType = String(response.headers['content-type'] ?? '');
  if (!contentType.startsWith('image/')) {
    for (const pattern of INTERNAL_DETAILS) {
      expect(body, `an internal detail (${pattern}) in ${where}`).not.toMatch(pattern);
    }
  }

  const seen = statuses.get(`${route.method} ${route.path}`) ?? new Map<number, number>();
  seen.set(status, (seen.get(status) ?? 0) + 1);
  if (process.env.HOSTILE_DEBUG) process.stdout.write(`${where.slice(0, 400)}\n`);
  statuses.set(`${route.method} ${route.path}`, seen);

  if (status >= 400 && PAGE_ROUTES.has(route.path) && contentType.startsWith('text/html')) {
    expect(body, `a page that is not Russian: ${where}`).toMatch(CYRILLIC);
    expect(changedTables(before, await checksum()), `rows changed by ${where}`).toEqual([]);
  } else if (status >= 400) {
    expect(contentType, `an error that is not JSON: ${where}`).toMatch(/^application\/json/);
    const answer = JSON.parse(body) as Record<string, unknown>;
    const declared = ['message', 'errors', 'reason'];
    expect(Object.keys(answer).filter((key) => !declared.includes(key))).toEqual([]);
    if (answer.reason !== undefined) {
      expect(errorReasonSchema.safeParse(answer.reason).success, where).toBe(true);
    }
    expect(typeof answer.message, where).toBe('string');
    expect(answer.message as string, `a message that is not Russian: ${where}`).toMatch(CYRILLIC);
    if (answer.errors !== undefined) {
      for (const messages of Object.values(answer.errors as Record<string, unknown>)) {
        expect(Array.isArray(messages), where).toBe(true);
        for (const message of messages as unknown[]) expect(typeof message, where).toBe('string');
      }
    }
    expect(changedTables(before, await checksum()), `rows changed by ${where}`).toEqual([]);
  } else {
    await keepSessionAlive();
  }
  return status;
}

const routes = await routesOf(app);

afterAll(() => {
  const lines = [...statuses].map(
    ([route, counts]) =>
      `${route.padEnd(58)} ${[...counts]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')}`,
  );
  process.stdout.write(`hostile input, answers per route (seed ${SEED}):\n${lines.join('\n')}\n`);
});

describe('hostile input on every route', () => {
  it('covers the whole OpenAPI document', () => {
    // A route added later is covered automatically; this guards against an empty document.
    expect(routes.length).toBeGreaterThanOrEqual(50);
  });

  // Cases random runs found once, kept so that they stay fixed whatever the seed.
  it.each([
    {
      name: 'a malformed escape in a path',
      route: 'DELETE /authms/api/Auth/devices/{id}',
      url: '/authms/api/Auth/devices/%',
    },
    {
      name: 'a path parameter over the router limit',
      route: 'GET /uploads/{key}',
      url: `/uploads/${'a'.repeat(201)}`,
    },
    {
      name: 'a NUL character in a query',
      route: 'GET /dev/mail/letters',
      url: '/dev/mail/letters?to=%00',
    },
    {
      name: 'a NUL character in a path parameter',
      route: 'PATCH /serversms/api/Sibling/services/{externalId}',
      url: '/serversms/api/Sibling/services/%00',
      payload: '{}',
      auth: { kind: 'api-key' } as const,
    },
    {
      name: 'multipart without a boundary',
      route: 'POST /upload',
      url: '/upload',
      payload: '""',
      contentType: 'multipart/form-data',
      auth: { kind: 'session' } as const,
    },
    {
      name: 'multipart cut off in the middle',
      route: 'POST /upload',
      url: '/upload',
      payload: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nxx',
      contentType: 'multipart/form-data; boundary=b',
      auth: { kind: 'session' } as const,
    },
  ])('refuses $name with a Russian 4xx', async (example) => {
    const route = routes.find((item) => `${item.method} ${item.path}` === example.route);
    if (!route) throw new Error(`no route ${example.route} in the document`);
    const request: HostileRequest = {
      method: route.method,
      url: example.url,
      headers: { 'content-type': example.contentType ?? 'application/json' },
      payload: example.payload,
      remoteAddress: '203.0.113.7',
      auth: example.auth ?? { kind: 'anonymous' },
    };
    expect(await sendAndCheck(route, request)).toBeGreaterThanOrEqual(400);
  });

  it.each(routes.map((route, index) => ({ route, index, name: `${route.method} ${route.path}` })))(
    '$name answers every hostile request without a server error or a change',
    async ({ route, index }) => {
      await fc.assert(
        fc.asyncProperty(requestFor(route, known), async (request) => {
          await sendAndCheck(route, request);
        }),
        { seed: SEED + index, numRuns: RUNS_PER_ROUTE, endOnFailure: false },
      );
    },
  );
});
