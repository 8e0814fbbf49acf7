import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeYandex, startFakeYandex } from '../../server/test/support/fake-yandex';
import {
  enableAuthenticator,
  fillRegistration,
  newAccount,
  postJson,
  registerAccount,
  registrationCode,
  signInByForm,
  startSiblingSite,
  totpCode,
  waitForToast,
} from '../test/support/e2e/auth-helpers';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';

// The sign-up and sign-in flows as a person walks them: the mail app in between, Back, reload,
// the registration pressed again, a phone's finger on the consent text. The privacy policy is a
// local page, so its tab opens without the network; Yandex ID is a local stand-in.
let policySite: Awaited<ReturnType<typeof startSiblingSite>>;
let yandex: FakeYandex;
const env: Record<string, string> = {};
beforeAll(async () => {
  policySite = await startSiblingSite();
  yandex = await startFakeYandex();
  Object.assign(env, yandex.config, { PRIVACY_URL: `${policySite.origin}/privacy` });
});
afterAll(async () => {
  await policySite?.close();
  await yandex?.close();
});
const world = setupPortalWithSmtp(env);
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('access_token'));

const codeHeading = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'Подтверждение почты' });
/** The resend button while it waits, and the seconds it still shows. */
const heldResend = (page: Page) => page.getByRole('button', { name: /^Отправить повторно через/ });
async function secondsOnResend(page: Page): Promise<number> {
  const text = (await heldResend(page).textContent()) ?? '';
  const [, minutes = '0', seconds = '0'] = /(\d+):(\d\d)$/.exec(text) ?? [];
  return Number(minutes) * 60 + Number(seconds);
}

/** Reads the letter the way a person does: in another tab (the mail app), then back. */
async function codeFromMailApp(page: Page, email: string): Promise<string> {
  const mailApp = await page.context().newPage();
  const code = await registrationCode(world().smtp, email);
  await mailApp.close();
  await page.bringToFront();
  return code;
}

describe('the registration code step', () => {
  it('opens for an unconfirmed account signing in by username, and the code confirms it', async () => {
    const account = newAccount();
    await registerAccount(world().portal.baseUrl, account);
    const page = await browser.newPage();
    browser.allowConsoleErrors(/status of 403/);
    await page.goto(url('/auth'));
    await signInByForm(page, account.username, account.password);

    await waitForToast(page, 'Почта не подтверждена');
    await codeHeading(page).waitFor();
    expect(await page.getByText(account.email).isVisible()).toBe(true);
    // Within the first letter's countdown no second letter went: the first code is the one.
    const code = await codeFromMailApp(page, account.email);
    await page.getByLabel('Код из письма').fill(code);
    await page.waitForURL((address) => address.pathname === '/');
    expect(await storedToken(page)).not.toBeNull();
  });

  it('survives the mail app, a reload and Back; «Зарегистрироваться» again leads to it with the countdown where it was', async () => {
    const account = newAccount();
    const page = await browser.newPage();
    // Came to /auth from the reset page, so Back stays in the app.
    await page.goto(url('/reset-password'));
    await page.getByRole('link', { name: 'Назад' }).click();
    await page.waitForURL((address) => address.pathname === '/auth');
    await fillRegistration(page, account);
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await codeHeading(page).waitFor();
    const code = await codeFromMailApp(page, account.email);

    // The phone dropped the tab while the mail app was open: the page loads again, and the
    // countdown goes on from where it was instead of starting over.
    await expect.poll(() => secondsOnResend(page), { timeout: 10_000 }).toBeLessThanOrEqual(57);
    await page.reload();
    await codeHeading(page).waitFor();
    expect(await page.getByText(account.email).isVisible()).toBe(true);
    const afterReload = await secondsOnResend(page);
    expect(afterReload).toBeGreaterThan(0);
    expect(afterReload).toBeLessThanOrEqual(57);

    // Back to the previous page and forward again: still the code step.
    await page.goBack();
    await page.waitForURL((address) => address.pathname === '/reset-password');
    await page.goForward();
    await page.waitForURL((address) => address.pathname === '/auth');
    await codeHeading(page).waitFor();

    // The page's own «Назад» to fix the form, then «Зарегистрироваться» again inside the
    // countdown: the code step again, its countdown not restarted.
    await page.getByRole('button', { name: 'Назад' }).click();
    await page.getByRole('tab', { name: 'Регистрация' }).waitFor();
    browser.allowConsoleErrors(/status of 429/);
    await fillRegistration(page, account);
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await codeHeading(page).waitFor();
    const held = await secondsOnResend(page);
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(afterReload);

    // The code from the first letter still confirms.
    await page.getByLabel('Код из письма').fill(code);
    await page.waitForURL((address) => address.pathname === '/');
    expect(await storedToken(page)).not.toBeNull();
    // Confirmed: nothing pending is left for the next visit.
    expect(await page.evaluate(() => Object.keys(sessionStorage))).not.toContainEqual(
      expect.stringMatching(/confirmation/i),
    );
  });
});

describe('Yandex ID with the authenticator on', () => {
  it('asks for the authenticator code as the password sign-in does; a wrong one is refused, a reload asks again', async () => {
    const { portal } = world();
    const account = await newSignedInAccount(world());
    const yandexAccount = {
      id: `tf${Date.now()}`,
      login: 'two.factor',
      default_email: `tf${Date.now()}@ya.ru`,
    };
    await linkYandex(portal.baseUrl, account, yandexAccount);
    const { secret } = await enableAuthenticator(portal.baseUrl, account);

    yandex.signInAs(yandexAccount);
    const page = await browser.newPage();
    await page.goto(url('/auth'));
    await page.getByRole('button', { name: 'Войти с Яндекс ID' }).click();
    const heading = page.getByRole('heading', { level: 1, name: 'Вход через Яндекс ID' });
    await heading.waitFor();
    expect(await storedToken(page)).toBeNull();

    browser.allowConsoleErrors(/status of 400/);
    const field = page.getByLabel('Код подтверждения');
    const next = totpCode(secret, Date.now() + 30_000);
    await field.fill(String((Number(next) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await page.getByText('Неверный код').waitFor();
    expect(await storedToken(page)).toBeNull();

    // Back from the authenticator app, the phone reloaded the tab: the step is asked again.
    await page.reload();
    await heading.waitFor();
    await page.getByLabel('Код подтверждения').fill(next);
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await page.waitForURL((address) => address.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    expect(await storedToken(page)).toMatch(/^[\w-]{40,}$/);
  });
});

/**
 * Links `yandexAccount` to the signed-in account through the API, as the profile's dialog does:
 * a fresh proof, getUrl with the token, the stand-in's answer brought back to the callback with
 * the flow cookie.
 */
async function linkYandex(
  baseUrl: string,
  account: { token: string; password: string },
  yandexAccount: Parameters<FakeYandex['signInAs']>[0],
) {
  await postJson(`${baseUrl}/authms/api/Auth/proof`, { password: account.password }, account.token);
  yandex.signInAs(yandexAccount);
  const started = await fetch(`${baseUrl}/auth/yandex/getUrl`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { data } = (await started.json()) as { data: { url: string } };
  const authorize = await fetch(data.url, { redirect: 'manual' });
  const fragment = new URL(authorize.headers.get('location') ?? '').hash.slice(1);
  const linked = await fetch(`${baseUrl}/auth/yandex/callback?${fragment}`, {
    headers: { cookie },
    redirect: 'manual',
  });
  expect(linked.headers.get('location')).toContain('yandexLinked=1');
}

describe.each(['light', 'dark'] as const)('/auth at 375 px, %s theme', (colorScheme) => {
  it('the Регистрация tab has its own heading, which fits the card', async () => {
    const page = await browser.newPage({ viewport: MOBILE_VIEWPORT, colorScheme });
    await page.goto(url('/auth'));
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
    await page.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();
    await page.getByRole('tab', { name: 'Регистрация' }).click();
    const heading = page.getByRole('heading', { level: 1 });
    await page.getByRole('heading', { level: 1, name: 'Регистрация в личном кабинете' }).waitFor();
    expect(await heading.count()).toBe(1);
    const fits = await heading.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return (
        box.left >= 0 &&
        box.right <= window.innerWidth &&
        element.scrollWidth <= element.clientWidth
      );
    });
    expect(fits).toBe(true);
    await page.getByRole('tab', { name: 'Войти' }).click();
    await page.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();
  });

  it('a finger on the consent text ticks the box; only the link opens the policy', async () => {
    const page = await browser.newPage({ viewport: MOBILE_VIEWPORT, colorScheme, hasTouch: true });
    await page.goto(url('/auth'));
    await page.getByRole('tab', { name: 'Регистрация' }).click();
    const consent = page.getByRole('checkbox', { name: /согласие/ });
    await page.getByRole('button', { name: 'Зарегистрироваться' }).scrollIntoViewIfNeeded();
    const opened: string[] = [];
    page.context().on('page', (tab) => opened.push(tab.url()));

    for (const words of ['Я даю согласие на', 'рекламной рассылки']) {
      const before = await consent.isChecked();
      await fingerTap(page, await centreOfText(page, words));
      await expect.poll(() => consent.isChecked()).toBe(!before);
    }
    expect(opened).toEqual([]);

    const checked = await consent.isChecked();
    const policy = page.context().waitForEvent('page');
    await fingerTap(page, await centreOfText(page, 'персональных данных'));
    const tab = await policy;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(`${policySite.origin}/privacy`);
    expect(await consent.isChecked()).toBe(checked);
  });
});

/** The middle of the first place `words` stand on the page (a text node of the consent label). */
async function centreOfText(page: Page, words: string): Promise<{ x: number; y: number }> {
  return page.evaluate((needle) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(needle) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      const box = range.getClientRects()[0];
      if (!box) break;
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    }
    throw new Error(`no text «${needle}» on the page`);
  }, words);
}

/** A tap with a fingertip's contact area (about 7 mm across), as a phone reports one. */
async function fingerTap(page: Page, point: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  const touch = { ...point, radiusX: 13, radiusY: 13, force: 1 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [touch] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}
