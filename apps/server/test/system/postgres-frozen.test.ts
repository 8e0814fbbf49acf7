import { SERVICE_UNAVAILABLE } from '@portal/contracts/messages';
/**
 * PostgreSQL frozen (SIGSTOP, not stopped: its connections stay open and nothing answers).
 * Sign-ins and notifications fail with the Russian 503 within a few seconds instead of hanging,
 * /ready answers 503 within 2 s, and all is well again once the database thaws.
 */
import { expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../support/fixtures.js';
import { call, randomClientIp } from '../support/system/http.js';
import {
  API,
  createPortalUser,
  NOTIFICATION,
  signedNotification,
  startTopUp,
  walletOf,
} from '../support/system/portal.js';
import { setupServerOnOwnCluster } from '../support/system/server-on-own-cluster.js';
import { waitFor } from '../support/wait-for.js';

const portal = setupServerOnOwnCluster();

/** A call and how long it took. */
async function timed(send: () => ReturnType<typeof call>) {
  const startedAt = Date.now();
  const answer = await send();
  return { answer, ms: Date.now() - startedAt };
}

it('answers 503 in bounded time while the database is frozen, and recovers when it thaws', async () => {
  const user = await createPortalUser(portal.scratch);
  const signIn = () =>
    call(portal.server.url, 'POST', `${API}/login`, {
      body: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
      ip: randomClientIp(),
      timeoutMs: 30_000,
    });
  const token = (await signIn()).body.token as string;
  const payment = await startTopUp(portal.server.url, token, portal.scratch, 100);

  await portal.cluster.freeze();
  const ready = await timed(() => call(portal.server.url, 'GET', '/ready', { timeoutMs: 30_000 }));
  expect(ready.answer.status).toBe(503);
  expect(ready.ms).toBeLessThan(2_000);

  // Several at once: more than one is waiting for the same stuck connections.
  const during = await Promise.all(
    Array.from({ length: 4 }, () => timed(signIn)).concat(
      timed(() =>
        call(portal.server.url, 'POST', NOTIFICATION, {
          body: signedNotification(payment),
          timeoutMs: 30_000,
        }),
      ),
    ),
  );
  for (const { answer, ms } of during) {
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ message: SERVICE_UNAVAILABLE });
    expect(ms).toBeLessThan(10_000);
  }

  await portal.cluster.thaw();
  await waitFor(
    'sign-in after the thaw',
    async () => (await signIn()).status === 200 || undefined,
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  expect((await call(portal.server.url, 'GET', '/ready')).status).toBe(200);
  // The provider retries the notification: it is credited once, now.
  const retried = await call(portal.server.url, 'POST', NOTIFICATION, {
    body: signedNotification(payment),
  });
  expect(retried.status).toBe(200);
  expect((await walletOf(portal.scratch, user.id)).kopecks).toBe(10_000);
});
