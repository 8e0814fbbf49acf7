import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pngImage } from '../../server/test/support/images';
import { createSignedInAccount, waitForToast } from '../test/support/e2e/auth-helpers';
import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { setupPortalWithAccount } from '../test/support/e2e/fixtures';
import { openProfile, userOf } from '../test/support/e2e/profile-helpers';

const env = setupPortalWithAccount();
const browser = setupBrowser();

describe('/profile', () => {
  it('shows the user card, contacts, the 2FA methods and the devices summary', async () => {
    const { portal, account } = env();
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.getByText(`@${account.username}`).waitFor();
    await page.getByText(account.userId).waitFor();
    expect(await page.getByTestId('profile-email').textContent()).toBe(account.email);
    expect(await page.getByTestId('profile-phone').textContent()).toBe('Не указан');
    await page.getByText('Google Authenticator').waitFor();
    await page.getByText('*обязательно').waitFor();
    // This portal has no Telegram bot and no Yandex ID application: neither can be linked
    // (links-not-configured.e2e.ts; profile-telegram and profile-yandex have both).
    await expect.poll(() => page.getByTestId('telegram-status').textContent()).toBe('Недоступно');
    expect(await page.getByTestId('phone-status').textContent()).toBe('Недоступно');
    expect(await page.getByTestId('yandex-status').textContent()).toBe('Недоступно');
    // Phone and Yandex rows have no buttons; Telegram's is there, held.
    await page
      .getByTestId('telegram-setting')
      .getByRole('button', { name: 'Подключить' })
      .waitFor();
    await expect.poll(() => page.getByTestId('devices-count').textContent()).toBe('1 устройство');

    await page.getByRole('link', { name: /устройство/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Привязанные устройства' }).waitFor();
  });

  it('counts devices with the Russian plural', async () => {
    const { portal, smtp } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    for (let index = 0; index < 4; index++) {
      const response = await fetch(`${portal.baseUrl}/authms/api/Auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ usernameOrEmail: account.username, password: account.password }),
      });
      expect(response.status).toBe(200);
    }
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await expect.poll(() => page.getByTestId('devices-count').textContent()).toBe('5 устройств');
  });

  it('copies the id with a toast', async () => {
    const { portal, account } = env();
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Скопировать ID' }).click();
    await waitForToast(page, 'ID скопирован!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(account.userId);
  });

  it('edits «Мои данные»: a validation error first, then a save merged into the page', async () => {
    const { portal, smtp } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.getByRole('button', { name: 'Мои данные' }).click();
    const dialog = page.getByRole('dialog', { name: 'Мои данные' });
    await dialog.waitFor();

    await dialog.getByLabel('Никнейм').fill('ab');
    await dialog.getByLabel('Отчество').fill('   ');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await dialog.getByText('Минимум 3 символа').waitFor();
    await dialog.getByText('Поле не должно состоять только из пробелов').waitFor();
    expect((await userOf(portal.baseUrl, account.token)).userName).toBe(account.username);

    const nick = `Nick${Date.now().toString(36).slice(-6)}`;
    await dialog.getByLabel('Никнейм').fill(`  ${nick} `);
    await dialog.getByLabel('Имя').fill(' Пётр ');
    await dialog.getByLabel('Отчество').fill('Ильич');
    await dialog.getByLabel('Фамилия').fill('Сидоров ');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await waitForToast(page, 'Данные профиля обновлены');
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Пётр Ильич Сидоров').waitFor();
    await page.getByText(`@${nick}`).waitFor();
    expect(await userOf(portal.baseUrl, account.token)).toMatchObject({
      userName: nick,
      firstName: 'Пётр',
      middleName: 'Ильич',
      lastName: 'Сидоров',
    });
  });

  it('«Мои данные»: the fields in the spec’s order, and a nickname of spaces says so', async () => {
    const { portal, smtp } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.getByRole('button', { name: 'Мои данные' }).click();
    const dialog = page.getByRole('dialog', { name: 'Мои данные' });
    await dialog.waitFor();
    const labels = await dialog
      .getByRole('textbox')
      .evaluateAll((fields) =>
        fields.map((field) => (field as HTMLInputElement).labels?.[0]?.textContent),
      );
    expect(labels).toEqual(['Никнейм', 'Имя', 'Отчество', 'Фамилия']);

    const nickname = dialog.getByLabel('Никнейм');
    await nickname.fill('');
    await nickname.pressSequentially('   ');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    const message = page.locator(`#${await nickname.getAttribute('aria-describedby')}`);
    await message.getByText('Поле не должно состоять только из пробелов').waitFor();
    expect((await userOf(portal.baseUrl, account.token)).userName).toBe(account.username);
  });

  it('shows the server’s refusal of a taken nickname under the field', async () => {
    const { portal, smtp, account: other } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.getByRole('button', { name: 'Мои данные' }).click();
    const dialog = page.getByRole('dialog', { name: 'Мои данные' });
    browser.allowConsoleErrors('409 (Conflict)');
    await dialog.getByLabel('Никнейм').fill(other.username);
    await dialog.getByLabel('Отчество').fill('Ильич');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    const nickname = dialog.getByLabel('Никнейм');
    await expect.poll(() => nickname.getAttribute('aria-invalid')).toBe('true');
    const message = page.locator(`#${await nickname.getAttribute('aria-describedby')}`);
    expect(await message.textContent()).toBe('Этот никнейм уже занят');
    expect((await userOf(portal.baseUrl, account.token)).userName).toBe(account.username);
  });

  it('uploads an avatar with a progress bar and shows it', async () => {
    const { portal, smtp } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    const file = path.join(tmpdir(), `avatar-${Date.now()}.png`);
    writeFileSync(file, await pngImage(400, 300));
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.getByRole('button', { name: 'Мои данные' }).click();
    const dialog = page.getByRole('dialog', { name: 'Мои данные' });

    // Hold the upload's answer so the progress bar can be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/upload', async (route) => {
      await held;
      await route.continue();
    });
    await dialog.getByLabel('Файл аватара').setInputFiles(file);
    const bar = dialog.getByRole('progressbar', { name: 'Загрузка аватара' });
    await bar.waitFor();
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(0);
    await dialog.getByText(/^\d+%$/).waitFor();
    release();

    await waitForToast(page, 'Аватар обновлён');
    await bar.waitFor({ state: 'detached' });
    const stored = (await userOf(portal.baseUrl, account.token)).avatarUrl;
    expect(stored).toMatch(/\/uploads\/[0-9a-f]{32}\.png$/);
    const shown = page.locator(`img[alt="Аватар"][src="${stored}"]`).first();
    await shown.waitFor();
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(512);
  });

  it('refuses a file that is not PNG or JPEG and resets the upload', async () => {
    const { portal, account } = env();
    const file = path.join(tmpdir(), `not-an-image-${Date.now()}.png`);
    writeFileSync(file, 'plain text pretending to be a picture');
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.getByRole('button', { name: 'Мои данные' }).click();
    const dialog = page.getByRole('dialog', { name: 'Мои данные' });
    browser.allowConsoleErrors('400 (Bad Request)');
    await dialog.getByLabel('Файл аватара').setInputFiles(file);
    await waitForToast(page, 'Допустимы только изображения PNG или JPEG');
    await dialog.getByText('PNG или JPEG', { exact: true }).waitFor();
    expect((await userOf(portal.baseUrl, account.token)).avatarUrl).toBeNull();
  });

  it('asks before unlinking Telegram, and «Отмена» changes nothing', async () => {
    const { portal, account } = env();
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.route('**/authms/api/Auth/users/check-telegram-user', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: 'true' }),
    );
    await page.reload();
    await expect.poll(() => page.getByTestId('telegram-status').textContent()).toBe('Подключено');
    expect(await page.getByTestId('phone-status').textContent()).toBe('Подключено');
    await page.getByTestId('telegram-setting').getByRole('button', { name: 'Отвязать' }).click();
    const dialog = page.getByRole('dialog', { name: 'Отвязать Telegram?' });
    await dialog.getByText(/Уведомления о входах/).waitFor();
    await dialog.getByRole('button', { name: 'Отмена' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('telegram-status').textContent()).toBe('Подключено');
  });

  it('shows the Telegram check failing as unavailable with a toast', async () => {
    const { portal, account } = env();
    const page = await browser.newPage({ localStorage: { access_token: account.token } });
    await page.route('**/authms/api/Auth/users/check-telegram-user', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"x"}' }),
    );
    browser.allowConsoleErrors('500 (Internal Server Error)');
    await page.goto(`${portal.baseUrl}/profile`);
    await waitForToast(page, 'Ошибка получения 2fa');
    expect(await page.getByTestId('telegram-status').textContent()).toBe('Недоступно');
  });

  it('logs out', async () => {
    const { portal, smtp } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.getByRole('button', { name: 'Выйти из аккаунта' }).click();
    await page.waitForURL(/\/auth$/);
    const response = await fetch(`${portal.baseUrl}/authms/api/Auth/user`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(response.status).toBe(401);
  });
});

describe('the nickname as it is stored', () => {
  it('strips the spaces of «ab cd» as typed, like registration, and shows what the server stored', async () => {
    const { portal, smtp } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.getByRole('button', { name: 'Мои данные' }).click();
    const dialog = page.getByRole('dialog', { name: 'Мои данные' });
    const suffix = Date.now().toString(36).slice(-5);
    const field = dialog.getByLabel('Никнейм');
    await field.fill('');
    await field.pressSequentially(`ab cd ${suffix}`);
    expect(await field.inputValue()).toBe(`abcd${suffix}`);
    await dialog.getByLabel('Отчество').fill('Ильич');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await waitForToast(page, 'Данные профиля обновлены');
    await dialog.waitFor({ state: 'detached' });

    const stored = (await userOf(portal.baseUrl, account.token)).userName;
    expect(stored).toBe(`abcd${suffix}`);
    await page.getByText(`@${stored}`, { exact: true }).waitFor();
    // The same after a reload (what the page shows is what the server keeps).
    await page.reload();
    await page.getByText(`@${stored}`, { exact: true }).waitFor();
  });

  it('shows the server’s stored nickname even when spaces reach it (pasted, not typed)', async () => {
    const { portal, smtp } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.getByRole('button', { name: 'Мои данные' }).click();
    const dialog = page.getByRole('dialog', { name: 'Мои данные' });
    const suffix = Date.now().toString(36).slice(-5);
    // fill() sets the whole value at once, as a paste does.
    await dialog.getByLabel('Никнейм').fill(`ab cd${suffix}`);
    await dialog.getByLabel('Отчество').fill('Ильич');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await waitForToast(page, 'Данные профиля обновлены');
    await dialog.waitFor({ state: 'detached' });
    expect((await userOf(portal.baseUrl, account.token)).userName).toBe(`abcd${suffix}`);
    await page.getByText(`@abcd${suffix}`, { exact: true }).waitFor();
    expect(await page.getByText(`@ab cd${suffix}`).count()).toBe(0);
  });
});

describe('one avatar, the profile’s sections', () => {
  const avatarText = async (page: Page) =>
    (await page.getByTestId('avatar').first().textContent())?.trim();

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const viewport of [MOBILE_VIEWPORT, DESKTOP_VIEWPORT]) {
      it(`shows the same initials on home and profile (${colorScheme}, ${viewport.width} px)`, async () => {
        const { portal, account } = env();
        const page = await browser.newPage({
          colorScheme,
          viewport,
          localStorage: { access_token: account.token },
        });
        await page.goto(`${portal.baseUrl}/`);
        await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
        await page.getByTestId('avatar').first().waitFor();
        // 'Иван Петров': first and last name.
        expect(await avatarText(page)).toBe('ИП');
        await page.goto(`${portal.baseUrl}/profile`);
        await page.getByRole('button', { name: 'Мои данные' }).waitFor();
        expect(await avatarText(page)).toBe('ИП');
      });

      it(`spaces the two-factor heading like the other sections (${colorScheme}, ${viewport.width} px)`, async () => {
        const { portal, account } = env();
        const page = await browser.newPage({
          colorScheme,
          viewport,
          localStorage: { access_token: account.token },
        });
        await page.goto(`${portal.baseUrl}/profile`);
        await page.getByText('Google Authenticator').waitFor();
        // Under a card's title, its first row; under the two-factor heading, the authenticator.
        // All four measured in one frame: a card that finishes loading above them (the checkup)
        // moves them all, and must not move them between two measurements.
        const elements = await Promise.all(
          [
            page.getByRole('heading', { name: 'Контакты' }),
            page.getByText('Почта', { exact: true }),
            page.getByRole('heading', { name: 'Двухфакторная аутентификация' }),
            page.getByText('Google Authenticator', { exact: true }),
          ].map((locator) => locator.elementHandle()),
        );
        const [underContacts, underTwoFactor] = await page.evaluate(
          ([contacts, mail, twoFactor, authenticator]) => [
            (mail?.getBoundingClientRect().top ?? 0) -
              (contacts?.getBoundingClientRect().bottom ?? 0),
            (authenticator?.getBoundingClientRect().top ?? 0) -
              (twoFactor?.getBoundingClientRect().bottom ?? 0),
          ],
          elements,
        );
        expect(underContacts).toBeGreaterThan(0);
        expect(Math.abs((underTwoFactor ?? 0) - (underContacts ?? 0))).toBeLessThanOrEqual(1);
      });
    }
  }
});
