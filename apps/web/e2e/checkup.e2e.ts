import { describe, expect, it } from 'vitest';
import { horizontalOverflow, seriousViolations, settled } from '../test/support/e2e/a11y-helpers';
import { waitForToast } from '../test/support/e2e/auth-helpers';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';
import { userOf } from '../test/support/e2e/profile-helpers';

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

async function alertsByEmail(token: string, byEmail: boolean) {
  const response = await fetch(url('/authms/api/Auth/sign-in-alerts'), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ byEmail }),
  });
  expect(response.status).toBe(200);
}

describe('the security checkup', () => {
  it('home says what is missing; its link opens the authenticator on the profile (light theme)', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage({
      colorScheme: 'light',
      localStorage: { access_token: account.token },
    });
    await page.goto(url('/'));
    const line = page.getByTestId('checkup-line');
    await line.getByText('Проверка безопасности: 1 пункт требует внимания').waitFor();
    await settled(page);
    expect(await seriousViolations(page)).toEqual([]);

    // The one missing item is the second factor: the link goes straight to switching it on.
    browser.allowConsoleErrors(/status of 403/);
    await line.getByRole('link').click();
    await page.waitForURL((address) => address.pathname === '/profile');
    await page.getByRole('dialog', { name: 'Подключение Google Authenticator' }).waitFor();
    const card = page.getByTestId('checkup-card');
    await card.getByText('Двухфакторная защита выключена').waitFor();
    await card.getByText('Почта подтверждена').waitFor();
  });

  it('turns the sign-in alerts back on from the profile card', async () => {
    const account = await newSignedInAccount(world());
    await alertsByEmail(account.token, false);
    const page = await browser.newPage({
      colorScheme: 'light',
      localStorage: { access_token: account.token },
    });
    await page.goto(url('/'));
    await page.getByText('Проверка безопасности: 2 пункта требуют внимания').waitFor();
    await page.goto(url('/profile'));
    const card = page.getByTestId('checkup-card');
    await card.getByText('Оповещения о входе выключены').waitFor();
    await card.getByRole('button', { name: 'Включить оповещения' }).click();
    await waitForToast(page, 'Оповещения о входе с нового устройства включены');
    await card.getByText('Оповещения о входе включены').waitFor();
    expect(
      await page
        .getByRole('switch', { name: 'Оповещения о входе с нового устройства на почту' })
        .isChecked(),
    ).toBe(true);
    expect((await userOf(world().portal.baseUrl, account.token)).signInAlertsByEmail).toBe(true);
  });

  it('reads on a 375 px phone in the dark theme, on home and on the profile', async () => {
    const account = await newSignedInAccount(world());
    await alertsByEmail(account.token, false);
    const page = await browser.newPage({
      viewport: MOBILE_VIEWPORT,
      colorScheme: 'dark',
      localStorage: { access_token: account.token },
    });
    await page.goto(url('/'));
    await page.getByTestId('checkup-line').waitFor();
    for (const pathname of ['/', '/profile']) {
      if (pathname !== '/') await page.goto(url(pathname));
      await page.getByTestId(pathname === '/' ? 'checkup-line' : 'checkup-card').waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      const overflow = await horizontalOverflow(page);
      expect(overflow.scrollWidth, overflow.sticking.join(', ')).toBeLessThanOrEqual(
        MOBILE_VIEWPORT.width,
      );
      await settled(page);
      expect(await seriousViolations(page)).toEqual([]);
    }
  });
});
