import { STAFF_REASON_REQUIRED } from '@portal/contracts/staff';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { codeIn } from '../../server/test/support/smtp-server';
import { postJson, sessionStatus, waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  openSignedInPage,
  type SignedInAccount,
  setupPortalWithSmtp,
} from '../test/support/e2e/fixtures';
import {
  newCustomerAndStaff,
  newStaffCandidate,
  type StaffCandidate,
} from '../test/support/e2e/staff-helpers';

// Support's main path: find the account by a part of its e-mail, open it, unlock its sign-in,
// end its sessions, block it (the reason required) — the customer's sessions end — and every
// action is on the account page's list of the staff's actions.

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const baseUrl = () => world().portal.baseUrl;
const url = (pathname: string) => `${baseUrl()}${pathname}`;

let customer: SignedInAccount;
let member: StaffCandidate;

beforeAll(async () => {
  ({ customer, member } = await newCustomerAndStaff(world(), {
    member: { role: 'support', proven: true },
  }));
});

/** Ten wrong passwords: the customer's sign-in is paused (LOGIN_FAILURES_BEFORE_DELAY). */
async function pauseSignIn(account: SignedInAccount) {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const response = await fetch(url('/authms/api/Auth/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ usernameOrEmail: account.username, password: 'wrong-password-1' }),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
  }
}

/** A profile fact of the account page (its <dt> and <dd>). */
function fact(page: Page, term: string): Locator {
  return page
    .locator('dl > div')
    .filter({ has: page.getByText(term, { exact: true }) })
    .locator('dd');
}

/** Opens the action's dialog, sends it empty (refused in Russian), then with a reason. */
async function act(page: Page, action: string, reason: string, toast: string | RegExp) {
  await page.getByRole('button', { name: action, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: action });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: action, exact: true }).click();
  await dialog.getByText(STAFF_REASON_REQUIRED).waitFor();
  await dialog.getByLabel('Причина или номер обращения').fill(reason);
  await dialog.getByRole('button', { name: action, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.locator('[data-sonner-toast]', { hasText: toast }).first().waitFor();
}

it('support finds the account, unlocks, ends sessions, blocks; each is on its list', async () => {
  await pauseSignIn(customer);
  const customerPage = await openSignedInPage(browser, customer.token);
  await customerPage.goto(url('/'));
  await customerPage.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();

  const page = await openSignedInPage(browser, member.token);
  await page.goto(url('/staff'));
  await page.getByRole('heading', { level: 1, name: 'Поиск клиента' }).waitFor();
  // A part of the e-mail: the unique middle of player.<suffix>@example.com.
  const part = customer.email.split('@')[0]?.split('.')[1] ?? '';
  await page.getByLabel('Кого ищем').fill(part);
  await page.getByRole('button', { name: 'Найти' }).click();
  const results = page.getByRole('region', { name: 'Найдено' });
  await results.getByRole('link', { name: customer.email }).click();
  await page.getByRole('heading', { level: 1, name: customer.email }).waitFor();
  expect(page.url()).toBe(url(`/staff/accounts/${customer.userId}`));
  expect(await fact(page, 'Вход на паузе до').textContent()).not.toBe('—');

  await act(
    page,
    'Снять паузу входа',
    'обращение 101: клиент вспомнил пароль',
    'Ожидание входа снято',
  );
  await expect.poll(() => fact(page, 'Вход на паузе до').textContent()).toBe('—');

  await act(
    page,
    'Завершить все сеансы',
    'обращение 102: потерял телефон',
    /Завершено сеансов: [1-9]/,
  );
  expect(await sessionStatus(baseUrl(), customer.token)).toBe(401);
  // The customer's open page learns of it at its next call: signed out, to the sign-in page.
  browser.allowConsoleErrors(/status of 401/);
  await customerPage.reload();
  await customerPage.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();

  // The customer signs in again; the block ends that session too and closes the way in.
  const again = (await postJson(url('/authms/api/Auth/login'), {
    usernameOrEmail: customer.username,
    password: customer.password,
  })) as { token: string };
  expect(await sessionStatus(baseUrl(), again.token)).toBe(200);
  await act(
    page,
    'Заблокировать',
    'обращение 103: мошенничество',
    /Аккаунт заблокирован; завершено сеансов: 1/,
  );
  expect(await sessionStatus(baseUrl(), again.token)).toBe(401);
  await page.getByRole('button', { name: 'Разблокировать', exact: true }).waitFor();
  await expect.poll(() => fact(page, 'Блокировка').textContent()).toMatch(/мошенничество/);

  // Blocked, the customer cannot sign in (ACCOUNT_BLOCKED).
  const blocked = await fetch(url('/authms/api/Auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ usernameOrEmail: customer.username, password: customer.password }),
  });
  expect(blocked.status).toBe(403);

  const list = page.getByRole('region', { name: 'Действия сотрудников' });
  for (const [kind, reason] of [
    ['unlock', 'обращение 101: клиент вспомнил пароль'],
    ['end-sessions', 'обращение 102: потерял телефон'],
    ['block', 'обращение 103: мошенничество'],
  ]) {
    const row = list.getByRole('row').filter({ hasText: reason });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(2).textContent()).toBe(kind);
    expect(await row.getByRole('cell').nth(1).textContent()).toBe(`${member.username} (Поддержка)`);
  }
  // Opening the account is recorded too.
  expect(
    await list.getByRole('cell', { name: 'account_opened', exact: true }).count(),
  ).toBeGreaterThan(0);
});

/** The code of the support desk's letter to `email` (letters before it, e.g. notices, skipped). */
async function supportCode(email: string): Promise<string> {
  for (;;) {
    const letter = await world().smtp.waitForLetter(email);
    if (letter.subject.includes('код для службы поддержки')) return codeIn(letter.text);
  }
}

it('support resets the second factor in two steps: the reason, then the code the customer read', async () => {
  const owner = await newStaffCandidate(world());
  const page = await openSignedInPage(browser, member.token);
  await page.goto(url(`/staff/accounts/${owner.userId}`));
  await page.getByRole('heading', { level: 1, name: owner.email }).waitFor();
  expect(await fact(page, 'Аутентификатор').textContent()).toBe('подключён');

  await page.getByRole('button', { name: 'Сбросить второй фактор' }).click();
  const first = page.getByRole('dialog', { name: 'Сбросить второй фактор: шаг 1 из 2' });
  await first.getByLabel('Причина или номер обращения').fill('обращение 104: потерял телефон');
  await first.getByRole('button', { name: 'Отправить код клиенту' }).click();
  await waitForToast(page, 'Код отправлен на почту клиента');

  const second = page.getByRole('dialog', { name: 'Сбросить второй фактор: шаг 2 из 2' });
  await second.getByLabel('Код из письма клиента').fill(await supportCode(owner.email));
  await second.getByRole('button', { name: 'Сбросить' }).click();
  await second.waitFor({ state: 'hidden' });
  await waitForToast(page, 'Приложение-аутентификатор выключено');
  await expect.poll(() => fact(page, 'Аутентификатор').textContent()).toBe('нет');
  const list = page.getByRole('region', { name: 'Действия сотрудников' });
  // Both steps carry the reason of the first.
  await expect
    .poll(() => list.getByRole('row').filter({ hasText: 'обращение 104' }).count())
    .toBe(2);
});
