import type { Page } from 'playwright-core';
import type { BrowserSession } from './browser';

/** /profile of a signed-in user, once the user card is drawn. */
export async function openProfile(
  browser: BrowserSession,
  baseUrl: string,
  token: string,
): Promise<Page> {
  const page = await browser.newPage({ localStorage: { access_token: token } });
  await page.goto(`${baseUrl}/profile`);
  await page.getByRole('heading', { level: 1, name: 'Личные данные' }).waitFor();
  await page.getByRole('button', { name: 'Мои данные' }).waitFor();
  return page;
}

export async function userOf(baseUrl: string, token: string) {
  const response = await fetch(`${baseUrl}/authms/api/Auth/user`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`user answered ${response.status}`);
  return (await response.json()) as {
    id: string;
    email: string;
    userName: string;
    firstName: string;
    middleName: string | null;
    lastName: string;
    avatarUrl: string | null;
    telegramId: string | null;
    phoneNamber: string | null;
    yandexId: string | null;
    signInAlertsByEmail: boolean;
    hasPassword: boolean;
  };
}
