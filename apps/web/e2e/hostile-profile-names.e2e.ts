import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { openSignedInPage, setupPortalWithAccount } from '../test/support/e2e/fixtures';

// Names that are markup are saved as they are and shown as text, never as elements, and nothing
// they contain runs. A username cannot be markup: it takes Latin letters, digits, _ . - only.

const NAMES = {
  userName: 'b.pwn_b-',
  firstName: '<img src=x onerror=alert(1)>',
  middleName: '<script>alert(2)</script>',
  lastName: '"><svg onload=alert(3)>',
};

const world = setupPortalWithAccount();
const browser = setupBrowser();

/** Elements or handlers the names would create if they were parsed as HTML. */
function injectedMarkup(page: Page) {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll(
        'img[src="x"], [onerror], [onload], svg[onload], b, script:not([src]):not([type="application/json"])',
      ),
    ].map((element) => element.outerHTML.slice(0, 120)),
  );
}

/** A page that records every alert/confirm/prompt instead of showing it. */
async function watchedPage(token: string) {
  const page = await openSignedInPage(browser, token);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { page, dialogs };
}

it('profile names with HTML are saved and rendered as literal text', async () => {
  const { portal, account } = world();
  const { page, dialogs } = await watchedPage(account.token);
  await page.goto(`${portal.baseUrl}/profile`);
  await page.getByRole('heading', { level: 1, name: 'Личные данные' }).waitFor();

  await page.getByRole('button', { name: 'Мои данные' }).click();
  const dialog = page.getByRole('dialog', { name: 'Мои данные' });
  await dialog.getByLabel('Имя').fill(NAMES.firstName);
  await dialog.getByLabel('Отчество').fill(NAMES.middleName);
  await dialog.getByLabel('Фамилия').fill(NAMES.lastName);
  // The form refuses a markup username and a name with a direction override under their fields.
  await dialog.getByLabel('Никнейм').fill('<b>pwn</b>');
  await dialog.getByLabel('Отчество').fill('Ильич\u202e');
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await dialog.getByText('Никнейм может содержать только латинские буквы, цифры, _ . -').waitFor();
  await dialog.getByText('Имя содержит недопустимые символы').waitFor();
  await dialog.getByLabel('Никнейм').fill(NAMES.userName);
  await dialog.getByLabel('Отчество').fill(NAMES.middleName);
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await waitForToast(page, 'Данные профиля обновлены');
  await dialog.waitFor({ state: 'detached' });

  const fullName = `${NAMES.firstName} ${NAMES.middleName} ${NAMES.lastName}`;
  await page.getByText(fullName, { exact: true }).waitFor();
  await page.getByText(`@${NAMES.userName}`, { exact: true }).waitFor();
  expect(await injectedMarkup(page)).toEqual([]);

  // Stored as typed, and shown as text again from what the server sends back.
  const answer = await fetch(`${portal.baseUrl}/authms/api/Auth/user`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.token}` },
  });
  expect(await answer.json()).toMatchObject(NAMES);
  for (const pathname of ['/profile', '/']) {
    await page.goto(`${portal.baseUrl}${pathname}`);
    await page.getByText(`@${NAMES.userName}`, { exact: false }).first().waitFor();
    await page.getByText(NAMES.firstName, { exact: false }).first().waitFor();
    expect(await injectedMarkup(page), `markup on ${pathname}`).toEqual([]);
  }
  expect(dialogs).toEqual([]);
});
