import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_API as API, sessionStatus } from '../../../test/support/auth-helpers.js';
import { createUser, signIn } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { sessions } from '../auth/schema.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await createTestApp();
});

function call(method: 'POST' | 'DELETE', url: string, headers: Record<string, string> = {}) {
  return testApp.app.inject({ method, url: `${API}${url}`, headers });
}

async function liveSessionIds(userId: string) {
  const rows = await testApp.database.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  return rows.map((row) => row.id).sort();
}

/** A user signed in on a laptop, a phone and a tablet. */
async function userOnThreeDevices() {
  const user = await createUser(testApp);
  const laptop = await signIn(testApp, user.id, { userAgent: CHROME, ipAddress: '203.0.113.5' });
  testApp.clock.advance(5 * 60_000);
  const phone = await signIn(testApp, user.id, { userAgent: IPHONE, ipAddress: '198.51.100.7' });
  testApp.clock.advance(5 * 60_000);
  const tablet = await signIn(testApp, user.id, { userAgent: '', ipAddress: '' });
  return { user, laptop, phone, tablet };
}

describe('POST devices', () => {
  it("lists the caller's live sessions, freshest first, marking the current one", async () => {
    const { laptop, phone, tablet } = await userOnThreeDevices();
    const other = await createUser(testApp);
    await signIn(testApp, other.id, { userAgent: CHROME });
    testApp.clock.advance(5 * 60_000);

    const response = await call('POST', '/devices', phone.headers);
    expect(response.statusCode).toBe(200);
    const devices = response.json();
    expect(devices).toEqual([
      {
        id: phone.sessionId,
        userAgent: IPHONE,
        ipAddress: '198.51.100.7',
        lastActivity: testApp.clock.now().toISOString(),
        isCurrent: true,
        site: 'Личный кабинет',
        kind: 'session',
      },
      {
        id: tablet.sessionId,
        userAgent: '',
        ipAddress: null,
        lastActivity: expect.any(String),
        isCurrent: false,
        site: 'Личный кабинет',
        kind: 'session',
      },
      {
        id: laptop.sessionId,
        userAgent: CHROME,
        ipAddress: '203.0.113.5',
        lastActivity: expect.any(String),
        isCurrent: false,
        site: 'Личный кабинет',
        kind: 'session',
      },
    ]);
    expect(new Date(devices[2].lastActivity).toISOString()).toBe(devices[2].lastActivity);
    expect(Date.parse(devices[1].lastActivity)).toBeGreaterThan(
      Date.parse(devices[2].lastActivity),
    );
  });

  it('leaves out ended sessions and never shows token hashes', async () => {
    const { user, laptop, phone } = await userOnThreeDevices();
    await testApp.app.deps.sessions.revoke(user.id, laptop.sessionId);
    const response = await call('POST', '/devices', phone.headers);
    const ids = response.json().map((device: { id: string }) => device.id);
    expect(ids).not.toContain(laptop.sessionId);
    expect(ids).toHaveLength(2);
    expect(response.body).not.toMatch(/tokenHash|token_hash/);
  });

  it('needs a session', async () => {
    expect((await call('POST', '/devices')).statusCode).toBe(401);
  });
});

describe('DELETE devices/{id}', () => {
  it('ends that session at once; its next call is refused; the others live on', async () => {
    const { user, laptop, phone, tablet } = await userOnThreeDevices();
    expect(await sessionStatus(testApp, laptop.headers)).toBe(200);

    const response = await call('DELETE', `/devices/${laptop.sessionId}`, phone.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Сеанс на устройстве завершён' });
    expect(await sessionStatus(testApp, laptop.headers)).toBe(401);
    expect(await sessionStatus(testApp, phone.headers)).toBe(200);
    expect(await liveSessionIds(user.id)).toEqual([phone.sessionId, tablet.sessionId].sort());
  });

  it('can end the current session too', async () => {
    const { phone } = await userOnThreeDevices();
    expect((await call('DELETE', `/devices/${phone.sessionId}`, phone.headers)).statusCode).toBe(
      200,
    );
    expect(await sessionStatus(testApp, phone.headers)).toBe(401);
  });

  it("another user's session is 404 and nothing changes", async () => {
    const victim = await userOnThreeDevices();
    const attacker = await createUser(testApp);
    const attackerSession = await signIn(testApp, attacker.id);
    const before = await liveSessionIds(victim.user.id);

    const response = await call(
      'DELETE',
      `/devices/${victim.laptop.sessionId}`,
      attackerSession.headers,
    );
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Устройство не найдено' });
    expect(await liveSessionIds(victim.user.id)).toEqual(before);
    expect(await sessionStatus(testApp, victim.laptop.headers)).toBe(200);
  });

  it('an unknown, malformed or already ended id is 404 like any other', async () => {
    const { user, laptop, phone } = await userOnThreeDevices();
    await testApp.app.deps.sessions.revoke(user.id, laptop.sessionId);
    for (const id of [
      laptop.sessionId,
      '00000000-0000-4000-8000-000000000000',
      'not-a-uuid',
      "1' OR '1'='1",
    ]) {
      const response = await call('DELETE', `/devices/${encodeURIComponent(id)}`, phone.headers);
      expect(response.statusCode).toBe(404);
    }
    expect(await sessionStatus(testApp, phone.headers)).toBe(200);
  });

  it('needs a session', async () => {
    const { laptop } = await userOnThreeDevices();
    expect((await call('DELETE', `/devices/${laptop.sessionId}`)).statusCode).toBe(401);
    expect(await sessionStatus(testApp, laptop.headers)).toBe(200);
  });
});

describe('logout-all and logout-all-except-current', () => {
  it('logout-all with a token ends every session of the caller, the current one too', async () => {
    const { user, laptop, phone, tablet } = await userOnThreeDevices();
    const other = await createUser(testApp);
    const bystander = await signIn(testApp, other.id);

    const response = await call('POST', '/logout-all', phone.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Вы вышли из всех активных сеансов' });
    for (const device of [laptop, phone, tablet])
      expect(await sessionStatus(testApp, device.headers)).toBe(401);
    expect(await liveSessionIds(user.id)).toEqual([]);
    expect(await sessionStatus(testApp, bystander.headers)).toBe(200);
  });

  it('logout-all-except-current keeps only the caller', async () => {
    const { user, laptop, phone, tablet } = await userOnThreeDevices();
    const response = await call('POST', '/logout-all-except-current', phone.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Вы вышли из всех сеансов, кроме текущего' });
    expect(await sessionStatus(testApp, laptop.headers)).toBe(401);
    expect(await sessionStatus(testApp, tablet.headers)).toBe(401);
    expect(await sessionStatus(testApp, phone.headers)).toBe(200);
    expect(await liveSessionIds(user.id)).toEqual([phone.sessionId]);
  });

  it('both need a session', async () => {
    const { user } = await userOnThreeDevices();
    expect((await call('POST', '/logout-all')).statusCode).toBe(401);
    expect((await call('POST', '/logout-all-except-current')).statusCode).toBe(401);
    expect(await liveSessionIds(user.id)).toHaveLength(3);
  });

  it('a revoked token cannot sign anyone out', async () => {
    const { user, laptop } = await userOnThreeDevices();
    await testApp.app.deps.sessions.revoke(user.id, laptop.sessionId);
    expect((await call('POST', '/logout-all', laptop.headers)).statusCode).toBe(401);
    expect(await liveSessionIds(user.id)).toHaveLength(2);
  });
});
