import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_API,
  addressSequence,
  proveSession,
  turnOnAuthenticator,
} from '../../../test/support/auth-helpers.js';
import {
  createSignedInUser,
  createUser,
  DEFAULT_PASSWORD,
  latestCodeTo,
  lettersTo,
  signIn,
} from '../../../test/support/fixtures.js';
import { securityEventsOf } from '../../../test/support/security-log.js';
import {
  HOSTING_KEY,
  introduceToSibling,
  orderBody,
  placeOrder,
  SIBLING_CONFIG,
} from '../../../test/support/sibling-sites.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { balancesOf, createWalletTestApp, fundUser } from '../../../test/support/wallet.js';

const API = `${AUTH_API}/account-data`;
const DAY_MS = 24 * 60 * 60_000;
const nextIp = addressSequence('10.74');

let t: TestApp;

beforeAll(async () => {
  t = await createWalletTestApp({
    config: { ...SIBLING_CONFIG, UPLOAD_DIR: mkdtempSync(path.join(tmpdir(), 'portal-erase-')) },
  });
});

type Headers = Record<string, string>;

const exportData = (headers: Headers) =>
  t.app.inject({ method: 'GET', url: `${API}/export`, headers });
const scheduleDeletion = (headers: Headers) =>
  t.app.inject({ method: 'POST', url: `${API}/deletion`, headers, remoteAddress: nextIp() });
const deletionStatus = (headers: Headers) =>
  t.app.inject({ method: 'GET', url: `${API}/deletion`, headers });
const cancelByLink = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: `${API}/deletion/cancel`,
    payload: { token },
    remoteAddress: nextIp(),
  });
const login = (usernameOrEmail: string) =>
  t.app.inject({
    method: 'POST',
    url: `${AUTH_API}/login`,
    payload: { usernameOrEmail, password: DEFAULT_PASSWORD },
    remoteAddress: nextIp(),
  });

/** The cancel link's token from the newest «аккаунт будет удалён» letter to the address. */
async function cancelTokenFor(email: string) {
  const letter = (await lettersTo(t, email)).find((each) => each.subject.includes('будет удалён'));
  const token = /cancel-deletion\?token=([A-Za-z0-9_-]+)/.exec(letter?.text ?? '')?.[1];
  if (!token) throw new Error(`no cancel link to ${email}`);
  return token;
}

/** A user with a proven session, ready to export or to ask for deletion. */
async function provenUser(overrides: Parameters<typeof createUser>[1] = {}) {
  return createSignedInUser(t, overrides, { isProven: true });
}

describe('«Скачать мои данные»', () => {
  it('needs a fresh proof of the owner', async () => {
    const { headers } = await createSignedInUser(t);
    const answer = await exportData(headers);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ reason: 'proof_required' });
  });

  it('downloads one JSON file with every part and no secret, and logs the export', async () => {
    const { user, headers } = await createSignedInUser(t, {
      userName: 'export_me',
      telegramId: 777_000_111,
      yandexId: 'yandex-export-1',
      phone: '+79990001122',
    });
    await turnOnAuthenticator(t, headers);
    await fundUser(t, user.id, { points: 30 });
    await proveSession(t, headers);

    const answer = await exportData(headers);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="moi-dannye-export_me-${t.clock.now().toISOString().slice(0, 10)}.json"`,
    );
    const file = answer.json();
    expect(Object.keys(file)).toEqual([
      'format',
      'exportedAt',
      'profile',
      'linkedAccounts',
      'sessions',
      'passkeys',
      'securityLog',
      'payments',
      'ledger',
      'services',
    ]);
    expect(file.profile).toMatchObject({
      id: user.id,
      email: user.email,
      userName: 'export_me',
      phone: '+79990001122',
      isTwoFactorEnabled: true,
      balance: { kopecks: 0, points: 30 },
    });
    expect(file.linkedAccounts).toEqual({
      telegram: { id: 777_000_111 },
      yandex: { id: 'yandex-export-1' },
    });
    expect(file.sessions).toHaveLength(1);
    expect(file.passkeys).toEqual([]);
    expect(file.ledger).toHaveLength(1);
    expect(file.securityLog.map((event: { kind: string }) => event.kind)).toContain(
      'two_factor_enabled',
    );

    // No secret of any kind: the hash, the authenticator's secret, recovery codes, token hashes.
    const text = answer.body;
    expect(text).not.toMatch(/\$argon2/);
    expect(text).not.toMatch(/passwordHash|password_hash|secret|tokenHash|token_hash|codeHash/i);
    const rows = await t.database.db.execute(
      sql`SELECT s.token_hash FROM sessions s WHERE s.user_id = ${user.id}
          UNION ALL SELECT code_hash FROM two_factor_recovery_codes WHERE user_id = ${user.id}
          UNION ALL SELECT secret_sealed FROM two_factor_authenticators WHERE user_id = ${user.id}`,
    );
    for (const row of (rows as unknown as { rows: Record<string, string>[] }).rows) {
      for (const value of Object.values(row)) expect(text).not.toContain(value);
    }

    const kinds = (await securityEventsOf(t, user.id)).map((event) => event.kind);
    expect(kinds).toContain('data_exported');
  });

  it('streams an account with thousands of ledger entries whole, page after page', async () => {
    const { user, headers } = await provenUser();
    const entries = 3_250;
    await t.database.db.execute(sql`
      INSERT INTO ledger_entries (user_id, currency, amount, kind, description, idempotency_key, created_at)
      SELECT ${user.id}, 'points', 1, 'adjustment', 'Тестовое начисление', ${user.id} || ':' || n,
             ${t.clock.now().toISOString()}::timestamptz - n * interval '1 second'
      FROM generate_series(1, ${entries}) AS n`);
    const answer = await exportData(headers);
    expect(answer.statusCode).toBe(200);
    const { ledger } = answer.json();
    expect(ledger).toHaveLength(entries);
    expect(new Set(ledger.map((entry: { id: string }) => entry.id)).size).toBe(entries);
    // Oldest first, as the keyset pages are read.
    expect(Date.parse(ledger[0].createdAt)).toBeLessThan(Date.parse(ledger.at(-1).createdAt));
  });
});

describe('«Удалить аккаунт»: refusals', () => {
  it('needs a fresh proof of the owner', async () => {
    const { headers } = await createSignedInUser(t);
    expect((await scheduleDeletion(headers)).statusCode).toBe(403);
  });

  it('is refused while roubles remain on the balance, saying what to do', async () => {
    const { user, headers } = await provenUser();
    await fundUser(t, user.id, { kopecks: 100 });
    const answer = await scheduleDeletion(headers);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toMatch(/рубли.*поддержку/);
    expect((await deletionStatus(headers)).json()).toEqual({
      dueAt: null,
      isCancelledBySignIn: false,
    });
  });

  it('says why before it asks for a proof: roubles left answer 409, not 403', async () => {
    const { user, headers } = await createSignedInUser(t);
    await fundUser(t, user.id, { kopecks: 100 });
    const answer = await scheduleDeletion(headers);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toMatch(/рубли.*поддержку/);
  });

  it('is refused while a paid service runs', async () => {
    const { user, headers } = await provenUser();
    await fundUser(t, user.id, { kopecks: 1790_00 });
    expect((await placeOrder(t, orderBody(user.id, { price: 1790 }))).statusCode).toBe(200);
    expect((await balancesOf(t, user.id)).kopecks).toBe(0);
    const answer = await scheduleDeletion(headers);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toMatch(/услуги/);
  });

  it('is refused while a top-up is in progress', async () => {
    const { user, headers } = await provenUser();
    await t.database.db.execute(sql`
      INSERT INTO payments (user_id, method, amount_kopecks, provider, status)
      VALUES (${user.id}, 'card', 50000, 'sandbox', 'NEW')`);
    const answer = await scheduleDeletion(headers);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toMatch(/пополнение/);
  });

  it('is allowed with points only (they are lost, the web app says so first)', async () => {
    const { user, headers } = await provenUser();
    await fundUser(t, user.id, { points: 500 });
    expect((await scheduleDeletion(headers)).statusCode).toBe(200);
  });
});

describe('«Удалить аккаунт»: scheduled, cancelled', () => {
  it('schedules for 7 days, ends every session, logs it and mails a cancel link', async () => {
    const { user, headers } = await provenUser();
    const other = await signIn(t, user.id);
    const answer = await scheduleDeletion(headers);
    expect(answer.statusCode).toBe(200);
    expect(Date.parse(answer.json().dueAt)).toBe(t.clock.now().getTime() + 7 * DAY_MS);
    // Both sessions ended: the one that asked too.
    expect((await deletionStatus(headers)).statusCode).toBe(401);
    expect((await deletionStatus(other.headers)).statusCode).toBe(401);
    const kinds = (await securityEventsOf(t, user.id)).map((event) => event.kind);
    expect(kinds).toContain('deletion_scheduled');
    await cancelTokenFor(user.email);
  });

  it('cancels once through the letter’s link, even when it is used 100 times at once', async () => {
    const { user, headers } = await provenUser();
    await scheduleDeletion(headers);
    const token = await cancelTokenFor(user.email);
    const answers = await Promise.all(Array.from({ length: 100 }, () => cancelByLink(token)));
    const statuses = answers.map((each) => each.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(99);
    expect(answers.find((each) => each.statusCode === 404)!.json().message).toMatch(/войдите/);
    const cancelled = (await lettersTo(t, user.email)).filter((letter) =>
      letter.subject.includes('удаление аккаунта отменено'),
    );
    expect(cancelled).toHaveLength(1);
    const events = (await securityEventsOf(t, user.id)).filter(
      (event) => event.kind === 'deletion_cancelled',
    );
    expect(events).toHaveLength(1);
    // Nothing is erased afterwards.
    t.clock.advance(8 * DAY_MS);
    await t.app.deps.accountDeletion.eraseDue();
    expect((await login(user.email)).statusCode).toBe(200);
  });

  it('may be asked for again after a cancel; only the newest letter’s link works', async () => {
    const { user, headers } = await provenUser();
    await scheduleDeletion(headers);
    const first = await cancelTokenFor(user.email);
    expect((await cancelByLink(first)).statusCode).toBe(200);
    const again = await signIn(t, user.id, { isProven: true });
    expect((await scheduleDeletion(again.headers)).statusCode).toBe(200);
    const second = await cancelTokenFor(user.email);
    expect(second).not.toBe(first);
    expect((await cancelByLink(first)).statusCode).toBe(404);
    expect((await cancelByLink(second)).statusCode).toBe(200);
  });

  it('refuses a made-up token', async () => {
    expect((await cancelByLink('A'.repeat(43))).statusCode).toBe(404);
  });

  it('a sign-in cancels it, tells the owner once, and mails them', async () => {
    const { user, headers } = await provenUser();
    await scheduleDeletion(headers);
    const signedIn = await login(user.userName);
    expect(signedIn.statusCode).toBe(200);
    const fresh = { authorization: `Bearer ${signedIn.json().token}` };
    expect((await deletionStatus(fresh)).json()).toEqual({
      dueAt: null,
      isCancelledBySignIn: true,
    });
    const seen = await t.app.inject({
      method: 'POST',
      url: `${API}/deletion/notice-seen`,
      headers: fresh,
    });
    expect(seen.statusCode).toBe(204);
    expect((await deletionStatus(fresh)).json().isCancelledBySignIn).toBe(false);
    const [letter] = await lettersTo(t, user.email);
    expect(letter?.subject).toContain('удаление аккаунта отменено');
    expect(letter?.text).toContain('выполнен вход');
    // The letter's link no longer works.
    expect((await cancelByLink(await cancelTokenFor(user.email))).statusCode).toBe(404);
  });
});

describe('«Удалить аккаунт»: erased after 7 days', () => {
  const PERSONAL = {
    firstName: 'Аглая',
    lastName: 'Стирательная',
    middleName: 'Ильинична',
    phone: '+79995550077',
    telegramId: 555_123_987,
    yandexId: 'yandex-erase-42',
  };
  const USER_AGENT = 'EraseMeBrowser/9.9';
  const IP = '203.0.113.77';

  /** Every value the erased account must not leave behind, anywhere. */
  async function remainsOf(user: { id: string; email: string; userName: string }) {
    const needles = [
      user.email,
      user.userName,
      PERSONAL.firstName,
      PERSONAL.lastName,
      PERSONAL.middleName,
      PERSONAL.phone,
      PERSONAL.yandexId,
      String(PERSONAL.telegramId),
      USER_AGENT,
      IP,
    ];
    // Tables that keep the account's id after the erasure: money records and the tombstone.
    const keepsId = new Set([
      'users',
      'ledger_entries',
      'payments',
      'services',
      'service_orders',
      'receipts',
    ]);
    const columns = (await t.database.db.execute(sql`
      SELECT table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
      ORDER BY table_name, ordinal_position`)) as unknown as {
      rows: { table_name: string; column_name: string; data_type: string }[];
    };
    const found: string[] = [];
    for (const { table_name: table, column_name: column, data_type: type } of columns.rows) {
      const target = sql.raw(`"${table}"."${column}"`);
      const from = sql.raw(`"${table}"`);
      const isText = ['text', 'jsonb', 'json', 'character varying', 'bigint'].includes(type);
      if (isText) {
        for (const needle of needles) {
          const [row] = (
            (await t.database.db.execute(
              sql`SELECT count(*)::int AS n FROM ${from} WHERE ${target}::text ILIKE ${`%${needle}%`}`,
            )) as unknown as { rows: { n: number }[] }
          ).rows;
          if (row!.n > 0) found.push(`${table}.${column} holds ${needle}`);
        }
      }
      if (!keepsId.has(table) && (type === 'uuid' || isText)) {
        const [row] = (
          (await t.database.db.execute(
            sql`SELECT count(*)::int AS n FROM ${from} WHERE ${target}::text ILIKE ${`%${user.id}%`}`,
          )) as unknown as { rows: { n: number }[] }
        ).rows;
        if (row!.n > 0) found.push(`${table}.${column} holds the account's id`);
      }
    }
    return found;
  }

  it('erases every personal trace, keeps the money records, and frees the e-mail', async () => {
    const user = await createUser(t, PERSONAL);
    const session = await signIn(t, user.id, { userAgent: USER_AGENT, ipAddress: IP });
    // A history: letters, a code, 2FA, the log, a sibling, an avatar, money in and out.
    await turnOnAuthenticator(t, session.headers);
    await t.app.inject({
      method: 'POST',
      url: `${AUTH_API}/proof/email-code`,
      headers: { ...session.headers, 'user-agent': USER_AGENT },
    });
    await latestCodeTo(t, user.email);
    await fundUser(t, user.id, { kopecks: 1790_00, points: 40 });
    await placeOrder(t, orderBody(user.id, { price: 1790 }));
    await introduceToSibling(t, user.id, 'launcher');
    // The service has run out: nothing paid is running any more.
    await t.database.db.execute(
      sql`UPDATE services SET status = 'suspended' WHERE user_id = ${user.id}`,
    );
    const paid = (await t.database.db.execute(sql`
      INSERT INTO payments (user_id, method, amount_kopecks, provider, status, credited_at)
      VALUES (${user.id}, 'card', 179000, 'sandbox', 'CONFIRMED', now())
      RETURNING id::text AS id`)) as unknown as { rows: { id: string }[] };
    const paymentId = paid.rows[0]!.id;
    // Its receipt as Init sent it (the sandbox's copy) and as the fiscalization reported it.
    const receipt = JSON.stringify({ Email: user.email, Phone: PERSONAL.phone, Items: [] });
    await t.database.db.execute(sql`
      INSERT INTO sandbox_payments (terminal_key, order_id, amount_kopecks, current_amount_kopecks,
        checkout_token, receipt)
      VALUES ('erase-terminal', ${paymentId}, 179000, 179000, ${`erase-${paymentId}`},
        ${receipt}::jsonb)`);
    await t.database.db.execute(sql`
      INSERT INTO receipts (user_id, payment_id, type, amount_kopecks, item_name, vat, fn_number,
        fiscal_document_number, fiscal_document_attribute, receipt_datetime, raw)
      VALUES (${user.id}, ${paymentId}, 'income', 179000, 'Пополнение баланса', 'none',
        '9999078900012345', 77, 1234567890, now(),
        ${JSON.stringify({ Status: 'RECEIPT', Receipt: JSON.parse(receipt) })}::jsonb)`);
    // A passkey and a challenge handed out for another one.
    await t.database.db.execute(sql`
      INSERT INTO passkeys (user_id, credential_id, public_key, name, created_at)
      VALUES (${user.id}, 'erased-credential', 'key', 'Ноутбук', now())`);
    await t.database.db.execute(sql`
      INSERT INTO passkey_challenges (challenge, purpose, user_id, expires_at)
      VALUES ('erased-challenge', 'registration', ${user.id}, now() + interval '5 minutes')`);
    const key = `${'a'.repeat(32)}.png`;
    const address = await t.app.deps.storage.put(key, Buffer.from('png'), 'image/png');
    await t.database.db.execute(sql`
      INSERT INTO uploads (key, address, user_id, content_type, size_bytes)
      VALUES (${key}, ${address}, ${user.id}, 'image/png', 3)`);
    await t.database.db.execute(
      sql`UPDATE users SET avatar_url = ${address} WHERE id = ${user.id}`,
    );
    const before = await balancesOf(t, user.id);

    await proveSession(t, session.headers);
    expect((await scheduleDeletion(session.headers)).statusCode).toBe(200);

    // Not yet: six days later nothing happens.
    t.clock.advance(6 * DAY_MS);
    expect(await t.app.deps.accountDeletion.eraseDue()).toBe(0);
    t.clock.advance(DAY_MS + 1_000);
    // Two processes running the job at once erase the account once.
    const runs = await Promise.all([
      t.app.deps.accountDeletion.eraseDue(),
      t.app.deps.accountDeletion.eraseDue(),
    ]);
    expect(runs[0]! + runs[1]!).toBe(1);
    expect(await t.app.deps.accountDeletion.eraseDue()).toBe(0);

    expect(await remainsOf(user)).toEqual([]);
    expect(existsSync(path.join(t.config.UPLOAD_DIR, key))).toBe(false);
    // The money records stay, with the same sums: the ledger still equals the balances.
    const after = await balancesOf(t, user.id);
    expect(after).toEqual(before);
    expect(after.ledger).toEqual(before.ledger);
    // The tombstone cannot be signed into, by anything it used to be called.
    expect((await login(user.email)).statusCode).not.toBe(200);
    expect((await login(`deleted:${user.id}`)).statusCode).not.toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: `${AUTH_API}/user`, headers: session.headers }))
        .statusCode,
    ).toBe(401);

    // Sibling sites: 404 for the user once erased, whatever they knew of them.
    for (const url of [`/users/${user.id}/wallet`, `/users/${user.id}/services`]) {
      const answer = await t.app.inject({
        method: 'GET',
        url: `/serversms/api/Sibling${url}`,
        headers: { 'x-api-key': HOSTING_KEY },
      });
      expect(answer.statusCode).toBe(404);
    }
    const order = await t.app.inject({
      method: 'POST',
      url: '/serversms/api/Sibling/orders',
      headers: { 'x-api-key': HOSTING_KEY },
      payload: orderBody(user.id, { price: 1 }),
    });
    expect(order.statusCode).toBe(404);

    // The same e-mail and username register a new account.
    const registered = await t.app.inject({
      method: 'POST',
      url: `${AUTH_API}/register`,
      payload: {
        email: user.email,
        password: 'Zx9-Plover-Harp',
        username: user.userName,
        firstName: 'Новый',
        lastName: 'Владелец',
      },
      remoteAddress: nextIp(),
    });
    expect(registered.statusCode).toBe(200);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `${AUTH_API}/verify-registration`,
      payload: { email: user.email, code: await latestCodeTo(t, user.email) },
      remoteAddress: nextIp(),
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().user?.id ?? confirmed.json().userId).not.toBe(user.id);
  });

  it('siblings keep working while the deletion only waits', async () => {
    const { user, headers } = await provenUser();
    await introduceToSibling(t, user.id);
    await scheduleDeletion(headers);
    const answer = await t.app.inject({
      method: 'GET',
      url: `/serversms/api/Sibling/users/${user.id}/wallet`,
      headers: { 'x-api-key': HOSTING_KEY },
    });
    expect(answer.statusCode).toBe(200);
  });
});
