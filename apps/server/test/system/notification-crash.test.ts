/**
 * The server is killed (SIGKILL) between accepting a payment notification and
 * answering it. The provider did not get 'OK', so it sends the notification again, to the
 * restarted server: the payment is credited exactly once, whether the crash came after the
 * commit or while the settlement waited for the payment's row.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REDIS_URL } from '../support/services.js';
import { call, randomClientIp } from '../support/system/http.js';
import {
  createPortalUser,
  login,
  NOTIFICATION,
  type PendingPayment,
  signedNotification,
  startTopUp,
  walletOf,
} from '../support/system/portal.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/system/scratch-database.js';
import { freePort, type ServerProcess, startServer } from '../support/system/server-process.js';
import { waitFor } from '../support/wait-for.js';

let scratch: ScratchDatabase;
let port: number;
let server: ServerProcess;

/** The portal on the same port every time: the provider's NotificationURL does not change. */
const startPortal = async () => {
  server = await startServer({ DATABASE_URL: scratch.url, REDIS_URL }, { port });
  return server;
};

beforeAll(async () => {
  scratch = await createScratchDatabase();
  port = await freePort();
  await startPortal();
});

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
});

async function newPayment(roubles: number) {
  const user = await createPortalUser(scratch);
  const token = await login(server.url, user, randomClientIp());
  return { user, payment: await startTopUp(server.url, token, scratch, roubles) };
}

const paymentRow = async (payment: PendingPayment) => {
  const [row] = await scratch.query<{ status: string; credited_at: Date | null }>(
    'SELECT status, credited_at FROM payments WHERE id = $1',
    [payment.id],
  );
  return row;
};

/**
 * A proxy in front of the portal that passes one request on and, the moment the portal's answer
 * starts to come back (its transaction has committed by then), SIGKILLs the portal and drops the
 * provider's connection: the answer never reaches the provider.
 */
async function startKillingProxy(target: ServerProcess): Promise<Server & { url: string }> {
  const proxy = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          answer.on('error', () => {});
          answer.resume();
          void target.kill().then(() => outgoing.socket?.destroy());
        },
      );
      upstream.on('error', () => outgoing.socket?.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = proxy.address() as AddressInfo;
  return Object.assign(proxy, { url: `http://127.0.0.1:${proxyPort}` });
}

it('credits once when killed after the commit, before the answer left', async () => {
  const { user, payment } = await newPayment(300);
  const body = signedNotification(payment);
  const proxy = await startKillingProxy(server);
  try {
    await expect(call(proxy.url, 'POST', NOTIFICATION, { body })).rejects.toThrow();
  } finally {
    proxy.close();
  }
  expect(server.hasExited()).toBe(true);
  // The crash came after the commit: the money is there, though the provider never heard 'OK'.
  expect(await walletOf(scratch, user.id)).toEqual({
    kopecks: 30_000,
    topUps: [{ amount: 30_000, reference: payment.id }],
  });

  await startPortal();
  // The provider retries until it gets 'OK', here twice.
  for (let retry = 0; retry < 2; retry++) {
    const answer = await call(server.url, 'POST', NOTIFICATION, { body });
    expect([answer.status, answer.body]).toEqual([200, 'OK']);
  }
  expect(await walletOf(scratch, user.id)).toEqual({
    kopecks: 30_000,
    topUps: [{ amount: 30_000, reference: payment.id }],
  });
  expect((await paymentRow(payment))?.status).toBe('CONFIRMED');
});

it('credits once when killed while its settlement waits for the payment row', async () => {
  const { user, payment } = await newPayment(450);
  const body = signedNotification(payment);

  // Hold the payment's row lock, so the portal's settlement (one guarded statement,
  // modules/payments/settlement.ts) stops waiting for it.
  const holder = new pg.Client({ connectionString: scratch.url });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM payments WHERE id = $1 FOR UPDATE', [payment.id]);
    const delivery = call(server.url, 'POST', NOTIFICATION, { body });
    delivery.catch(() => {});
    await waitFor('the portal to wait for the payment row lock', async () => {
      const rows = await scratch.query(
        `SELECT pid FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%payments%'`,
      );
      return rows.length === 1;
    });
    await server.kill();
    await expect(delivery).rejects.toThrow();
  } finally {
    await holder.query('ROLLBACK');
    await holder.end();
  }
  // The killed portal's statement ends by itself once the row is free: PostgreSQL learns that its
  // client is gone only when it answers, so the statement may have committed (then the money is
  // there, once) or been rolled back (nothing at all), never anything in between.
  await waitFor('the dead statement to end', async () => {
    const rows = await scratch.query(
      `SELECT l.pid FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
       WHERE c.relname = 'payments' AND l.pid <> pg_backend_pid()`,
    );
    return rows.length === 0;
  });
  const afterCrash = await paymentRow(payment);
  if (afterCrash?.credited_at) {
    expect(afterCrash.status).toBe('CONFIRMED');
    expect(await walletOf(scratch, user.id)).toEqual({
      kopecks: 45_000,
      topUps: [{ amount: 45_000, reference: payment.id }],
    });
  } else {
    expect(afterCrash).toMatchObject({ status: 'NEW', credited_at: null });
    expect(await walletOf(scratch, user.id)).toEqual({ kopecks: 0, topUps: [] });
  }

  await startPortal();
  for (let retry = 0; retry < 2; retry++) {
    const answer = await call(server.url, 'POST', NOTIFICATION, { body });
    expect([answer.status, answer.body]).toEqual([200, 'OK']);
  }
  expect(await walletOf(scratch, user.id)).toEqual({
    kopecks: 45_000,
    topUps: [{ amount: 45_000, reference: payment.id }],
  });
  expect((await paymentRow(payment))?.status).toBe('CONFIRMED');
});
