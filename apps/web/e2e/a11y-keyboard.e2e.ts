import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isFocused, settled, tabTo } from './a11y-helpers';
import { setupBrowser } from './browser';
import { openSignedInPage, setupPortalWithAccount } from './fixtures';

// Issue 7: the portal works with the keyboard alone; dialogs keep the focus inside and give it
// back to what opened them.

const world = setupPortalWithAccount();
const browser = setupBrowser();

/** The focused element, described well enough to tell two apart. */
function focusedElement(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40);
    return `${element.tagName.toLowerCase()}[${element.getAttribute('type') ?? ''}] ${name ?? ''} ${element.getAttribute('name') ?? ''}`;
  });
}

const hasFocusInside = (dialog: Locator) =>
  dialog.evaluate((element) => element.contains(document.activeElement));

it('signs in with the keyboard only', async () => {
  const { portal, account } = world();
  const page = await browser.newPage();
  await page.goto(`${portal.baseUrl}/auth`);
  await page.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();

  await tabTo(page, page.getByLabel('Логин или почта'));
  await page.keyboard.type(account.email);
  await tabTo(page, page.getByLabel('Пароль', { exact: true }));
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');

  await page.waitForURL((address) => address.pathname === '/');
  await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
});

describe('dialogs opened from the keyboard', () => {
  it.each([
    { path: '/', heading: 'Главная', opener: 'Пополнить', dialog: 'Пополнение баланса' },
    {
      path: '/',
      heading: 'Главная',
      opener: 'Что такое баллы кэшбэка',
      dialog: 'Баллы кэшбэка',
    },
    { path: '/', heading: 'Главная', opener: 'Что такое овердрафт', dialog: 'Овердрафт' },
    { path: '/profile', heading: 'Личные данные', opener: 'Мои данные', dialog: 'Мои данные' },
  ])('$dialog traps Tab and Shift+Tab and returns the focus on Escape', async (example) => {
    const { portal, account } = world();
    const page = await openSignedInPage(browser, account.token);
    await page.goto(`${portal.baseUrl}${example.path}`);
    await page.getByRole('heading', { level: 1, name: example.heading }).waitFor();
    const opener = page.getByRole('button', { name: example.opener, exact: true });
    await opener.and(page.locator(':enabled')).waitFor();
    await settled(page);

    await tabTo(page, opener, 80);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: example.dialog });
    await dialog.waitFor();
    await expect.poll(() => hasFocusInside(dialog)).toBe(true);

    // More presses than the dialog has stops: the focus never leaves and comes round again.
    const stops = await dialog.evaluate(
      (element) =>
        element.querySelectorAll('a[href], button, input, select, textarea, [tabindex="0"]').length,
    );
    for (const key of ['Tab', 'Shift+Tab']) {
      const visited: string[] = [];
      for (let press = 0; press < stops + 2; press++) {
        await page.keyboard.press(key);
        expect(await hasFocusInside(dialog), `${key} left the dialog`).toBe(true);
        visited.push(await focusedElement(page));
      }
      expect(new Set(visited).size, `${key} did not come round: ${visited}`).toBeLessThan(
        visited.length,
      );
    }

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => ((await isFocused(opener)) ? 'the opener' : await focusedElement(page)))
      .toBe('the opener');
  });
});
