import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_API as API,
  addressSequence,
  passwordHashOf,
  sessionStatus,
} from '../../../test/support/auth-helpers.js';
import { createUser, DEFAULT_PASSWORD, lettersTo } from '../../../test/support/fixtures.js';
import { securityEventsOf, securityKindsOf } from '../../../test/support/security-log.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { oneTimeCodes } from '../auth/schema.js';
import { SECURITY_MESSAGES } from './messages.js';
import { NOT_ME_LINK_TTL_MS } from './not-me-links.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const ALERT_SUBJECT = /вход с нового устройства/;

let testApp: TestApp;
const nextIp = addressSequence('10.73');

beforeAll(async () => {
  testApp = await createTestApp();
});

async function login(user: { userName: string }, userAgent: string, ip = nextIp()) {
  const answer = await testApp.app.inject({
    method: 'POST',
    url: `${API}/login`,
    headers: { 'user-agent': userAgent },
    payload: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
    remoteAddress: ip,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return { authorization: `Bearer ${answer.json<{ token: string }>().token}` };
}

function notMe(token: string, ip = nextIp()) {
  return testApp.app.inject({
    method: 'POST',
    url: `${API}/not-me`,
    payload: { token },
    remoteAddress: ip,
  });
}

async function alertsTo(email: string) {
  return (await lettersTo(testApp, email)).filter((letter) => ALERT_SUBJECT.test(letter.subject));
}

/** The «Это был не я» token of the newest alert letter to the address. */
async function notMeTokenTo(email: string) {
  const [alert] = await alertsTo(email);
  if (!alert) throw new Error(`no alert to ${email}`);
  const url = /Это был не я: (\S+)/.exec(alert.text)?.[1];
  expect(url).toBeDefined();
  const parsed = new URL(url!);
  expect(parsed.pathname).toBe('/not-me');
  return parsed.searchParams.get('token')!;
}

/** A user signed in from Firefox, then by a stranger from Chrome (a new device): both sessions. */
async function strangerSignedIn() {
  const user = await createUser(testApp);
  const owner = await login(user, FIREFOX);
  const stranger = await login(user, CHROME, '203.0.113.9');
  return { user, owner, stranger, token: await notMeTokenTo(user.email) };
}

describe('the alert letter after a sign-in from a new device', () => {
  it('names the device, the address and the time, with the «Это был не я» link', async () => {
    const user = await createUser(testApp);
    await login(user, FIREFOX);
    // The account's first sign-in is not a new device.
    expect(await alertsTo(user.email)).toHaveLength(0);
    await login(user, CHROME, '203.0.113.7');
    const [alert, ...more] = await alertsTo(user.email);
    expect(more).toHaveLength(0);
    expect(alert!.text).toContain('Chrome 120, Windows 10');
    expect(alert!.text).toContain('IP-адрес: 203.0.113.7');
    expect(alert!.text).toMatch(/Время: .+\(МСК\)/);
    expect(alert!.html).toContain('/not-me?token=');
    // The same browser again is no longer new.
    await login(user, CHROME);
    expect(await alertsTo(user.email)).toHaveLength(1);
  });

  it('is not sent while the owner has the switch off, and is again once it is on', async () => {
    const user = await createUser(testApp);
    const headers = await login(user, FIREFOX);
    const off = await testApp.app.inject({
      method: 'PUT',
      url: `${API}/sign-in-alerts`,
      headers,
      payload: { byEmail: false },
    });
    expect(off.json()).toEqual({ message: SECURITY_MESSAGES.signInAlertsOff, byEmail: false });
    const me = await testApp.app.inject({ method: 'POST', url: `${API}/user`, headers });
    expect(me.json()).toMatchObject({ signInAlertsByEmail: false });
    await login(user, CHROME);
    expect(await alertsTo(user.email)).toHaveLength(0);
    // The sign-in is still marked in the log.
    const [signIn] = await securityEventsOf(testApp, user.id);
    expect(signIn).toMatchObject({ kind: 'sign_in', details: { isNewDevice: true } });

    await testApp.app.inject({
      method: 'PUT',
      url: `${API}/sign-in-alerts`,
      headers,
      payload: { byEmail: true },
    });
    await login(user, `${CHROME} Edg/120.0.0.0`);
    expect(await alertsTo(user.email)).toHaveLength(1);
  });

  it('the switch needs a session', async () => {
    const answer = await testApp.app.inject({
      method: 'PUT',
      url: `${API}/sign-in-alerts`,
      payload: { byEmail: false },
    });
    expect(answer.statusCode).toBe(401);
  });
});

describe('POST not-me', () => {
  it('ends every session, mails a reset code that sets a new password, and logs not_me', async () => {
    const { user, owner, stranger, token } = await strangerSignedIn();
    const answer = await notMe(token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      message: SECURITY_MESSAGES.notMeDone,
      email: user.email,
      resendAfterSeconds: 60,
    });
    expect(await sessionStatus(testApp, stranger)).toBe(401);
    expect(await sessionStatus(testApp, owner)).toBe(401);
    expect((await securityKindsOf(testApp, user.id))[0]).toBe('not_me');

    const [resetLetter] = await lettersTo(testApp, user.email);
    expect(resetLetter!.subject).toMatch(/код для сброса пароля/);
    const code = /\b(\d{6})\b/.exec(resetLetter!.text)![1]!;
    const before = await passwordHashOf(testApp, user.id);
    const reset = await testApp.app.inject({
      method: 'POST',
      url: `${API}/reset-password-with-code`,
      payload: { email: user.email, code, newPassword: 'Quartz-Lantern7' },
      remoteAddress: nextIp(),
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await passwordHashOf(testApp, user.id)).not.toBe(before);
  });

  it('takes effect once: of 100 parallel uses exactly one ends the sessions', async () => {
    const { user, stranger, token } = await strangerSignedIn();
    const answers = await Promise.all(Array.from({ length: 100 }, () => notMe(token)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused).toHaveLength(99);
    for (const answer of refused) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(SECURITY_MESSAGES.notMeLinkUsed);
    }
    expect(await sessionStatus(testApp, stranger)).toBe(401);
    const kinds = await securityKindsOf(testApp, user.id);
    expect(kinds.filter((kind) => kind === 'not_me')).toHaveLength(1);
    const resetLetters = (await lettersTo(testApp, user.email)).filter((letter) =>
      /код для сброса пароля/.test(letter.subject),
    );
    expect(resetLetters).toHaveLength(1);
  });

  it('a used link changes nothing the second time', async () => {
    const { user, token } = await strangerSignedIn();
    expect((await notMe(token)).statusCode).toBe(200);
    const again = await login(user, FIREFOX);
    const second = await notMe(token);
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toBe(SECURITY_MESSAGES.notMeLinkUsed);
    expect(await sessionStatus(testApp, again)).toBe(200);
  });

  it('an expired link is refused and changes nothing', async () => {
    const { user, owner, stranger, token } = await strangerSignedIn();
    testApp.clock.advance(NOT_ME_LINK_TTL_MS);
    try {
      const answer = await notMe(token);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(SECURITY_MESSAGES.notMeLinkExpired);
      expect(await securityKindsOf(testApp, user.id)).not.toContain('not_me');
      const codes = await testApp.database.db
        .select()
        .from(oneTimeCodes)
        .where(eq(oneTimeCodes.userId, user.id));
      expect(codes).toHaveLength(0);
    } finally {
      testApp.clock.advance(-NOT_ME_LINK_TTL_MS);
    }
    expect(await sessionStatus(testApp, stranger)).toBe(200);
    expect(await sessionStatus(testApp, owner)).toBe(200);
  });

  it('a forged or altered link is refused and changes nothing', async () => {
    const { user, stranger, token } = await strangerSignedIn();
    const other = await createUser(testApp);
    const [userId, eventId, expires, mac] = token.split('.') as [string, string, string, string];
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const forged = [
      `${userId}.${eventId}.${expires}.${flipped}`,
      `${other.id}.${eventId}.${expires}.${mac}`,
      `${userId}.${eventId}.${Number(expires) + 86_400}.${mac}`,
      'not-a-token',
    ];
    for (const candidate of forged) {
      const answer = await notMe(candidate);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(SECURITY_MESSAGES.notMeLinkInvalid);
    }
    expect(await sessionStatus(testApp, stranger)).toBe(200);
    expect(await securityKindsOf(testApp, user.id)).not.toContain('not_me');
  });

  it('is not reachable by GET (a mail scanner opening the link changes nothing)', async () => {
    const { stranger, token } = await strangerSignedIn();
    const answer = await testApp.app.inject({
      method: 'GET',
      url: `${API}/not-me?token=${encodeURIComponent(token)}`,
    });
    expect(answer.statusCode).toBe(404);
    expect(await sessionStatus(testApp, stranger)).toBe(200);
  });
});
