import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeTelegramApi } from '../../../test/support/fake-telegram-api.js';
import { createSignedInUser, createUser, signIn } from '../../../test/support/fixtures.js';
import { securityEventsOf } from '../../../test/support/security-log.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { users } from '../accounts/schema.js';
import { BOT_TEXT, TELEGRAM_MESSAGES } from './messages.js';

const fake = await startFakeTelegramApi();
afterAll(() => fake.close());
const testApp = await createTestApp({
  config: fake.config,
});
const { app, clock, database } = testApp;
/** Linking needs a session that has just proved its owner (auth/recent-proof.ts). */
const PROVEN = { isProven: true };

const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

let nextTelegramId = 500_000_001;
const telegramUser = () => ({ id: nextTelegramId++, first_name: 'Иван', username: 'ivan' });

async function linkFor(headers: Record<string, string>) {
  const response = await app.inject({
    method: 'GET',
    url: '/telegrambotms/api/Bot/generate-telegram-link',
    headers,
  });
  expect(response.statusCode).toBe(200);
  const { link } = response.json<{ link: string }>();
  return { link, token: new URL(link).searchParams.get('start')! };
}

async function isLinked(headers: Record<string, string>) {
  const response = await app.inject({
    method: 'GET',
    url: '/authms/api/Auth/users/check-telegram-user',
    headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json<boolean>();
}

/** The next message the bot sends to this chat whose text contains `text`. */
const botSays = (chatId: number, text: string) =>
  fake.waitForCall(
    'sendMessage',
    (payload) => Number(payload.chat_id) === chatId && String(payload.text).includes(text),
  );

async function linkedUser() {
  const signedIn = await createSignedInUser(testApp, {}, PROVEN);
  const tg = telegramUser();
  const { token } = await linkFor(signedIn.headers);
  fake.sendText(tg, `/start ${token}`);
  await botSays(tg.id, BOT_TEXT.askPhone);
  return { ...signedIn, tg };
}

describe('generate-telegram-link', () => {
  it('answers a t.me link with a one-time token of Telegram’s alphabet', async () => {
    const { headers } = await createSignedInUser(testApp, {}, PROVEN);
    const { link, token } = await linkFor(headers);
    expect(link).toMatch(/^https:\/\/t\.me\/portal_test_bot\?start=[A-Za-z0-9_-]+$/);
    expect(token.length).toBeLessThanOrEqual(64);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect((await linkFor(headers)).token).not.toBe(token);
  });

  it('needs a session', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/telegrambotms/api/Bot/generate-telegram-link',
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a second link once Telegram is linked', async () => {
    const { headers } = await linkedUser();
    const response = await app.inject({
      method: 'GET',
      url: '/telegrambotms/api/Bot/generate-telegram-link',
      headers,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(TELEGRAM_MESSAGES.alreadyLinked);
  });
});

describe('the bot: /start <token>', () => {
  it('links the Telegram account, then asks for the phone with a contact button', async () => {
    const { user, headers } = await createSignedInUser(testApp, {}, PROVEN);
    expect(await isLinked(headers)).toBe(false);
    const tg = telegramUser();
    const { token } = await linkFor(headers);

    fake.sendText(tg, `/start ${token}`);
    await botSays(tg.id, BOT_TEXT.linked(user.userName));
    const ask = await botSays(tg.id, BOT_TEXT.askPhone);
    expect(ask.reply_markup).toMatchObject({
      keyboard: [[{ text: BOT_TEXT.sharePhoneButton, request_contact: true }]],
    });

    expect(await isLinked(headers)).toBe(true);
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.telegramId).toBe(tg.id);
    // Done in Telegram: the security log names no browser and no address of the owner's.
    expect(await securityEventsOf(testApp, user.id)).toMatchObject([
      { kind: 'telegram_linked', userAgent: '', ipAddress: null },
    ]);
  });

  it('answers clearly for a token used twice', async () => {
    const { headers } = await createSignedInUser(testApp, {}, PROVEN);
    const tg = telegramUser();
    const { token } = await linkFor(headers);
    fake.sendText(tg, `/start ${token}`);
    await botSays(tg.id, BOT_TEXT.askPhone);

    const other = telegramUser();
    fake.sendText(other, `/start ${token}`);
    await botSays(other.id, BOT_TEXT.tokenUsed);
  });

  it('answers clearly for an expired token (15 minutes) and links nothing', async () => {
    const { headers } = await createSignedInUser(testApp, {}, PROVEN);
    const { token } = await linkFor(headers);
    clock.advance(15 * 60_000 + 1_000);
    const tg = telegramUser();
    fake.sendText(tg, `/start ${token}`);
    await botSays(tg.id, BOT_TEXT.tokenExpired);
    expect(await isLinked(headers)).toBe(false);
  });

  it('answers clearly for an unknown token and for /start alone', async () => {
    const tg = telegramUser();
    fake.sendText(tg, '/start not-a-real-token_123');
    await botSays(tg.id, BOT_TEXT.tokenUnknown);
    fake.sendText(tg, '/start');
    await botSays(tg.id, BOT_TEXT.startWithoutToken);
  });

  it('keeps a new link made earlier useless: only the latest token works', async () => {
    const { headers } = await createSignedInUser(testApp, {}, PROVEN);
    const first = await linkFor(headers);
    await linkFor(headers);
    const tg = telegramUser();
    fake.sendText(tg, `/start ${first.token}`);
    await botSays(tg.id, BOT_TEXT.tokenUnknown);
    expect(await isLinked(headers)).toBe(false);
  });

  it('does not link a Telegram account that another user already linked', async () => {
    const { tg } = await linkedUser();
    const second = await createSignedInUser(testApp, {}, PROVEN);
    const { token } = await linkFor(second.headers);
    fake.sendText(tg, `/start ${token}`);
    await botSays(tg.id, BOT_TEXT.telegramTaken);
    expect(await isLinked(second.headers)).toBe(false);
  });
});

describe('the bot: phone number', () => {
  it('connects the phone from the user’s own contact', async () => {
    const { user, tg } = await linkedUser();
    fake.sendContact(tg, { phone_number: '79001234567', user_id: tg.id });
    const reply = await botSays(tg.id, BOT_TEXT.phoneConnected('+79001234567'));
    expect(reply.reply_markup).toMatchObject({ remove_keyboard: true });
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.phone).toBe('+79001234567');
  });

  it('refuses someone else’s contact', async () => {
    const { user, tg } = await linkedUser();
    fake.sendContact(tg, { phone_number: '+79990000000', user_id: tg.id + 1 });
    await botSays(tg.id, BOT_TEXT.notOwnContact);
    fake.sendContact(tg, { phone_number: '+79990000001' });
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.phone).toBeNull();
  });

  it('asks a Telegram user who has not linked an account to link first', async () => {
    const tg = telegramUser();
    fake.sendContact(tg, { phone_number: '79005554433', user_id: tg.id });
    await botSays(tg.id, BOT_TEXT.notLinked);
  });
});

describe('sign-in notices', () => {
  it('tells the linked user about a new sign-in, with a button that ends that session', async () => {
    const { user, tg } = await linkedUser();
    const other = await signIn(testApp, user.id, {
      userAgent: CHROME_UA,
      ipAddress: '203.0.113.7',
    });

    const notice = await botSays(tg.id, 'Новый вход в аккаунт');
    expect(notice.text).toContain('Chrome 120, Windows 10');
    expect(notice.text).toContain('203.0.113.7');
    expect(notice.reply_markup).toEqual({
      inline_keyboard: [
        [{ text: BOT_TEXT.endSessionButton, callback_data: `end-session:${other.sessionId}` }],
      ],
    });
    expect(await app.deps.sessions.authenticate(other.token)).not.toBeNull();

    // Someone else's Telegram pressing the same button ends nothing.
    const stranger = telegramUser();
    fake.pressButton(stranger, `end-session:${other.sessionId}`);
    await fake.waitForCall(
      'answerCallbackQuery',
      (payload) => payload.text === BOT_TEXT.sessionAlreadyEnded,
    );
    expect(await app.deps.sessions.authenticate(other.token)).not.toBeNull();

    const answered = fake.callsOf('answerCallbackQuery').length;
    fake.pressButton(tg, `end-session:${other.sessionId}`);
    await fake.waitForCall(
      'answerCallbackQuery',
      (payload) => payload.text === BOT_TEXT.sessionEnded,
    );
    expect(fake.callsOf('answerCallbackQuery').length).toBe(answered + 1);
    expect(await app.deps.sessions.authenticate(other.token)).toBeNull();
    // Only the button that ended it is in the owner's security log.
    const ended = (await securityEventsOf(testApp, user.id)).filter(
      (event) => event.kind === 'session_ended',
    );
    expect(ended).toMatchObject([{ details: { via: 'telegram' }, userAgent: '', ipAddress: null }]);
  });

  it("carries the sign-in's «Это был не я» link, which ends every session", async () => {
    const { user, tg, headers } = await linkedUser();
    const other = await database.db.transaction(async (tx) => {
      const created = await app.deps.sessions.create(
        { userId: user.id, userAgent: CHROME_UA, ipAddress: '203.0.113.8' },
        tx,
      );
      await app.deps.securityLog.recordSignIn(
        tx,
        user.id,
        { method: 'password' },
        { userAgent: CHROME_UA, ipAddress: '203.0.113.8' },
      );
      return created;
    });
    const notice = await botSays(tg.id, '203.0.113.8');
    // The test portal is on plain http: Telegram takes no such button, the text has it.
    const url = /Это был не я: (\S+)/.exec(String(notice.text))?.[1];
    expect(url).toMatch(/\/not-me\?token=/);
    expect(notice.reply_markup).toEqual({
      inline_keyboard: [
        [{ text: BOT_TEXT.endSessionButton, callback_data: `end-session:${other.session.id}` }],
      ],
    });
    const answer = await app.inject({
      method: 'POST',
      url: '/authms/api/Auth/not-me',
      payload: { token: new URL(url!).searchParams.get('token') },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await app.deps.sessions.authenticate(other.token)).toBeNull();
    const me = await app.inject({ method: 'POST', url: '/authms/api/Auth/user', headers });
    expect(me.statusCode).toBe(401);
  });

  it('sends nothing for a user without Telegram', async () => {
    const { user: linked, tg } = await linkedUser();
    const notices = () =>
      fake.callsOf('sendMessage').filter((payload) => String(payload.text).includes('Новый вход'));
    const before = notices().length;
    await signIn(testApp, (await createUser(testApp)).id);
    await signIn(testApp, linked.id);
    // Notices go out in order of sign-in: once the linked user's has arrived, the other was skipped.
    await botSays(tg.id, 'Новый вход в аккаунт');
    expect(notices().length).toBe(before + 1);
  });
});
