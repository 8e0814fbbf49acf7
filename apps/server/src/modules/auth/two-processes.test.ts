// Two portal processes on one database: the account lock and the failed sign-ins of the security
// log are counted in the database, so a burst split between processes is counted as one. The
// second steps the sign-in policy asks after a password hold there too: a recovery code signs in
// once, and wrong passkeys are counted in the same lock as wrong passwords.

import { CODE_WRONG } from '@portal/contracts/messages';
import { PASSKEY_MESSAGES } from '@portal/contracts/passkeys';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_API,
  addPasskey,
  addressSequence,
  proveSession,
} from '../../../test/support/auth-helpers.js';
import {
  createSignedInUser,
  createUser,
  DEFAULT_PASSWORD,
  lettersTo,
} from '../../../test/support/fixtures.js';
import { PORTAL, SoftwarePasskey } from '../../../test/support/software-authenticator.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { buildApp } from '../../app.js';
import { securityEvents } from '../security-log/schema.js';
import { totpCode } from '../two-factor/index.js';
import { loginCounterKeys } from './login-throttle.js';
import { loginThrottles, sessions } from './schema.js';

let processA: TestApp;
let processB: FastifyInstance;
const nextIp = addressSequence('10.31');

beforeAll(async () => {
  processA = await createTestApp();
  processB = await buildApp({
    config: processA.config,
    database: processA.database,
    clock: processA.clock,
  });
  await processB.ready();
});

afterAll(async () => {
  await processB.close();
});

/** 100 requests at once, every other one to process B. */
const hundredSplit = (send: (app: FastifyInstance) => ReturnType<typeof login>) =>
  Promise.all(Array.from({ length: 100 }, (_, i) => send(i % 2 === 0 ? processA.app : processB)));

const sessionsOf = (userId: string) =>
  processA.database.db.select().from(sessions).where(eq(sessions.userId, userId));

const failuresOf = async (userId: string) => {
  const [counter] = await processA.database.db
    .select()
    .from(loginThrottles)
    .where(eq(loginThrottles.subject, loginCounterKeys.account(userId)));
  return counter?.failures;
};

function login(app: FastifyInstance, body: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: `${AUTH_API}/login`,
    payload: body,
    remoteAddress: nextIp(),
  });
}

describe('two processes on one database', () => {
  it('count 100 parallel wrong passwords on one account, split between them, as one lock', async () => {
    const user = await createUser(processA, { userName: 'TwoProcessBurst' });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        login(i % 2 === 0 ? processA.app : processB, {
          usernameOrEmail: 'twoprocessburst',
          password: `Wrong-Pass${i}`,
        }),
      ),
    );
    // Ten were checked and failed; the other 90 found the login waiting.
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(90);

    // Exactly ten were checked and counted, whichever process took them.
    const [counter] = await processA.database.db
      .select()
      .from(loginThrottles)
      .where(eq(loginThrottles.subject, loginCounterKeys.account(user.id)));
    expect(counter?.failures).toBe(10);
    expect(counter?.lockedUntil).not.toBeNull();

    // The security log counted every failure of the day in one row, none lost to the race.
    const rows = await processA.database.db
      .select()
      .from(securityEvents)
      .where(eq(securityEvents.userId, user.id));
    expect(rows.map((row) => [row.kind, row.count])).toEqual([['sign_in_failed', 100]]);

    // One wait started, in one of the two: its owner got exactly one letter.
    const letters = await lettersTo(processA, user.email);
    expect(
      letters.filter((letter) => letter.subject.endsWith('вход в аккаунт приостановлен')),
    ).toHaveLength(1);

    // The lock holds on both: the right password is refused by either process.
    for (const app of [processA.app, processB]) {
      const right = await login(app, {
        usernameOrEmail: 'twoprocessburst',
        password: DEFAULT_PASSWORD,
      });
      expect(right.statusCode).toBe(429);
    }
  });
});

/** An account with one passkey, added through process A. */
async function userWithPasskey() {
  const { user, headers } = await createSignedInUser(processA, {});
  return { user, key: await addPasskey(processA, headers) };
}

describe('the second steps after a password, on two processes', () => {
  it('let one recovery code, sent 100 times at once to both, sign in once', async () => {
    const { user, headers } = await createSignedInUser(processA, {});
    await proveSession(processA, headers);
    const post = (url: string, payload: object = {}) =>
      processA.app.inject({ method: 'POST', url: `${AUTH_API}${url}`, headers, payload });
    const { secret } = (await post('/2fa/enable')).json<{ secret: string }>();
    const verified = await post('/2fa/verify', { code: totpCode(secret, processA.clock.now()) });
    const [recoveryCode] = verified.json<{ recoveryCodes: string[] }>().recoveryCodes;
    const before = (await sessionsOf(user.id)).length;

    const answers = await hundredSplit((app) =>
      login(app, {
        usernameOrEmail: user.userName,
        password: DEFAULT_PASSWORD,
        twoFactorCode: recoveryCode,
      }),
    );
    // One got in; every other was refused (a spent code, or the lock its failures started).
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    for (const answer of answers.filter((each) => each.statusCode !== 200)) {
      expect([401, 429]).toContain(answer.statusCode);
      if (answer.statusCode === 401) expect(answer.json().message).toBe(CODE_WRONG);
    }
    expect(await sessionsOf(user.id)).toHaveLength(before + 1);
    const used = await processA.database.db
      .select()
      .from(securityEvents)
      .where(eq(securityEvents.userId, user.id));
    expect(used.filter((event) => event.kind === 'recovery_code_used')).toHaveLength(1);
  });

  it('check at most 10 passkey answers of 100 at once, and both then refuse the right one', async () => {
    const { user, key } = await userWithPasskey();
    const password = { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD };
    const asked = await login(processA.app, password);
    expect(asked.json().passkeyOptions).toBeDefined();
    // Another key's answer to the asked challenge: wrong for this account whichever checks it.
    const wrong = new SoftwarePasskey().get(asked.json().passkeyOptions, PORTAL);

    const answers = await hundredSplit((app) => login(app, { ...password, passkey: wrong }));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(90);
    for (const answer of answers.filter((each) => each.statusCode === 401)) {
      expect(answer.json().message).toBe(PASSKEY_MESSAGES.secondFactorWrong);
    }
    expect(await failuresOf(user.id)).toBe(10);

    // The right passkey waits too, on either process.
    for (const app of [processA.app, processB]) {
      const right = await login(app, {
        ...password,
        passkey: key.get(asked.json().passkeyOptions, PORTAL),
      });
      expect(right.statusCode).toBe(429);
    }
  });
});

describe('a passkey alone, on two processes', () => {
  it('signs in once with one answer sent 100 times at once to both', async () => {
    const { user, key } = await userWithPasskey();
    const options = await processB.inject({
      method: 'POST',
      url: `${AUTH_API}/passkeys/sign-in/options`,
      remoteAddress: nextIp(),
    });
    expect(options.statusCode, options.body).toBe(200);
    // Counter 0 (an authenticator without one): only the spent challenge stops the copies.
    const response = key.get(options.json().options, PORTAL, 0);
    const before = (await sessionsOf(user.id)).length;

    const answers = await hundredSplit((app) =>
      app.inject({
        method: 'POST',
        url: `${AUTH_API}/passkeys/sign-in`,
        payload: { response },
        remoteAddress: nextIp(),
      }),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(99);
    expect(await sessionsOf(user.id)).toHaveLength(before + 1);
  });
});
