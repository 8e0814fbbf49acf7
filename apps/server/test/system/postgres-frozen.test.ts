/**
 * PostgreSQL frozen (SIGSTOP, not stopped: its connections stay open and nothing answers).
 * Sign-ins and notifications fail with the Russian 503 within a few seconds instead of hanging,
 * /ready answers 503 within 2 s, and all is well again once the database thaws.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MESSAGES } from '../../src/http/error-handler.js';
import { DEFAULT_PASSWORD } from '../fixtures.js';
import { call, randomClientIp } from './support/http.js';
import {
  API,
  createPortalUser,
  NOTIFICATION,
  signedNotification,
  startTopUp,
  walletOf,
} from './support/portal.js';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database.js';
import { type ServerProcess, startServer } from './support/server-process.js';
import { startTemporaryCluster, type TemporaryCluster } from './support/temporary-cluster.js';
import { waitFor } from './support/wait-for.js';

let cluster: TemporaryCluster;
let scratch: ScratchDatabase;
let server: ServerProcess;

beforeAll(async () => {
  cluster = await startTemporaryCluster();
  scratch = await createScratchDatabase(cluster.adminUrl);
  server = await startServer({ DATABASE_URL: scratch.url });
});

afterAll(async () => {
  await cluster?.thaw().catch(() => {});
  await server?.stop();
  await scratch?.drop().catch(() => {});
  await cluster?.destroy();
});

/** A call and how long it took. */
async function timed(send: () => ReturnType<typeof call>) {
  const startedAt = Date.now();
  const answer = await send();
  return { answer, ms: Date.now() - startedAt };
}

it('answers 503 in bounded time while the database is frozen, and recovers when it thaws', async () => {
  const user = await createPortalUser(scratch);
  const signIn = () =>
    call(server.url, 'POST', `${API}/login`, {
      body: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
      ip: randomClientIp(),
      timeoutMs: 30_000,
    });
  const token = (await signIn()).body.token as string;
  const payment = await startTopUp(server.url, token, scratch, 100);

  await cluster.freeze();
  const ready = await timed(() => call(server.url, 'GET', '/ready', { timeoutMs: 30_000 }));
  expect(ready.answer.status).toBe(503);
  expect(ready.ms).toBeLessThan(2_000);

  // Several at once: more than one is waiting for the same stuck connections.
  const during = await Promise.all(
    Array.from({ length: 4 }, () => timed(signIn)).concat(
      timed(() =>
        call(server.url, 'POST', NOTIFICATION, {
          body: signedNotification(payment),
          timeoutMs: 30_000,
        }),
      ),
    ),
  );
  for (const { answer, ms } of during) {
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ message: MESSAGES.unavailable });
    expect(ms).toBeLessThan(10_000);
  }

  await cluster.thaw();
  await waitFor(
    'sign-in after the thaw',
    async () => (await signIn()).status === 200 || undefined,
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  expect((await call(server.url, 'GET', '/ready')).status).toBe(200);
  // The provider retries the notification: it is credited once, now.
  const retried = await call(server.url, 'POST', NOTIFICATION, {
    body: signedNotification(payment),
  });
  expect(retried.status).toBe(200);
  expect((await walletOf(scratch, user.id)).kopecks).toBe(10_000);
});
