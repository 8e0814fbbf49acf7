// Helpers for the wallet's tests (not loaded by the server).
import { buildTopUpPayment } from '@portal/contracts/wallet';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FetchLike } from '../../src/adapters/tbank/client.js';
import { signTbankRequest } from '../../src/adapters/tbank/token.js';
import { users } from '../../src/modules/accounts/schema.js';
import { ledgerTotals, postLedgerEntry } from '../../src/modules/payments/ledger.js';
import { payments } from '../../src/modules/payments/schema.js';
import { createSignedInUser } from './fixtures.js';
import { injectFetch } from './inject-fetch.js';
import { createTestApp, type TestApp } from './test-app.js';

type TestAppOptions = NonNullable<Parameters<typeof createTestApp>[0]>;

/**
 * The real app on a fresh database whose outbound payment HTTP (provider API calls and the
 * sandbox's notifications) is routed back into the app itself, or through `wrap` first.
 */
export async function createWalletTestApp(
  options: TestAppOptions & { wrap?: (inner: FetchLike) => FetchLike } = {},
): Promise<TestApp> {
  let app: FastifyInstance | undefined;
  const inner = injectFetch(() => app!);
  const { wrap, ...rest } = options;
  const testApp = await createTestApp({ ...rest, paymentFetch: wrap ? wrap(inner) : inner });
  app = testApp.app;
  return testApp;
}

/**
 * The provider's Cancel calls (refunds) as they reach it, for `createWalletTestApp({ wrap })`:
 * `calls` holds their bodies, and while `isRefusing` the bank refuses them.
 */
export function watchCancels() {
  const watch = {
    calls: [] as Record<string, unknown>[],
    isRefusing: false,
    wrap:
      (inner: FetchLike): FetchLike =>
      async (url, init) => {
        if (url.endsWith('/v2/Cancel')) {
          watch.calls.push(JSON.parse(String(init.body)));
          if (watch.isRefusing) {
            return Response.json({ Success: false, ErrorCode: '9999', Message: 'Отказ' });
          }
        }
        return inner(url, init);
      },
  };
  return watch;
}

/** Starts a card top-up of `amount` roubles as the web app does (the user's own id and e-mail). */
export function requestTopUp(
  { app }: Pick<TestApp, 'app'>,
  { user, headers }: { user: { id: string; email: string }; headers: Record<string, string> },
  amount: number,
) {
  return app.inject({
    method: 'POST',
    url: '/paymentms/api/Payment/create',
    headers,
    payload: buildTopUpPayment({ userId: user.id, email: user.email, amount }),
  });
}

let fundingCounter = 0;

/** Gives a user money the way support would: ledger adjustments, never a bare UPDATE. */
export async function fundUser(
  { app }: Pick<TestApp, 'app'>,
  userId: string,
  { kopecks = 0, points = 0 }: { kopecks?: number; points?: number },
) {
  await app.deps.db.transaction(async (tx) => {
    const key = `test-funding:${userId}:${++fundingCounter}`;
    const base = {
      userId,
      kind: 'adjustment' as const,
      description: 'Тестовое начисление',
      createdAt: app.deps.clock.now(),
    };
    if (kopecks) {
      await postLedgerEntry(tx, {
        ...base,
        currency: 'rub',
        amount: kopecks,
        idempotencyKey: `${key}:rub`,
      });
    }
    if (points) {
      await postLedgerEntry(tx, {
        ...base,
        currency: 'points',
        amount: points,
        idempotencyKey: `${key}:points`,
      });
    }
  });
}

/** Balances straight from the users row, with the ledger sums beside them. */
export async function balancesOf({ app }: Pick<TestApp, 'app'>, userId: string) {
  const db = app.deps.db;
  const [row] = await db
    .select({ kopecks: users.balanceKopecks, points: users.balancePoints })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new Error(`no user ${userId}`);
  const totals = await ledgerTotals(db, userId);
  return { kopecks: Number(row.kopecks), points: Number(row.points), ledger: totals };
}

/** The provider top-ups go through; tests run with one (the sandbox, unless they choose). */
export function activeProvider(app: FastifyInstance) {
  const { provider } = app.deps.payments;
  if (!provider) throw new Error('no payment provider is configured');
  return provider;
}

/** A notification signed as the active provider would sign it. */
export function providerNotification(app: FastifyInstance, fields: Record<string, unknown>) {
  const provider = activeProvider(app);
  return signTbankRequest(
    { TerminalKey: provider.terminalKey, Success: true, ErrorCode: '0', ...fields },
    provider.password,
  );
}

/** Opens the sandbox checkout page and presses Оплатить or Отменить; answers the redirect. */
export async function pressSandboxButton(
  app: FastifyInstance,
  pageUrl: string,
  action: 'pay' | 'cancel',
) {
  const url = new URL(pageUrl);
  const page = await app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  if (page.statusCode !== 200) throw new Error(`checkout page answered ${page.statusCode}`);
  const formAction = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1];
  if (!formAction) throw new Error('checkout page has no form');
  return app.inject({
    method: 'POST',
    url: formAction,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ action }).toString(),
  });
}

/**
 * Fails unless the user's balances equal the sums of their ledger entries, per currency: run
 * after every money operation of a test.
 */
export async function expectLedgerBalanced(testApp: Pick<TestApp, 'app'>, userId: string) {
  const balances = await balancesOf(testApp, userId);
  if (balances.kopecks !== balances.ledger.rub || balances.points !== balances.ledger.points) {
    throw new Error(`ledger out of balance for ${userId}: ${JSON.stringify(balances)}`);
  }
  return balances;
}

/** A signed-in user whose card top-up of `amount` roubles was paid on the sandbox's page. */
export async function paidTopUp(testApp: TestApp, amount: number) {
  const signedIn = await createSignedInUser(testApp);
  const created = await requestTopUp(testApp, signedIn, amount);
  if (created.statusCode !== 200) throw new Error(`top-up answered ${created.statusCode}`);
  const pressed = await pressSandboxButton(testApp.app, created.json().data.paymentUrl, 'pay');
  if (pressed.statusCode !== 303) throw new Error(`paying answered ${pressed.statusCode}`);
  const [payment] = await testApp.database.db
    .select()
    .from(payments)
    .where(eq(payments.userId, signedIn.user.id));
  if (!payment?.creditedAt) throw new Error('the top-up was not credited');
  return { ...signedIn, payment };
}
