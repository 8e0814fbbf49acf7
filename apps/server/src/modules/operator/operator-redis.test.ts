// The tool is one more process: sessions it ends are refused at once by a running portal that
// had them in its cache, through the revocation marks in Redis (REDIS_URL).
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { sessionStatus } from '../../../test/support/auth-helpers.js';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import { REDIS_URL } from '../../../test/support/services.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { buildApp } from '../../app.js';
import { runAdmin } from './cli.js';

async function isRedisRunning() {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  const isUp = await probe.connect().then(
    () => true,
    () => false,
  );
  probe.disconnect();
  return isUp;
}

describe('the tool beside a running portal, with Redis', () => {
  it('end-sessions and block: the portal refuses the cached sessions on their next call', async () => {
    if (!(await isRedisRunning())) {
      return expect.soft(false, 'Redis is not running; skipped').toBe(true);
    }
    const portal = await createTestApp({ config: { REDIS_URL } });
    // Built as src/admin.ts builds it: never ready, never listening.
    const tool = await buildApp({
      config: portal.config,
      database: portal.database,
      clock: portal.clock,
    });
    try {
      await waitFor(
        'both processes to trust the marks',
        () =>
          portal.app.deps.redis?.trustedEpoch() != null && tool.deps.redis?.trustedEpoch() != null,
        { timeoutMs: 10_000, intervalMs: 20 },
      );
      const run = (...argv: string[]) =>
        runAdmin({ deps: tool.deps, log: tool.log, out: () => {}, err: () => {} }, argv);

      const first = await createSignedInUser(portal);
      expect(await sessionStatus(portal, first.headers)).toBe(200); // now in the portal's cache
      expect(await run('end-sessions', first.user.id, '--operator', 'anna')).toBe(0);
      expect(await sessionStatus(portal, first.headers)).toBe(401);

      const second = await createSignedInUser(portal);
      expect(await sessionStatus(portal, second.headers)).toBe(200);
      expect(await run('block', second.user.id, '--operator', 'anna', '--reason', 'спам')).toBe(0);
      expect(await sessionStatus(portal, second.headers)).toBe(401);
    } finally {
      await tool.close();
    }
  });
});
