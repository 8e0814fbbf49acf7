import { RECENT_PROOF_MINUTES } from '@portal/contracts/constants';
import { CODE_ATTEMPTS_EXHAUSTED, CODE_WRONG, PROOF_REQUIRED } from '@portal/contracts/messages';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  AUTH_API,
  addressSequence,
  nextTotpStep,
  otherCode,
  turnOnAuthenticator,
} from '../../../test/support/auth-helpers.js';
import { startFakeTelegramApi } from '../../../test/support/fake-telegram-api.js';
import { startFakeYandex } from '../../../test/support/fake-yandex.js';
import {
  createSignedInUser,
  DEFAULT_PASSWORD,
  latestCodeTo,
  lettersTo,
  signIn,
} from '../../../test/support/fixtures.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { verifyPassword } from '../auth/index.js';
import { loginThrottles, sessions } from '../auth/schema.js';
import { telegramLinkTokens } from '../telegram/schema.js';
import { totpCode } from '../two-factor/index.js';
import { twoFactorAuthenticators } from '../two-factor/schema.js';

vi.mock('../auth/passwords.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../auth/passwords.js')>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});

const telegram = await startFakeTelegramApi();
const yandex = await startFakeYandex();
afterAll(async () => {
  await telegram.close();
  await yandex.close();
});
const testApp = await createTestApp({
  config: {
    ...telegram.config,
    ...yandex.config,
  },
});
const { app, clock, database } = testApp;
const nextIp = addressSequence('10.63');
const WINDOW_MS = RECENT_PROOF_MINUTES * 60_000;
const PROOF_REFUSAL = { message: PROOF_REQUIRED, reason: 'proof_required' };

type Headers = Record<string, string>;

function prove(headers: Headers, payload: unknown) {
  return app.inject({
    method: 'POST',
    url: `${AUTH_API}/proof`,
    headers,
    payload: payload as object,
    remoteAddress: nextIp(),
  });
}

async function proofStatus(headers: Headers) {
  const response = await app.inject({ method: 'GET', url: `${AUTH_API}/proof`, headers });
  expect(response.statusCode).toBe(200);
  return response.json<{ methods: string[]; provenUntil: string | null }>();
}

async function provenAt(sessionId: string) {
  const [row] = await database.db
    .select({ provenAt: sessions.provenAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  return row?.provenAt ?? null;
}

async function accountFailures(userId: string) {
  const [row] = await database.db
    .select({ failures: loginThrottles.failures })
    .from(loginThrottles)
    .where(eq(loginThrottles.subject, `user:${userId}`));
  return row?.failures ?? 0;
}

function requestEmailCode(headers: Headers) {
  return app.inject({ method: 'POST', url: `${AUTH_API}/proof/email-code`, headers });
}

describe('POST Auth/proof', () => {
  it('takes the current password: this session, and no other, is proven for the window', async () => {
    const { user, headers, sessionId } = await createSignedInUser(testApp);
    const other = await signIn(testApp, user.id);
    expect(await proofStatus(headers)).toEqual({
      methods: ['password', 'email'],
      provenUntil: null,
    });

    const answer = await prove(headers, { password: DEFAULT_PASSWORD });
    expect(answer.statusCode).toBe(200);
    const until = new Date(clock.now().getTime() + WINDOW_MS).toISOString();
    expect(answer.json()).toEqual({ message: 'Подтверждено', provenUntil: until });
    expect(await provenAt(sessionId)).toEqual(clock.now());
    expect((await proofStatus(headers)).provenUntil).toBe(until);
    expect(await provenAt(other.sessionId)).toBeNull();
    expect((await proofStatus(other.headers)).provenUntil).toBeNull();

    clock.advance(WINDOW_MS);
    expect((await proofStatus(headers)).provenUntil).toBeNull();
  });

  it('refuses a wrong password with its field message, stamps nothing and counts the try', async () => {
    const { user, headers, sessionId } = await createSignedInUser(testApp);
    const answer = await prove(headers, { password: 'Wrong-Pass1' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      message: 'Неверный текущий пароль',
      errors: { password: ['Неверный текущий пароль'] },
    });
    expect(await provenAt(sessionId)).toBeNull();
    expect(await accountFailures(user.id)).toBe(1);
    // A right answer wipes the count, as a sign-in does.
    expect((await prove(headers, { password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    expect(await accountFailures(user.id)).toBe(0);
  });

  it('wants exactly one answer, and a session', async () => {
    const { headers } = await createSignedInUser(testApp);
    const none = await prove(headers, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ password: ['Введите текущий пароль'] });
    const two = await prove(headers, { password: DEFAULT_PASSWORD, emailCode: '123456' });
    expect(two.statusCode).toBe(400);
    expect(two.json().message).toBe(
      'Укажите что-то одно: пароль, код из приложения или код из письма',
    );
    expect((await prove({}, { password: DEFAULT_PASSWORD })).statusCode).toBe(401);
  });

  it("takes the authenticator's code or a recovery code; a used step is refused", async () => {
    const signedIn = await createSignedInUser(testApp);
    const secret = await turnOnAuthenticator(testApp, signedIn.headers);
    const fresh = await signIn(testApp, signedIn.user.id);
    expect((await proofStatus(fresh.headers)).methods).toEqual([
      'password',
      'authenticator',
      'email',
    ]);

    nextTotpStep(clock);
    const code = totpCode(secret, clock.now());
    expect((await prove(fresh.headers, { code: otherCode(code) })).statusCode).toBe(400);
    expect(await provenAt(fresh.sessionId)).toBeNull();
    expect((await prove(fresh.headers, { code })).statusCode).toBe(200);
    const replayed = await signIn(testApp, signedIn.user.id);
    const replay = await prove(replayed.headers, { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().errors).toEqual({ code: [CODE_WRONG] });
    expect(await provenAt(replayed.sessionId)).toBeNull();

    const codes = await app.inject({
      method: 'POST',
      url: `${AUTH_API}/2fa/recovery-codes`,
      headers: signedIn.headers,
      payload: { code: totpCode(secret, new Date(clock.now().getTime() + 30_000)) },
    });
    const [recovery] = codes.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect((await prove(replayed.headers, { code: recovery })).statusCode).toBe(200);
    // Spent with the proof.
    const spent = await signIn(testApp, signedIn.user.id);
    expect((await prove(spent.headers, { code: recovery })).statusCode).toBe(400);
  });

  it('takes a code mailed to the confirmed address, also from an account without a password', async () => {
    const { user, headers, sessionId } = await createSignedInUser(testApp, { passwordHash: null });
    expect(await proofStatus(headers)).toEqual({ methods: ['email'], provenUntil: null });
    // No password to guess: any password is wrong.
    expect((await prove(headers, { password: DEFAULT_PASSWORD })).statusCode).toBe(400);

    const sent = await requestEmailCode(headers);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ message: 'Код подтверждения отправлен на почту' });
    const [letter] = await lettersTo(testApp, user.email);
    expect(letter?.subject).toMatch(/код подтверждения/);
    const code = await latestCodeTo(testApp, user.email);

    const wrong = await prove(headers, { emailCode: otherCode(code) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ emailCode: [CODE_WRONG] });
    expect((await prove(headers, { emailCode: code })).statusCode).toBe(200);
    expect(await provenAt(sessionId)).toEqual(clock.now());
    // Single use.
    expect((await prove(headers, { emailCode: code })).statusCode).toBe(400);
  });

  it('keeps the resend countdown of mailed codes, and five tries a code', async () => {
    const { user, headers, sessionId } = await createSignedInUser(testApp);
    expect((await requestEmailCode(headers)).statusCode).toBe(200);
    const again = await requestEmailCode(headers);
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBeDefined();
    expect(await lettersTo(testApp, user.email)).toHaveLength(1);

    const code = await latestCodeTo(testApp, user.email);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await prove(headers, { emailCode: otherCode(code) })).statusCode).toBe(400);
    }
    const dead = await prove(headers, { emailCode: code });
    expect(dead.statusCode).toBe(400);
    expect(dead.json().message).toBe(CODE_ATTEMPTS_EXHAUSTED);
    expect(await provenAt(sessionId)).toBeNull();
    // Mailed codes have limits of their own; the password lock is not touched by them.
    expect(await accountFailures(user.id)).toBe(0);
  });
});

describe("the account's sign-in lock", () => {
  it('checks at most 10 of 100 parallel wrong passwords; then even the right one is refused', async () => {
    const { user, headers, sessionId } = await createSignedInUser(testApp);
    const checks = vi.mocked(verifyPassword);
    checks.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => prove(headers, { password: `Wrong-Pass${i}` })),
    );
    expect(checks).toHaveBeenCalledTimes(10);
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(90);

    checks.mockClear();
    const locked = await prove(headers, { password: DEFAULT_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect(checks).not.toHaveBeenCalled();
    expect(await provenAt(sessionId)).toBeNull();
    // The same lock guards sign-in.
    const login = await app.inject({
      method: 'POST',
      url: `${AUTH_API}/login`,
      payload: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
      remoteAddress: nextIp(),
    });
    expect(login.statusCode).toBe(429);
  });

  it('counts wrong authenticator codes too, and sign-in failures count against the proof', async () => {
    const signedIn = await createSignedInUser(testApp);
    const secret = await turnOnAuthenticator(testApp, signedIn.headers);
    const fresh = await signIn(testApp, signedIn.user.id);
    nextTotpStep(clock);
    const code = totpCode(secret, clock.now());
    for (let attempt = 0; attempt < 9; attempt++) {
      expect((await prove(fresh.headers, { code: otherCode(code) })).statusCode).toBe(400);
    }
    const login = await app.inject({
      method: 'POST',
      url: `${AUTH_API}/login`,
      payload: { usernameOrEmail: signedIn.user.userName, password: 'Wrong-Pass1' },
      remoteAddress: nextIp(),
    });
    expect(login.statusCode).toBe(401);
    expect((await prove(fresh.headers, { code })).statusCode).toBe(429);
    expect(await provenAt(fresh.sessionId)).toBeNull();
  });
});

/** A route that changes a factor: how to call it, and what it would have changed. */
type Guarded = {
  name: string;
  /** Prepares the account (as its owner, on a proven session of its own). */
  prepare?: (owner: Headers) => Promise<void>;
  call: (headers: Headers) => Promise<LightMyRequestResponse>;
  /** A picture of what the call changes, compared before and after a refusal. */
  snapshot: (userId: string) => Promise<unknown>;
};

let pendingSecret = '';

const GUARDED: Guarded[] = [
  {
    name: 'POST 2fa/enable',
    call: (headers) => app.inject({ method: 'POST', url: `${AUTH_API}/2fa/enable`, headers }),
    snapshot: (userId) =>
      database.db
        .select()
        .from(twoFactorAuthenticators)
        .where(eq(twoFactorAuthenticators.userId, userId)),
  },
  {
    name: 'POST 2fa/verify',
    async prepare(owner) {
      const enable = await app.inject({
        method: 'POST',
        url: `${AUTH_API}/2fa/enable`,
        headers: owner,
      });
      pendingSecret = enable.json<{ secret: string }>().secret;
    },
    call: (headers) =>
      app.inject({
        method: 'POST',
        url: `${AUTH_API}/2fa/verify`,
        headers,
        payload: { code: totpCode(pendingSecret, clock.now()) },
      }),
    snapshot: (userId) =>
      database.db
        .select()
        .from(twoFactorAuthenticators)
        .where(eq(twoFactorAuthenticators.userId, userId)),
  },
  {
    name: 'GET generate-telegram-link',
    call: (headers) =>
      app.inject({ method: 'GET', url: '/telegrambotms/api/Bot/generate-telegram-link', headers }),
    snapshot: (userId) =>
      database.db.select().from(telegramLinkTokens).where(eq(telegramLinkTokens.userId, userId)),
  },
  {
    name: 'GET yandex/getUrl with a token (linking)',
    call: (headers) => app.inject({ method: 'GET', url: '/auth/yandex/getUrl', headers }),
    // It writes nothing; what it hands out is the state cookie and the authorize address.
    snapshot: async () => null,
  },
];

describe.each(GUARDED)('$name', ({ prepare, call, snapshot }) => {
  /** A user whose owner prepared the account; `session` is another one of theirs. */
  async function account(session: { isProven?: boolean } = {}) {
    const owner = await createSignedInUser(testApp, {}, { isProven: true });
    await prepare?.(owner.headers);
    nextTotpStep(clock);
    return { user: owner.user, ...(await signIn(testApp, owner.user.id, session)) };
  }

  it('refuses a session without a proof (403 proof_required) and changes nothing', async () => {
    const { user, headers } = await account();
    const before = await snapshot(user.id);
    const answer = await call(headers);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual(PROOF_REFUSAL);
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(await snapshot(user.id)).toEqual(before);
  });

  it('takes a session that proved its owner by the password just now', async () => {
    const { headers } = await account();
    expect((await prove(headers, { password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    expect((await call(headers)).statusCode).toBe(200);
  });

  it(`refuses a proof older than ${RECENT_PROOF_MINUTES} minutes`, async () => {
    const { user, headers } = await account({ isProven: true });
    clock.advance(WINDOW_MS - 1_000);
    const before = await snapshot(user.id);
    clock.advance(1_000);
    const answer = await call(headers);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual(PROOF_REFUSAL);
    expect(await snapshot(user.id)).toEqual(before);
  });
});

describe('routes whose own code is the proof', () => {
  it('2fa/disable and 2fa/recovery-codes take the right code from a session never proven', async () => {
    const signedIn = await createSignedInUser(testApp);
    const secret = await turnOnAuthenticator(testApp, signedIn.headers);
    const other = await signIn(testApp, signedIn.user.id);
    nextTotpStep(clock);
    const renewed = await app.inject({
      method: 'POST',
      url: `${AUTH_API}/2fa/recovery-codes`,
      headers: other.headers,
      payload: { code: totpCode(secret, clock.now()) },
    });
    expect(renewed.statusCode).toBe(200);
    nextTotpStep(clock);
    const disabled = await app.inject({
      method: 'POST',
      url: `${AUTH_API}/2fa/disable`,
      headers: other.headers,
      payload: { code: totpCode(secret, clock.now()) },
    });
    expect(disabled.statusCode).toBe(200);
  });

  it('sign-in mode of yandex/getUrl needs no session at all', async () => {
    const answer = await app.inject({ method: 'GET', url: '/auth/yandex/getUrl' });
    expect(answer.statusCode).toBe(200);
  });
});
