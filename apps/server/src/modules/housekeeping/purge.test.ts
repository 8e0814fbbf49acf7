import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { createUser } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { purgeExpired } from './purge.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const DAY = 24 * 60 * 60_000;

async function count(table: string, userId: string, column = 'user_id') {
  const result = (await t.database.db.execute(
    sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${userId}`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0]!.n;
}

it('purges spent and expired rows past their retention and keeps the rest', async () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  const user = await createUser(t);
  const db = t.database.db;

  // For each table: one row long past mattering, one that still matters.
  for (const [subject, days] of [
    ['old', 2],
    ['new', 0.01],
  ] as const) {
    await db.execute(sql`INSERT INTO one_time_codes
      (purpose, subject, user_id, code_hash, expires_at, sent_at, hour_started_at)
      VALUES ('test', ${`${subject}-${user.id}`}, ${user.id}, 'h', ${ago(days)}, ${ago(days)}, ${ago(days)})`);
    await db.execute(sql`INSERT INTO login_throttles (subject, failures, last_failure_at)
      VALUES (${`user:${subject}-${user.id}`}, 3, ${ago(days)})`);
    await db.execute(sql`INSERT INTO hand_off_codes (code_hash, user_id, origin, expires_at)
      VALUES (${`${subject}-${user.id}`}, ${user.id}, 'https://panel.example.com', ${ago(days)})`);
    await db.execute(sql`INSERT INTO telegram_link_tokens (token_hash, user_id, expires_at)
      VALUES (${`${subject}-${user.id}`}, ${user.id}, ${ago(days)})`);
    await db.execute(sql`INSERT INTO yandex_flows (flow_hash, user_id, expires_at)
      VALUES (${`${subject}-${user.id}`}, ${user.id}, ${ago(days)})`);
    await db.execute(sql`INSERT INTO mail_outbox (to_address, subject, text_body, html_body, status, created_at)
      VALUES (${user.email}, ${subject}, 't', 'h', 'sent', ${ago(days * 20)})`);
  }
  // The security log keeps a year: a day past it goes, a day short of it stays.
  for (const days of [366, 364]) {
    await db.execute(sql`INSERT INTO security_events (user_id, kind, occurred_at)
      VALUES (${user.id}, 'sign_in', ${ago(days)})`);
  }
  // A letter not delivered yet is kept however old it is.
  await db.execute(sql`INSERT INTO mail_outbox (to_address, subject, text_body, html_body, status, created_at)
    VALUES (${user.email}, 'pending', 't', 'h', 'pending', ${ago(90)})`);
  // A code letter that expired unsent goes after the same 30 days as a sent one.
  await db.execute(sql`INSERT INTO mail_outbox (to_address, subject, text_body, html_body, status, created_at)
    VALUES (${user.email}, 'expired', '', '', 'expired', ${ago(31)})`);
  // Passkey challenges never answered: one long expired, one still live.
  await db.execute(sql`INSERT INTO passkey_challenges (challenge, purpose, user_id, expires_at)
    VALUES ('old-challenge', 'registration', ${user.id}, ${ago(2)}),
           ('live-challenge', 'registration', ${user.id}, ${ago(-1)})`);
  // Sessions: revoked long ago, idle for two months, expired long ago; live and recently revoked.
  const session = (revoked: string | null, lastActivity: string, expires: string) =>
    db.execute(sql`INSERT INTO sessions (user_id, token_hash, last_activity_at, expires_at, revoked_at)
      VALUES (${user.id}, ${`${Math.random()}`}, ${lastActivity}, ${expires}, ${revoked})`);
  await session(ago(31), ago(31), ago(-60));
  await session(null, ago(61), ago(-29));
  await session(null, ago(40), ago(31));
  await session(null, ago(0), ago(-7));
  await session(ago(1), ago(1), ago(-6));

  const deleted = await purgeExpired(t.app.deps.dataOwners, db, now);
  expect(deleted).toMatchObject({
    one_time_codes: 1,
    login_throttles: 1,
    hand_off_codes: 1,
    telegram_link_tokens: 1,
    yandex_flows: 1,
    mail_outbox: 2,
    sessions: 3,
    security_events: 1,
    passkey_challenges: 1,
  });
  expect(await count('passkey_challenges', user.id)).toBe(1);
  expect(await count('one_time_codes', user.id)).toBe(1);
  expect(await count('hand_off_codes', user.id)).toBe(1);
  expect(await count('telegram_link_tokens', user.id)).toBe(1);
  expect(await count('yandex_flows', user.id)).toBe(1);
  expect(await count('sessions', user.id)).toBe(2);
  expect(await count('security_events', user.id)).toBe(1);
  expect(await count('mail_outbox', user.email, 'to_address')).toBe(2);
  expect(await count('login_throttles', `user:new-${user.id}`, 'subject')).toBe(1);

  // Nothing left to purge: a second run deletes nothing.
  expect(
    Object.values(await purgeExpired(t.app.deps.dataOwners, db, now)).every((n) => n === 0),
  ).toBe(true);
});
