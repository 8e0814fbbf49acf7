// Two portal processes on one database: the account lock and the failed sign-ins of the security
// log are counted in the database, so a burst split between processes is counted as one.

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_API, addressSequence } from '../../../test/support/auth-helpers.js';
import { createUser, DEFAULT_PASSWORD, lettersTo } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { buildApp } from '../../app.js';
import { securityEvents } from '../security-log/schema.js';
import { loginCounterKeys } from './login-throttle.js';
import { loginThrottles } from './schema.js';

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
