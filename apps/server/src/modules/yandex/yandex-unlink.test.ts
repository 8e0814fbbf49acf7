import { PROOF_REQUIRED } from '@portal/contracts/messages';
import { describe, expect, it } from 'vitest';
import { AUTH_API as API } from '../../../test/support/auth-helpers.js';
import { createUser, signIn } from '../../../test/support/fixtures.js';
import { securityEventsOf } from '../../../test/support/security-log.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { YANDEX_MESSAGES } from './messages.js';

const testApp = await createTestApp();
const { app } = testApp;
let nextYandexId = 7_300_000;

const unlink = (headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: `${API}/users/unlink-yandex`, headers });

const me = async (headers: Record<string, string>) =>
  (await app.inject({ method: 'POST', url: `${API}/user`, headers })).json<{
    yandexId: string | null;
    hasPassword: boolean;
  }>();

describe('POST users/unlink-yandex', () => {
  it('unlinks after a fresh proof, logs yandex_unlinked, and the user answer follows at once', async () => {
    const user = await createUser(testApp, { yandexId: String(nextYandexId++) });
    const { headers } = await signIn(testApp, user.id, { isProven: true });
    // Read (and remembered by this process) before the change.
    expect((await me(headers)).yandexId).not.toBeNull();
    const answer = await unlink(headers);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ message: YANDEX_MESSAGES.unlinked });
    expect((await me(headers)).yandexId).toBeNull();
    const [event] = await securityEventsOf(testApp, user.id);
    expect(event?.kind).toBe('yandex_unlinked');
    // Nothing left to unlink.
    const again = await unlink(headers);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(YANDEX_MESSAGES.notLinked);
  });

  it('needs a fresh proof of the owner', async () => {
    const user = await createUser(testApp, { yandexId: String(nextYandexId++) });
    const { headers } = await signIn(testApp, user.id);
    const answer = await unlink(headers);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ message: PROOF_REQUIRED, reason: 'proof_required' });
    expect((await me(headers)).yandexId).not.toBeNull();
    expect(await securityEventsOf(testApp, user.id)).toEqual([]);
  });

  it('refuses while Yandex ID is the only way in (no password), and nothing changes', async () => {
    const user = await createUser(testApp, {
      yandexId: String(nextYandexId++),
      passwordHash: null,
    });
    const { headers } = await signIn(testApp, user.id, { isProven: true });
    expect((await me(headers)).hasPassword).toBe(false);
    const answer = await unlink(headers);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe(YANDEX_MESSAGES.onlyWayIn);
    expect(answer.json().message).toContain('Сначала задайте пароль');
    expect((await me(headers)).yandexId).not.toBeNull();
    expect(await securityEventsOf(testApp, user.id)).toEqual([]);
  });

  it('needs a session', async () => {
    expect((await unlink({})).statusCode).toBe(401);
  });
});
