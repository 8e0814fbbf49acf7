/**
 * The one sign-in policy (sign-in-policy.ts), through every way in: for each kind of second
 * factor an account may have, the password, Yandex ID and a passkey alone ask what the table
 * says, and the first two ask exactly the same. A passkey alone verified its user, so it asks
 * nothing more; to sign in with one, each account has a passkey besides its own configuration.
 * What goes with letting somebody in (a waiting deletion cancelled, a new device alerted, a
 * blocked account refused) is checked through each way in as well.
 */
import { ACCOUNT_BLOCKED, CODE_WRONG } from '@portal/contracts/messages';
import { PASSKEY_MESSAGES } from '@portal/contracts/passkeys';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AUTH_API,
  addPasskey,
  addressSequence,
  nextTotpStep,
  otherCode,
  proveSession,
} from '../../../test/support/auth-helpers.js';
import { type FakeYandexAccount, startFakeYandex } from '../../../test/support/fake-yandex.js';
import { createSignedInUser, DEFAULT_PASSWORD, lettersTo } from '../../../test/support/fixtures.js';
import { securityEventsOf } from '../../../test/support/security-log.js';
import { PORTAL, type SoftwarePasskey } from '../../../test/support/software-authenticator.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { users } from '../accounts/schema.js';
import { totpCode } from '../two-factor/index.js';
import { loginThrottles, sessions } from './schema.js';
import { secondStepFor } from './sign-in-policy.js';

const fake = await startFakeYandex();
afterAll(() => fake.close());
const testApp = await createTestApp({ config: fake.config });
const { app, clock, database } = testApp;
const nextIp = addressSequence('10.35');

type Headers = Record<string, string>;
type Configured =
  | 'none'
  | 'authenticator'
  | 'recovery code'
  | 'passkey'
  | 'authenticator + passkey';
type Way = 'password' | 'yandex' | 'passkey';
type Ask = 'nothing' | 'code' | 'passkey';

function call(url: string, payload: object = {}, headers: Headers = {}) {
  return app.inject({ method: 'POST', url, payload, headers, remoteAddress: nextIp() });
}

// ------------------------------------------------------------------ accounts

let nextYandexId = 1;

/** An account with a password, a linked Yandex ID and the configured second factors. */
async function accountWith(configured: Configured, withPasskey: boolean) {
  const yandex: FakeYandexAccount = {
    id: `${7_350_000 + nextYandexId++}`,
    login: `policy${nextYandexId}`,
    default_email: `policy${nextYandexId}@yandex.ru`,
  };
  const { user, headers } = await createSignedInUser(testApp, { yandexId: yandex.id });
  let secret: string | undefined;
  let recoveryCodes: string[] = [];
  if (configured.startsWith('authenticator') || configured === 'recovery code') {
    await proveSession(testApp, headers);
    const enable = await call(`${AUTH_API}/2fa/enable`, {}, headers);
    secret = enable.json<{ secret: string }>().secret;
    const verified = await call(
      `${AUTH_API}/2fa/verify`,
      { code: totpCode(secret, clock.now()) },
      headers,
    );
    expect(verified.statusCode, verified.body).toBe(200);
    recoveryCodes = verified.json<{ recoveryCodes: string[] }>().recoveryCodes;
    nextTotpStep(clock);
  }
  let key: SoftwarePasskey | undefined;
  if (configured.endsWith('passkey') || withPasskey) {
    key = await addPasskey(testApp, headers);
  }
  return { user, headers, yandex, secret, recoveryCodes, key };
}
type Account = Awaited<ReturnType<typeof accountWith>>;

// ------------------------------------------------------------------ the ways in

/** A way in: its first factor, then (`second`) the same sign-in with the second step's answer. */
type Answer = Awaited<ReturnType<typeof call>>;
interface Attempt {
  first(): Promise<Answer>;
  second(answer: { twoFactorCode?: string; passkey?: unknown }): Promise<Answer>;
}

/** Each way is taken from the browser `device` (its headers: the user agent), if given. */
function byPassword(account: Account, device: Headers = {}): Attempt {
  const body = { usernameOrEmail: account.user.userName, password: DEFAULT_PASSWORD };
  return {
    first: () => call(`${AUTH_API}/login`, body, device),
    second: (answer) => call(`${AUTH_API}/login`, { ...body, ...answer }, device),
  };
}

async function byYandex(account: Account, device: Headers = {}): Promise<Attempt> {
  fake.signInAs(account.yandex);
  const started = await app.inject({ method: 'GET', url: '/auth/yandex/getUrl' });
  const cookie = String(started.headers['set-cookie']).split(';')[0]!;
  const authorize = await fetch(started.json().data.url, { redirect: 'manual' });
  const back = new URL(authorize.headers.get('location')!);
  const query = new URLSearchParams(back.hash.slice(1)).toString();
  const returned = await app.inject({
    method: 'GET',
    url: `/auth/yandex/callback?${query}`,
    headers: { cookie },
  });
  const code = new URL(String(returned.headers.location)).searchParams.get('yandexCode');
  expect(code).toBeTruthy();
  const exchange = (extra: object) =>
    call('/auth/yandex/exchange', { code, ...extra }, { cookie, ...device });
  return { first: () => exchange({}), second: (answer) => exchange(answer) };
}

function byPasskey(account: Account, device: Headers = {}): Attempt {
  const signIn = async () => {
    const options = await call(`${AUTH_API}/passkeys/sign-in/options`);
    return call(
      `${AUTH_API}/passkeys/sign-in`,
      { response: account.key!.get(options.json().options, PORTAL) },
      device,
    );
  };
  return { first: signIn, second: signIn };
}

const waysIn: Record<Way, (account: Account, device?: Headers) => Attempt | Promise<Attempt>> = {
  password: byPassword,
  yandex: byYandex,
  passkey: byPasskey,
};

/** What an answer asks for. */
function askOf(answer: Answer): Ask {
  expect(answer.statusCode, JSON.stringify(answer.json())).toBe(200);
  const body = answer.json();
  if ('token' in body) return 'nothing';
  expect(body.requiresTwoFactor).toBe(true);
  return body.passkeyOptions ? 'passkey' : 'code';
}

/** The second step's answer the configured factor gives. */
function secondStepAnswer(
  configured: Configured,
  account: Account,
  asked: { passkeyOptions?: Parameters<SoftwarePasskey['get']>[0] },
) {
  if (configured === 'recovery code') return { twoFactorCode: account.recoveryCodes[0]! };
  if (asked.passkeyOptions) return { passkey: account.key!.get(asked.passkeyOptions, PORTAL) };
  nextTotpStep(clock);
  return { twoFactorCode: totpCode(account.secret!, clock.now()) };
}

// ------------------------------------------------------------------ the table

const CONFIGURED: Configured[] = [
  'none',
  'authenticator',
  'recovery code',
  'passkey',
  'authenticator + passkey',
];

/** What each way asks, and the `amr` and second factor its `sign_in` entry records. */
const TABLE: Record<Way, Record<Configured, { ask: Ask; amr: string[]; factor?: string }>> = {
  password: {
    none: { ask: 'nothing', amr: ['pwd'] },
    authenticator: { ask: 'code', amr: ['pwd', 'otp'], factor: 'authenticator' },
    'recovery code': { ask: 'code', amr: ['pwd', 'otp'], factor: 'recovery_code' },
    passkey: { ask: 'passkey', amr: ['pwd', 'hwk'], factor: 'passkey' },
    'authenticator + passkey': { ask: 'code', amr: ['pwd', 'otp'], factor: 'authenticator' },
  },
  yandex: {
    none: { ask: 'nothing', amr: ['ext'] },
    authenticator: { ask: 'code', amr: ['ext', 'otp'], factor: 'authenticator' },
    'recovery code': { ask: 'code', amr: ['ext', 'otp'], factor: 'recovery_code' },
    passkey: { ask: 'passkey', amr: ['ext', 'hwk'], factor: 'passkey' },
    'authenticator + passkey': { ask: 'code', amr: ['ext', 'otp'], factor: 'authenticator' },
  },
  passkey: {
    none: { ask: 'nothing', amr: ['hwk', 'mfa'] },
    authenticator: { ask: 'nothing', amr: ['hwk', 'mfa'] },
    'recovery code': { ask: 'nothing', amr: ['hwk', 'mfa'] },
    passkey: { ask: 'nothing', amr: ['hwk', 'mfa'] },
    'authenticator + passkey': { ask: 'nothing', amr: ['hwk', 'mfa'] },
  },
};

const cases = (['password', 'yandex', 'passkey'] as const).flatMap((way) =>
  CONFIGURED.map((configured) => [way, configured] as const),
);

describe('every way in asks what the one policy asks', () => {
  it.each(cases)('%s sign-in of an account with %s', async (way, configured) => {
    const expected = TABLE[way][configured];
    const account = await accountWith(configured, way === 'passkey');
    const attempt = await waysIn[way](account);

    const first = await attempt.first();
    const ask = askOf(first);
    expect(ask).toBe(expected.ask);
    let signedIn = first;
    if (ask !== 'nothing') {
      // Nothing was created while the second step is awaited.
      const live = await database.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, account.user.id));
      signedIn = await attempt.second(secondStepAnswer(configured, account, first.json()));
      expect(signedIn.statusCode, JSON.stringify(signedIn.json())).toBe(200);
      const after = await database.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, account.user.id));
      expect(after).toHaveLength(live.length + 1);
    }
    expect(signedIn.json()).toEqual({ token: expect.any(String), userId: account.user.id });
    const [entry] = await securityEventsOf(testApp, account.user.id);
    expect(entry).toMatchObject({ kind: 'sign_in' });
    expect(entry!.details).toEqual({
      method: way,
      amr: expected.amr,
      ...(expected.factor ? { secondFactor: expected.factor } : {}),
    });
  });

  it('has Yandex ID ask exactly what the password asks, for every configuration', () => {
    for (const configured of CONFIGURED) {
      expect(TABLE.yandex[configured].ask).toBe(TABLE.password[configured].ask);
    }
  });

  it('decides by one rule, which the table follows', () => {
    for (const [way, configured] of cases) {
      const account = {
        hasAuthenticator: configured.startsWith('authenticator') || configured === 'recovery code',
        hasPasskey: configured.endsWith('passkey') || way === 'passkey',
      };
      const step = secondStepFor(way, account);
      expect(step === 'none' ? 'nothing' : step).toBe(TABLE[way][configured].ask);
    }
  });
});

describe('the passkey step of a Yandex ID sign-in', () => {
  it('refuses another passkey, counts it in the account lock, and the flow waits for the right one', async () => {
    const account = await accountWith('passkey', false);
    const stranger = await accountWith('passkey', false);
    const attempt = await byYandex(account);
    const asked = (await attempt.first()).json();
    expect(asked.passkeyOptions.allowCredentials).toEqual([
      expect.objectContaining({ id: account.key!.id }),
    ]);
    const wrong = await attempt.second({
      passkey: stranger.key!.get(asked.passkeyOptions, PORTAL),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      message: PASSKEY_MESSAGES.secondFactorWrong,
      errors: { passkey: [PASSKEY_MESSAGES.secondFactorWrong] },
    });
    const [lock] = await database.db
      .select()
      .from(loginThrottles)
      .where(eq(loginThrottles.subject, `user:${account.user.id}`));
    expect(lock?.failures).toBe(1);
    const failed = await securityEventsOf(testApp, account.user.id);
    expect(failed.map((event) => event.kind)).toContain('sign_in_failed');

    // The challenge was spent by the wrong answer: a fresh one is asked, then it signs in.
    const again = (await attempt.first()).json();
    const right = await attempt.second({ passkey: account.key!.get(again.passkeyOptions, PORTAL) });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().userId).toBe(account.user.id);
  });

  it('answers a wrong authenticator code under its field, as before', async () => {
    const account = await accountWith('authenticator', false);
    const attempt = await byYandex(account);
    expect(askOf(await attempt.first())).toBe('code');
    const wrong = await attempt.second({
      twoFactorCode: otherCode(totpCode(account.secret!, clock.now())),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: CODE_WRONG, errors: { twoFactorCode: [CODE_WRONG] } });
  });
});

/** A browser the accounts above never signed in from. */
const NEW_DEVICE = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
};

describe('what goes with letting somebody in, the same for every way in', () => {
  it.each(['password', 'yandex', 'passkey'] as const)(
    '%s sign-in cancels a waiting deletion and alerts a new device; a blocked account gets no session',
    async (way) => {
      const account = await accountWith('none', way === 'passkey');
      // A sign-in from the usual browser first: the account's first is no new device.
      expect(askOf(await (await waysIn[way](account)).first())).toBe('nothing');
      await proveSession(testApp, account.headers);
      const scheduled = await call(`${AUTH_API}/account-data/deletion`, {}, account.headers);
      expect(scheduled.statusCode, scheduled.body).toBe(200);

      const signedIn = await (await waysIn[way](account, NEW_DEVICE)).first();
      expect(askOf(signedIn)).toBe('nothing');
      const status = await app.inject({
        method: 'GET',
        url: `${AUTH_API}/account-data/deletion`,
        headers: { authorization: `Bearer ${signedIn.json().token}` },
      });
      expect(status.json()).toEqual({ dueAt: null, isCancelledBySignIn: true });
      const signIns = (await securityEventsOf(testApp, account.user.id))
        .filter((event) => event.kind === 'sign_in')
        .map((event) => event.details);
      expect(signIns).toHaveLength(2);
      expect(signIns).toContainEqual(expect.objectContaining({ method: way, isNewDevice: true }));
      const alerts = (await lettersTo(testApp, account.user.email)).filter((letter) =>
        /вход с нового устройства/.test(letter.subject),
      );
      expect(alerts).toHaveLength(1);

      await database.db
        .update(users)
        .set({ blockedAt: clock.now(), blockedReason: 'проверка' })
        .where(eq(users.id, account.user.id));
      const live = await database.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, account.user.id));
      const refused = await (await waysIn[way](account)).first();
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        message: `${ACCOUNT_BLOCKED}: ${testApp.config.SUPPORT_URL}`,
        reason: 'account_blocked',
      });
      const after = await database.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, account.user.id));
      expect(after).toHaveLength(live.length);
    },
  );
});
