import type { User } from '@portal/contracts/auth';
import type { BrowserSession, NewPageOptions } from './browser';

export const FAKE_TOKEN = 'e2e-shell-token';

export const fakeUser: User = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'player@example.com',
  phoneNamber: null,
  userName: 'player_one',
  firstName: 'Иван',
  middleName: null,
  lastName: 'Петров',
  avatarUrl: null,
  isTwoFactorEnabled: false,
  yandexId: null,
  telegramId: null,
  balance: 1250.5,
  balanceStars: 120,
};

/**
 * For tests of the shell only (frame, routing, theme): a page with a stored token whose
 * current-user call is answered inside the browser, so no account is needed. Tests of a feature
 * sign in for real.
 */
export async function openSignedInPage(
  browser: BrowserSession,
  options: NewPageOptions = {},
  user: User = fakeUser,
) {
  const page = await browser.newPage({
    ...options,
    localStorage: { access_token: FAKE_TOKEN, ...options.localStorage },
  });
  await page.route('**/authms/api/Auth/user', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(user) }),
  );
  return page;
}
