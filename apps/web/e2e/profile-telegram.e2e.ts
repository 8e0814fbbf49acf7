import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeTelegramApi,
  startFakeTelegramApi,
} from '../../server/test/support/fake-telegram-api';
import { createSignedInAccount } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { setupPortalWithAccount } from '../test/support/e2e/fixtures';
import { openProfile, userOf } from '../test/support/e2e/profile-helpers';

// The portal's bot talks to a local stand-in of the Bot API; the values are filled in before the
// portal starts (the fixture reads them then).
let telegram: FakeTelegramApi;
const portalEnv: Record<string, string> = { TELEGRAM_MODE: 'polling' };
beforeAll(async () => {
  telegram = await startFakeTelegramApi({ botUsername: 'portal_e2e_bot' });
  Object.assign(portalEnv, telegram.config);
});
afterAll(async () => {
  await telegram?.close();
});

const env = setupPortalWithAccount(portalEnv);
const browser = setupBrowser();

describe('Telegram on /profile', () => {
  it('links through the bot after a proof by the password: connected, then the shared phone shows', async () => {
    const { portal, smtp } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    const page = await openProfile(browser, portal.baseUrl, account.token);
    const status = page.getByTestId('telegram-status');
    await expect.poll(() => status.textContent()).toBe('Не подключено');

    // The link opens in a new tab; t.me is answered locally (no internet here).
    await page
      .context()
      .route('https://t.me/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Telegram</title>' }),
      );
    // Linking needs a fresh proof of the owner: the server refuses (403, logged by the browser)
    // and a dialog asks for the password before it hands out the link.
    browser.allowConsoleErrors(/status of 403/);
    await page.getByRole('button', { name: 'Подключить' }).nth(1).click();
    const dialog = page.getByRole('dialog', { name: 'Подключение Telegram' });
    await dialog.getByLabel('Текущий пароль').fill(account.password);
    await dialog.getByRole('button', { name: 'Продолжить' }).click();
    const popupOpened = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Открыть Telegram' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const popup = await popupOpened;
    await popup.waitForURL(/^https:\/\/t\.me\//);
    const link = new URL(popup.url());
    expect(link.pathname).toBe('/portal_e2e_bot');
    const token = link.searchParams.get('start') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{1,64}$/);

    // The user presses START in Telegram: the bot gets `/start <token>`.
    const me = { id: 777_000_111, first_name: 'Иван' };
    telegram.sendText(me, `/start ${token}`);
    await telegram.waitForCall(
      'sendMessage',
      (payload) => payload.chat_id === me.id && String(payload.text).includes('Поделитесь номером'),
    );
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Подключено');
    expect(await page.getByTestId('phone-status').textContent()).toBe('Подключено');
    await page.getByTestId('telegram-setting').getByRole('button', { name: 'Отвязать' }).waitFor();

    telegram.sendContact(me, { phone_number: '79005550123', user_id: me.id });
    await telegram.waitForCall(
      'sendMessage',
      (payload) => payload.chat_id === me.id && String(payload.text).includes('+79005550123'),
    );
    await page.bringToFront();
    await page.reload();
    await expect.poll(() => page.getByTestId('profile-phone').textContent()).toBe('+79005550123');
    const user = await userOf(portal.baseUrl, account.token);
    expect([user.telegramId, user.phoneNamber]).toEqual([String(me.id), '+79005550123']);

    // A new sign-in is announced, and its button ends that session.
    const login = await fetch(`${portal.baseUrl}/authms/api/Auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ usernameOrEmail: account.username, password: account.password }),
    });
    const { token: otherToken } = (await login.json()) as { token: string };
    const notice = await telegram.waitForCall(
      'sendMessage',
      (payload) => payload.chat_id === me.id && String(payload.text).includes('Новый вход'),
    );
    const button = (notice.reply_markup as { inline_keyboard: { callback_data: string }[][] })
      .inline_keyboard[0]?.[0];
    telegram.pressButton(me, button?.callback_data ?? '');
    await telegram.waitForCall(
      'answerCallbackQuery',
      (payload) => payload.text === 'Сеанс завершён',
    );
    const after = await fetch(`${portal.baseUrl}/authms/api/Auth/user`, {
      method: 'POST',
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(after.status).toBe(401);
  });

  it('unlinks after a confirmation and a proof by the password; the log says so', async () => {
    const { portal, smtp } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    // Linked through the bot as above, by the API: a proof, the link, then /start in Telegram.
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${account.token}`,
    };
    await fetch(`${portal.baseUrl}/authms/api/Auth/proof`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ password: account.password }),
    });
    const linkAnswer = await fetch(
      `${portal.baseUrl}/telegrambotms/api/Bot/generate-telegram-link`,
      {
        headers,
      },
    );
    const { link } = (await linkAnswer.json()) as { link: string };
    const me = { id: 777_000_222, first_name: 'Пётр' };
    telegram.sendText(me, `/start ${new URL(link).searchParams.get('start')}`);
    await telegram.waitForCall(
      'sendMessage',
      (payload) => payload.chat_id === me.id && String(payload.text).includes('Поделитесь номером'),
    );
    // The proof above is fresh: let it lapse on the server's side by a new session instead.
    const login = await fetch(`${portal.baseUrl}/authms/api/Auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ usernameOrEmail: account.username, password: account.password }),
    });
    const { token } = (await login.json()) as { token: string };

    const page = await openProfile(browser, portal.baseUrl, token);
    const setting = page.getByTestId('telegram-setting');
    await expect.poll(() => page.getByTestId('telegram-status').textContent()).toBe('Подключено');
    await setting.getByRole('button', { name: 'Отвязать' }).click();
    const dialog = page.getByRole('dialog', { name: 'Отвязать Telegram?' });
    await dialog.getByText(/Уведомления о входах/).waitFor();
    browser.allowConsoleErrors(/status of 403/);
    await dialog.getByRole('button', { name: 'Отвязать' }).click();
    // The server asks for a fresh proof: the dialog asks for the password, then unlinks.
    await dialog.getByLabel('Текущий пароль').fill(account.password);
    await dialog.getByRole('button', { name: 'Продолжить' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByTestId('telegram-status').textContent())
      .toBe('Не подключено');
    expect((await userOf(portal.baseUrl, token)).telegramId).toBeNull();

    await page.goto(`${portal.baseUrl}/profile/security-log`);
    await page.getByTestId('security-event').first().getByText('Отвязан Telegram').waitFor();
  });
});
