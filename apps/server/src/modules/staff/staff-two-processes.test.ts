// Two portal processes on one database (and, when it runs, one Redis): a role taken back through
// one is refused at the member's next staff call on both, at once. The guard reads the role on
// every call, and the member's proven sessions end through SessionStore.revoke.

import { describe, expect, it } from 'vitest';
import { isRedisRunning, REDIS_URL } from '../../../test/support/services.js';
import { createStaffMember, STAFF_API } from '../../../test/support/staff.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { buildApp } from '../../app.js';

describe('a role taken back, two processes', () => {
  it('the next staff call is 404 on both, though both had just let the member in', async () => {
    const withRedis = await isRedisRunning();
    const processA = await createTestApp(withRedis ? { config: { REDIS_URL } } : {});
    const processB = await buildApp({
      config: processA.config,
      database: processA.database,
      clock: processA.clock,
    });
    await processB.ready();
    try {
      if (withRedis) {
        await waitFor(
          'both processes to trust the marks',
          () =>
            processA.app.deps.redis?.trustedEpoch() != null &&
            processB.deps.redis?.trustedEpoch() != null,
          { timeoutMs: 10_000, intervalMs: 20 },
        );
      }
      const admin = await createStaffMember(processA, 'admin');
      const member = await createStaffMember(processA, 'support');
      const search = (app: typeof processB) =>
        app.inject({ method: 'GET', url: `${STAFF_API}/accounts?q=x`, headers: member.headers });
      // Both let the member in (and remember the session).
      expect((await search(processA.app)).statusCode).toBe(200);
      expect((await search(processB)).statusCode).toBe(200);

      const revoke = await processB.inject({
        method: 'POST',
        url: `${STAFF_API}/roles/${member.user.id}/revoke`,
        headers: admin.headers,
        payload: { reason: 'ушёл из поддержки' },
      });
      expect(revoke.statusCode, revoke.body).toBe(200);
      expect((await search(processA.app)).statusCode).toBe(404);
      expect((await search(processB)).statusCode).toBe(404);
      const me = await processA.app.inject({
        method: 'GET',
        url: `${STAFF_API}/me`,
        headers: member.headers,
      });
      expect(me.statusCode).toBe(404);
    } finally {
      await processB.close();
    }
  });
});
