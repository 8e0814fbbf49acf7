import { describe, expect, it } from 'vitest';
import { setupBrowser } from '../test/support/e2e/browser';
import { setupPortalWithAccount } from '../test/support/e2e/fixtures';

// A portal started without TELEGRAM_BOT_TOKEN and YANDEX_CLIENT_ID: the web app learns that from
// the settings in index.html and offers neither.
const env = setupPortalWithAccount();
const browser = setupBrowser();

describe('a portal without Telegram and Yandex ID', () => {
  it('/auth offers no «Войти с Яндекс ID»', async () => {
    const { portal } = env();
    const page = await browser.newPage();
    await page.goto(`${portal.baseUrl}/auth`);
    await page.getByRole('button', { name: 'Войти', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Войти с Яндекс ID' }).count()).toBe(0);
  });

  it('/profile shows Telegram and Yandex ID as «Недоступно», with nothing to press that fails', async () => {
    const { portal, account } = env();
    const page = await browser.newPage({ localStorage: { access_token: account.token } });
    // The Telegram check still runs (a linked account shows «Подключено»); «Недоступно» is judged
    // once it answered, not while it runs.
    const checked = page.waitForResponse((answer) => answer.url().endsWith('/check-telegram-user'));
    await page.goto(`${portal.baseUrl}/profile`);
    await checked;
    const telegram = page.getByTestId('telegram-setting');
    await expect.poll(() => page.getByTestId('telegram-status').textContent()).toBe('Недоступно');
    expect(await telegram.getByRole('button', { name: 'Подключить' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('yandex-status').textContent()).toBe('Недоступно');
    // Nothing opened, nothing refused.
    expect(page.context().pages()).toHaveLength(1);
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
  });
});
