import { PROOF_REQUIRED } from '@portal/contracts/messages';
import { describe, expect, it } from 'vitest';
import { AUTH_API as API } from '../../../test/support/auth-helpers.js';
import { createUser, signIn } from '../../../test/support/fixtures.js';
import { securityEventsOf } from '../../../test/support/security-log.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { TELEGRAM_MESSAGES } from './messages.js';

// No bot configured: unlinking needs none.
const testApp = await createTestApp();
const { app } = testApp;
let nextTelegramId = 730_000_001;

const unlink = (headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: `${API}/users/unlink-telegram`, headers });

const isLinked = async (headers: Record<string, string>) =>
  (
    await app.inject({ method: 'GET', url: `${API}/users/check-telegram-user`, headers })
  ).json<boolean>();

const telegramIdOf = async (headers: Record<string, string>) =>
  (await app.inject({ method: 'POST', url: `${API}/user`, headers })).json<{
    telegramId: string | null;
  }>().telegramId;

describe('POST users/unlink-telegram', () => {
  it('unlinks after a fresh proof, keeps the phone, logs telegram_unlinked; the user answer follows', async () => {
    const user = await createUser(testApp, { telegramId: nextTelegramId++, phone: '+79001234567' });
    const { headers } = await signIn(testApp, user.id, { isProven: true });
    expect(await telegramIdOf(headers)).not.toBeNull();
    const answer = await unlink(headers);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ message: TELEGRAM_MESSAGES.unlinked });
    expect(await isLinked(headers)).toBe(false);
    expect(await telegramIdOf(headers)).toBeNull();
    const user2 = await app.inject({ method: 'POST', url: `${API}/user`, headers });
    expect(user2.json()).toMatchObject({ phoneNamber: '+79001234567' });
    const [event] = await securityEventsOf(testApp, user.id);
    expect(event?.kind).toBe('telegram_unlinked');

    const again = await unlink(headers);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(TELEGRAM_MESSAGES.notLinked);
  });

  it('needs a fresh proof of the owner; nothing changes without it', async () => {
    const user = await createUser(testApp, { telegramId: nextTelegramId++ });
    const { headers } = await signIn(testApp, user.id);
    const answer = await unlink(headers);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ message: PROOF_REQUIRED, reason: 'proof_required' });
    expect(await isLinked(headers)).toBe(true);
    expect(await securityEventsOf(testApp, user.id)).toEqual([]);
  });

  it('needs a session', async () => {
    expect((await unlink({})).statusCode).toBe(401);
  });
});
