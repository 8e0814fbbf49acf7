// Helpers for the services' tests (not loaded by the server).

import { sql } from 'drizzle-orm';
import type { TestApp } from './test-app.js';

export const HOSTING_KEY = 'hosting-test-key-0123456789abcdef';
export const LAUNCHER_KEY = 'launcher-test-key-0123456789abcdef';
export const SIBLING_CONFIG = {
  SIBLING_API_KEYS: [`hosting:${HOSTING_KEY}`, `launcher:${LAUNCHER_KEY}`],
};

let orderCounter = 0;

/** An order body as the hosting site would send it. */
export function orderBody(
  userId: string,
  overrides: {
    orderId?: string;
    externalId?: string;
    price?: number;
    months?: number;
    usePoints?: boolean;
    autoRenew?: boolean;
    name?: string;
  } = {},
) {
  return {
    orderId: overrides.orderId ?? `order-${++orderCounter}-${Math.random().toString(36).slice(2)}`,
    userId,
    service: {
      externalId: overrides.externalId ?? `srv-${Math.random().toString(36).slice(2)}`,
      name: overrides.name ?? 'Игровой сервер Minecraft',
      serverCount: 2,
      pricePerMonth: overrides.price ?? 1790,
      autoRenew: overrides.autoRenew ?? true,
      manageUrl: 'https://hosting.example.com/servers/1',
    },
    months: overrides.months ?? 1,
    usePoints: overrides.usePoints ?? false,
  };
}

/**
 * Records that the user came to the sibling through a hand-off, as its redemption does, so that
 * the sibling may read and charge them (sibling-users.ts).
 */
export async function introduceToSibling(
  t: Pick<TestApp, 'database'>,
  userId: string,
  sibling: 'hosting' | 'launcher' = 'hosting',
) {
  // An unknown id stays unknown: nothing to record.
  await t.database.db.execute(
    sql`INSERT INTO sibling_users (user_id, sibling)
        SELECT id, ${sibling} FROM users WHERE id = ${userId} ON CONFLICT DO NOTHING`,
  );
}

/** The order as the site holding `key` sends it, for a user who has signed in through that site. */
export async function placeOrder(
  t: TestApp,
  body: ReturnType<typeof orderBody>,
  key = HOSTING_KEY,
) {
  await introduceToSibling(t, body.userId, key === LAUNCHER_KEY ? 'launcher' : 'hosting');
  return t.app.inject({
    method: 'POST',
    url: '/serversms/api/Sibling/orders',
    headers: { 'x-api-key': key },
    payload: body,
  });
}
