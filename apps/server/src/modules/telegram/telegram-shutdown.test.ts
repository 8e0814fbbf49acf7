import { afterAll, expect, it } from 'vitest';
import { startFakeTelegramApi } from '../../../test/support/fake-telegram-api.js';
import { createSignedInUser, signIn } from '../../../test/support/fixtures.js';
import { createTestDatabase } from '../../../test/support/test-database.js';
import { ManualClock } from '../../adapters/clock.js';
import { buildApp } from '../../app.js';
import { testConfig } from '../../config.js';
import { BOT_TEXT } from './messages.js';

/**
 * The telegram plugin's stop (plugin.ts): `app.close()` ends only when the bot no longer receives
 * updates and the sign-in notice under way has been sent, so the database, closed after the app
 * (server.ts), is not used by either while it closes. Its own app: this one is closed by the test.
 */
const fake = await startFakeTelegramApi();
afterAll(() => fake.close());
const database = await createTestDatabase();
afterAll(() => database.close());
const clock = new ManualClock();
const config = testConfig(fake.config);
const app = await buildApp({ config, database, clock });
const testApp = { app, database, clock, config };

/** The bot's stop confirms the updates it handled: a getUpdates with `limit: 1`, no long poll. */
const isStopConfirmation = (payload: Record<string, unknown>) =>
  Number(payload.limit) === 1 && payload.timeout === undefined;

it('stops receiving, then lets the notice under way finish, before close ends', async () => {
  await app.ready();
  await fake.waitForCall('getUpdates', (payload) => Number(payload.timeout) > 0);
  const { user, headers } = await createSignedInUser(testApp, {}, { isProven: true });
  const linking = await app.inject({
    method: 'GET',
    url: '/telegrambotms/api/Bot/generate-telegram-link',
    headers,
  });
  const tg = { id: 600_000_001, first_name: 'Иван' };
  fake.sendText(tg, `/start ${new URL(linking.json().link).searchParams.get('start')}`);
  await fake.waitForCall('sendMessage', (payload) => payload.text === BOT_TEXT.askPhone);

  // A sign-in whose notice Telegram has not answered yet when the app starts to close.
  const telegram = fake.hold('sendMessage');
  await signIn(testApp, user.id);
  await fake.waitForCall('sendMessage', (payload) =>
    String(payload.text).startsWith(`Новый вход в аккаунт ${user.userName}`),
  );
  let isClosed = false;
  const closing = app.close().then(() => {
    isClosed = true;
  });
  await fake.waitForCall('getUpdates', isStopConfirmation);
  // Every other module stops within this, on any machine the tests run on; close still waits.
  await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 1_000))]);
  expect(isClosed).toBe(false);

  telegram.release();
  await closing;
  const polls = fake.callsOf('getUpdates');
  expect(isStopConfirmation(polls.at(-1)!)).toBe(true);
});
