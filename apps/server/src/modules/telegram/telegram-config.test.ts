import { afterAll, describe, expect, it } from 'vitest';
import { startFakeTelegramApi } from '../../../test/support/fake-telegram-api.js';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { WEBHOOK_PATH, webhookSecret } from './bot-runner.js';
import { BOT_TEXT, TELEGRAM_MESSAGES } from './messages.js';

describe('without a bot token', () => {
  it('answers 503 to the link call; the check still works', async () => {
    const testApp = await createTestApp();
    const { headers } = await createSignedInUser(testApp);
    const link = await testApp.app.inject({
      method: 'GET',
      url: '/telegrambotms/api/Bot/generate-telegram-link',
      headers,
    });
    expect(link.statusCode).toBe(503);
    expect(link.json()).toEqual({ message: TELEGRAM_MESSAGES.notConfigured });
    const check = await testApp.app.inject({
      method: 'GET',
      url: '/authms/api/Auth/users/check-telegram-user',
      headers,
    });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toBe(false);
    const webhook = await testApp.app.inject({ method: 'POST', url: WEBHOOK_PATH, payload: {} });
    expect(webhook.statusCode).toBe(404);
  });
});

describe('webhook mode', () => {
  it('registers the webhook with a secret token and accepts only updates carrying it', async () => {
    const fake = await startFakeTelegramApi();
    afterAll(() => fake.close());
    const testApp = await createTestApp({
      config: {
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: fake.apiRoot,
        TELEGRAM_MODE: 'webhook',
      },
    });
    const secret = webhookSecret(testApp.config);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{1,256}$/);
    const registered = await fake.waitForCall('setWebhook');
    expect(registered.url).toBe(`${testApp.config.PUBLIC_URL}${WEBHOOK_PATH}`);
    expect(registered.secret_token).toBe(secret);
    expect(fake.callsOf('getUpdates')).toEqual([]);

    const update = {
      update_id: 1,
      message: {
        message_id: 1,
        date: 1,
        chat: { id: 42, type: 'private', first_name: 'Иван' },
        from: { id: 42, is_bot: false, first_name: 'Иван' },
        text: '/start',
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    };
    const wrong = await testApp.app.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: { 'x-telegram-bot-api-secret-token': 'wrong' },
      payload: update,
    });
    expect(wrong.statusCode).toBe(401);
    expect(fake.callsOf('sendMessage')).toEqual([]);

    const right = await testApp.app.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: { 'x-telegram-bot-api-secret-token': secret },
      payload: update,
    });
    expect(right.statusCode).toBe(200);
    const reply = await fake.waitForCall('sendMessage');
    expect(reply).toMatchObject({ chat_id: 42, text: BOT_TEXT.startWithoutToken });
  });
});
