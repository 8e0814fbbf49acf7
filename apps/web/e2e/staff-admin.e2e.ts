import { readFile } from 'node:fs/promises';
import { STAFF_API } from '@portal/contracts/staff';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { postJson, sessionStatus, waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  openSignedInPage,
  type SignedInAccount,
  setupPortalWithSmtp,
} from '../test/support/e2e/fixtures';
import {
  grantByAdmin,
  NOT_FOUND_HEADING,
  newCustomerAndStaff,
  newStaffCandidate,
  proveStaff,
  type StaffCandidate,
} from '../test/support/e2e/staff-helpers';

// The admin's pages: a role granted on /staff/roles, the audit with its filters and its CSV; and
// a role taken back while the member's page is open.

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const baseUrl = () => world().portal.baseUrl;
const url = (pathname: string) => `${baseUrl()}${pathname}`;

let admin: StaffCandidate;
let customer: SignedInAccount;

beforeAll(async () => {
  ({ customer, admin } = await newCustomerAndStaff(world(), {
    admin: { role: 'admin', proven: true },
  }));
});

/** /staff/roles: «Дать роль» with the e-mail, the role and the reason. */
async function grantOnPage(page: Page, email: string, role: string, reason: string) {
  await page.getByRole('button', { name: 'Дать роль', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Дать роль' });
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Роль').selectOption({ label: role });
  await dialog.getByLabel('Причина или номер обращения').fill(reason);
  await dialog.getByRole('button', { name: 'Дать роль', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await waitForToast(page, 'Роль выдана');
}

/** A change of support through the API, as its page makes it. */
function supportAction(member: StaffCandidate, action: string, reason: string) {
  return postJson(
    url(`${STAFF_API}/accounts/${customer.userId}/${action}`),
    { reason },
    member.token,
  );
}

describe('the admin', () => {
  it('grants a role on /staff/roles; the audit shows it and support’s actions, filtered, and as CSV', async () => {
    const support = await newStaffCandidate(world());
    const page = await openSignedInPage(browser, admin.token);
    await page.goto(url('/staff/roles'));
    await page.getByRole('heading', { level: 1, name: 'Сотрудники' }).waitFor();
    await grantOnPage(page, support.email, 'Поддержка', 'обращение 201: новый сотрудник');
    const members = page.getByRole('region', { name: 'Сотрудники и их роли' });
    await members
      .getByRole('row')
      .filter({ hasText: support.email })
      .getByText('Поддержка')
      .waitFor();

    await proveStaff(baseUrl(), support);
    await supportAction(support, 'unlock', 'обращение 202: снять паузу');
    await supportAction(support, 'end-sessions', 'обращение 203: выйти везде');

    await page
      .getByRole('navigation', { name: 'Разделы поддержки' })
      .getByRole('link', { name: 'Журнал действий' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Журнал действий' }).waitFor();
    const rows = page.getByRole('region', { name: 'Записи журнала' }).getByRole('row');
    await rows.filter({ hasText: 'обращение 201' }).filter({ hasText: 'role_granted' }).waitFor();
    await rows.filter({ hasText: 'обращение 202' }).filter({ hasText: 'unlock' }).waitFor();
    await rows.filter({ hasText: 'обращение 203' }).filter({ hasText: 'end-sessions' }).waitFor();

    // Only support's rows.
    await page.getByLabel('Сотрудник').fill(support.username);
    await page.getByRole('button', { name: 'Показать' }).click();
    await expect.poll(() => rows.filter({ hasText: 'обращение 201' }).count()).toBe(0);
    const body = page.getByRole('region', { name: 'Записи журнала' }).locator('tbody tr');
    await expect.poll(() => body.count()).toBe(2);
    for (const text of await body.allTextContents()) {
      expect(text).toContain(`${support.username} (Поддержка)`);
    }

    // Only the grants, of anyone.
    await page.getByLabel('Сотрудник').fill('');
    await page.getByLabel('Действие').fill('role_granted');
    await page.getByRole('button', { name: 'Показать' }).click();
    await expect.poll(() => rows.filter({ hasText: 'обращение 202' }).count()).toBe(0);
    await rows.filter({ hasText: 'обращение 201' }).waitFor();

    // The CSV, under the same filters: the grant's row, not support's.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Скачать CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain('обращение 201: новый сотрудник');
    expect(csv).toContain(support.userId);
    expect(csv).not.toContain('обращение 202');

    // Without filters, every row.
    await page.getByLabel('Действие').fill('');
    await page.getByRole('button', { name: 'Показать' }).click();
    await rows.filter({ hasText: 'обращение 202' }).waitFor();
    const [all] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Скачать CSV' }).click(),
    ]);
    const everything = await readFile(await all.path(), 'utf8');
    for (const reason of ['обращение 201', 'обращение 202', 'обращение 203']) {
      expect(everything).toContain(reason);
    }
  });
});

describe('a role taken back mid-session', () => {
  it('the member’s next action is refused: the session ended, the not-found page shows', async () => {
    const support = await newStaffCandidate(world());
    await grantByAdmin(baseUrl(), admin, support, 'support');
    await proveStaff(baseUrl(), support);
    const page = await openSignedInPage(browser, support.token);
    await page.goto(url(`/staff/accounts/${customer.userId}`));
    await page.getByRole('heading', { level: 1, name: customer.email }).waitFor();

    const adminPage = await openSignedInPage(browser, admin.token);
    await adminPage.goto(url('/staff/roles'));
    await adminPage.getByRole('button', { name: `Забрать роль: ${support.email}` }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Забрать роль' });
    await dialog.getByLabel('Причина или номер обращения').fill('обращение 204: уволился');
    await dialog.getByRole('button', { name: 'Забрать', exact: true }).click();
    await waitForToast(adminPage, 'Роль снята; сеансы сотрудника завершены');
    await adminPage
      .getByRole('region', { name: 'Сотрудники и их роли' })
      .getByText(support.email)
      .waitFor({ state: 'detached' });
    expect(await sessionStatus(baseUrl(), support.token)).toBe(401);

    // The open page tries its next change: refused (the server answers an ended session as an
    // unknown address), and the area shows the app's not-found page, no longer the frame of a
    // role that is gone.
    browser.allowConsoleErrors(/status of 404/);
    await page.getByRole('button', { name: 'Снять паузу входа', exact: true }).click();
    const change = page.getByRole('dialog', { name: 'Снять паузу входа' });
    await change.getByLabel('Причина или номер обращения').fill('обращение 205: после увольнения');
    await change.getByRole('button', { name: 'Снять паузу входа', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: NOT_FOUND_HEADING }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Разделы поддержки' }).count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Nothing was done: no row with that reason in the audit.
    const audit = (await (
      await fetch(url(`${STAFF_API}/audit?account=${customer.userId}`), {
        headers: { authorization: `Bearer ${admin.token}` },
      })
    ).json()) as { items: { reason: string | null }[] };
    expect(audit.items.map((row) => row.reason)).not.toContain('обращение 205: после увольнения');
    expect(audit.items.length).toBeGreaterThan(0);
  });
});
