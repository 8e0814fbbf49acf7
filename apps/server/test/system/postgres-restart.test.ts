/**
 * PostgreSQL goes away while requests flow, and comes back. The server is not
 * restarted: requests fail with 503 and a Russian message meanwhile (never a 500), /ready says
 * so, and everything works again once the database is back. The database is a throwaway cluster
 * of this test's own: the machine's shared PostgreSQL is never stopped.
 */
import { randomUUID } from 'node:crypto';
import { SERVICE_UNAVAILABLE } from '@portal/contracts/messages';
import { expect, it } from 'vitest';
import { call, randomClientIp } from '../support/system/http.js';
import {
  API,
  createPortalUser,
  login,
  NOTIFICATION,
  signedNotification,
} from '../support/system/portal.js';
import { setupServerOnOwnCluster } from '../support/system/server-on-own-cluster.js';
import { waitFor } from '../support/wait-for.js';

const portal = setupServerOnOwnCluster();

interface Seen {
  at: number;
  route: string;
  status: number;
  message?: string;
}

/** Requests in a loop until stopped: a read behind a session, and a write in a transaction. */
function flowRequests(token: string) {
  const seen: Seen[] = [];
  let stopped = false;
  const loop = async (route: string, send: () => ReturnType<typeof call>) => {
    while (!stopped) {
      try {
        const answer = await send();
        seen.push({
          at: Date.now(),
          route,
          status: answer.status,
          message: typeof answer.body === 'object' ? answer.body.message : undefined,
        });
      } catch (error) {
        // No answer at all (the server crashed?): recorded as status 0, which fails the test.
        seen.push({ at: Date.now(), route, status: 0, message: String(error) });
      }
      // Paced a little, so the server and PostgreSQL keep some of the two cores.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  // A signed report about an order nobody placed: a transaction that locks, reads and answers 404.
  const unknownOrder = signedNotification({
    id: randomUUID(),
    providerPaymentId: '1',
    amountKopecks: 100,
  });
  const done = Promise.all([
    loop('user', () => call(portal.server.url, 'POST', `${API}/user`, { token })),
    // Several at once, so that some are inside a transaction at the moment PostgreSQL dies.
    ...Array.from({ length: 3 }, () =>
      loop('notification', () =>
        call(portal.server.url, 'POST', NOTIFICATION, { body: unknownOrder }),
      ),
    ),
  ]);
  return {
    seen,
    since: (at: number) => seen.filter((item) => item.at > at),
    async stop() {
      stopped = true;
      await done;
    },
  };
}

it('answers 503 in Russian while PostgreSQL is down and recovers by itself when it is back', async () => {
  const user = await createPortalUser(portal.scratch);
  const token = await login(portal.server.url, user, randomClientIp());
  const flow = flowRequests(token);
  try {
    await waitFor(
      'requests to succeed',
      () => flow.seen.filter((item) => item.status !== 503).length >= 6,
    );

    const stoppedAt = Date.now();
    await portal.cluster.stop();
    const ready = await waitFor('/ready to answer 503', async () => {
      const answer = await call(portal.server.url, 'GET', '/ready');
      return answer.status === 503 && answer;
    });
    expect(ready.body).toEqual({ message: 'База данных недоступна' });
    await waitFor('both routes to answer 503', () => {
      const failed = flow.since(stoppedAt).filter((item) => item.status === 503);
      return new Set(failed.map((item) => item.route)).size === 2 && failed.length >= 6;
    });

    const startedAt = Date.now();
    await portal.cluster.start();
    await waitFor('/ready to answer 200', async () => {
      const answer = await call(portal.server.url, 'GET', '/ready');
      return answer.status === 200;
    });
    await waitFor('both routes to recover', () => {
      const recent = flow.since(startedAt);
      return ['user', 'notification'].every((route) =>
        recent.some((item) => item.route === route && item.status !== 503),
      );
    });
  } finally {
    await flow.stop();
  }

  // Never a 500: healthy answers, or 503 with the Russian message.
  const expected = { user: 200, notification: 404 } as Record<string, number>;
  for (const item of flow.seen) {
    if (item.status === 503) expect(item.message).toBe(SERVICE_UNAVAILABLE);
    else expect(item.status, JSON.stringify(item)).toBe(expected[item.route]);
  }
  expect(flow.seen.filter((item) => item.status === 503).length).toBeGreaterThan(0);
  // Same process all along; writes work again (a sign-in writes a session).
  expect(portal.server.hasExited()).toBe(false);
  const again = await login(portal.server.url, user, randomClientIp());
  expect((await call(portal.server.url, 'POST', `${API}/user`, { token: again })).status).toBe(200);
});
