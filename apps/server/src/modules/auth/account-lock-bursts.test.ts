// The account lock under bursts of parallel requests on the routes of a signed-in account that
// check one of its secrets: at most 10 are checked, the rest are refused with 429 unchecked.

import { PASSWORD_CHANGE_PRODUCT } from '@portal/contracts/security';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_API,
  addressSequence,
  otherCode,
  turnOnAuthenticator,
} from '../../../test/support/auth-helpers.js';
import { createSignedInUser, DEFAULT_PASSWORD } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { totpCode } from '../two-factor/index.js';

let testApp: TestApp;
const nextIp = addressSequence('10.21');

beforeAll(async () => {
  testApp = await createTestApp();
});

/** 100 parallel requests, each from its own address; answers their status codes. */
async function burst(
  request: (i: number) => { url: string; payload: Record<string, unknown> },
  headers: object,
) {
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      testApp.app.inject({
        method: 'POST',
        ...request(i),
        headers: { ...headers },
        remoteAddress: nextIp(),
      }),
    ),
  );
  return answers.map((answer) => answer.statusCode);
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('100 parallel checks of one account secret', () => {
  it('2fa/disable checks 10 wrong codes and refuses 90 unchecked; then the right code waits too', async () => {
    const { headers } = await createSignedInUser(testApp);
    const secret = await turnOnAuthenticator(testApp, headers);
    const wrong = otherCode(totpCode(secret, testApp.clock.now()));
    const statuses = await burst(
      () => ({ url: `${AUTH_API}/2fa/disable`, payload: { code: wrong } }),
      headers,
    );
    expect(count(statuses, 400)).toBe(10);
    expect(count(statuses, 429)).toBe(90);
    const right = await testApp.app.inject({
      method: 'POST',
      url: `${AUTH_API}/2fa/disable`,
      headers,
      payload: { code: totpCode(secret, testApp.clock.now()) },
    });
    expect(right.statusCode).toBe(429);
  });

  it('password change checks 10 wrong current passwords and refuses 90 unchecked', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    const statuses = await burst(
      (i) => ({
        url: `/${PASSWORD_CHANGE_PRODUCT}/auth/password/change`,
        payload: {
          oldPassword: `Wrong-Pass${i}`,
          newPassword: 'Brand-New-Pass7',
          code: '123456',
          logoutOtherSessions: false,
        },
      }),
      headers,
    );
    expect(count(statuses, 400)).toBe(10);
    expect(count(statuses, 429)).toBe(90);
    // The lock is the sign-in lock: the right password cannot sign in either.
    const login = await testApp.app.inject({
      method: 'POST',
      url: `${AUTH_API}/login`,
      payload: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
      remoteAddress: nextIp(),
    });
    expect(login.statusCode).toBe(429);
    expect(login.json().reason).toBe('login_paused');
  });
});
