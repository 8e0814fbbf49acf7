// The tool is one more process: sessions it ends are refused at once by a running portal that
// had them in its cache, through the revocation marks in Redis (REDIS_URL). Without REDIS_URL
// beside a portal that runs with Redis, it refuses to end them, a staff role taken back included
// (portal-runtime.ts).

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessionStatus } from '../../../test/support/auth-helpers.js';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import { isRedisRunning, REDIS_URL } from '../../../test/support/services.js';
import { createStaffMember } from '../../../test/support/staff.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { buildApp } from '../../app.js';
import { users } from '../accounts/schema.js';
import { runAdmin } from './cli.js';
import { lastPortalStart } from './portal-runtime.js';
import { operatorActions } from './schema.js';

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

describe('the tool without Redis beside a portal that runs with it', () => {
  it('refuses to end sessions, block or take a staff role back on PostgreSQL, saying what to set; nothing changes', async () => {
    if (!(await isRedisRunning())) {
      return expect.soft(false, 'Redis is not running; skipped').toBe(true);
    }
    const portal = await createTestApp({ config: { REDIS_URL } });
    // A listening portal records that it runs with Redis; one built without listening does not.
    expect(await lastPortalStart(portal.database.db)).toBeNull();
    await portal.app.listen({ port: 0, host: '127.0.0.1' });
    await waitFor('the portal to record its start', async () =>
      Boolean(await lastPortalStart(portal.database.db)),
    );
    expect(await lastPortalStart(portal.database.db)).toMatchObject({ usesRedis: true });

    const tool = await buildApp({
      config: { ...portal.config, REDIS_URL: undefined },
      database: portal.database,
      clock: portal.clock,
    });
    try {
      const errors: string[] = [];
      const run = (...argv: string[]) =>
        runAdmin(
          { deps: tool.deps, log: tool.log, out: () => {}, err: (line) => errors.push(line) },
          argv,
        );
      const { user, headers } = await createSignedInUser(portal);
      expect(await sessionStatus(portal, headers)).toBe(200);
      const ended = await run('end-sessions', user.id, '--operator', 'anna');
      const blocked = await run('block', user.id, '--operator', 'anna', '--reason', 'спам');
      // Taking a role back ends the member's proven sessions (modules/staff/role-service.ts).
      const member = await createStaffMember(portal, 'support');
      expect(await sessionStatus(portal, member.headers)).toBe(200);
      const revoked = await run(
        'staff',
        'revoke',
        member.user.id,
        '--operator',
        'anna',
        '--reason',
        'ушёл',
      );
      const roles = (await portal.app.deps.staff.roles.list()).map((each) => each.user.id);
      const [row] = await portal.database.db.select().from(users).where(eq(users.id, user.id));
      const actions = await portal.database.db
        .select()
        .from(operatorActions)
        .where(eq(operatorActions.accountId, user.id));
      if (portal.database.kind === 'postgres') {
        expect([ended, blocked, revoked]).toEqual([1, 1, 1]);
        expect(errors).toHaveLength(3);
        for (const line of errors) {
          expect(line).toContain('Портал работает с Redis, а у команды нет REDIS_URL');
          expect(line).toContain('Задайте REDIS_URL');
        }
        expect(await sessionStatus(portal, headers)).toBe(200);
        expect(row?.blockedAt).toBeNull();
        expect(actions).toEqual([]);
        expect(roles).toContain(member.user.id);
        expect(await sessionStatus(portal, member.headers)).toBe(200);
      } else {
        // The embedded database is the portal's alone while it runs (db/data-dir-lock.ts): no
        // tool can run beside it, and one that runs after it has nothing to be late for.
        expect([ended, blocked, revoked]).toEqual([0, 0, 0]);
        expect(row?.blockedAt).not.toBeNull();
        expect(roles).not.toContain(member.user.id);
      }
    } finally {
      await tool.close();
    }
  });

  it('goes ahead beside a portal that runs without Redis', async () => {
    const portal = await createTestApp();
    await portal.app.listen({ port: 0, host: '127.0.0.1' });
    await waitFor('the portal to record its start', async () =>
      Boolean(await lastPortalStart(portal.database.db)),
    );
    expect(await lastPortalStart(portal.database.db)).toMatchObject({ usesRedis: false });
    const tool = await buildApp({
      config: portal.config,
      database: portal.database,
      clock: portal.clock,
    });
    try {
      const { user, headers } = await createSignedInUser(portal);
      const run = (...argv: string[]) =>
        runAdmin({ deps: tool.deps, log: tool.log, out: () => {}, err: () => {} }, argv);
      expect(await run('end-sessions', user.id, '--operator', 'anna')).toBe(0);
      expect(await sessionStatus(portal, headers)).toBe(401);
    } finally {
      await tool.close();
    }
  });
});
