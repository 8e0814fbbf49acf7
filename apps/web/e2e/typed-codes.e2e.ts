import { describe, expect, it } from 'vitest';
import {
  enableAuthenticator,
  newAccount,
  registerAccount,
  registrationCode,
  signInByForm,
  totpCode,
} from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';
import { paste } from '../test/support/e2e/page-helpers';

// Codes as people type and paste them: with a space or a dash, a line break around a pasted one.
// The digits are what count; no field of ours cuts a well-formed code short.
const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

describe('codes as people type them', () => {
  it('the sign-in’s authenticator step takes «123 456» typed with a space', async () => {
    const account = await newSignedInAccount(world());
    const { secret } = await enableAuthenticator(world().portal.baseUrl, account);
    const page = await browser.newPage();
    await page.goto(url('/auth'));
    await signInByForm(page, account.username, account.password);
    const codeField = page.getByLabel('Код подтверждения');
    await codeField.waitFor();
    // The next step's code: the ±1-step window takes it, and no earlier sign-in used that step.
    const code = totpCode(secret, Date.now() + 30_000);
    const typed = `${code.slice(0, 3)} ${code.slice(3)}`;
    await codeField.pressSequentially(typed);
    expect(await codeField.inputValue()).toBe(typed);
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await page.waitForURL((address) => address.pathname === '/');
  });

  it('the code screen takes a pasted « 123-456 » with a line break', async () => {
    const account = newAccount();
    await registerAccount(world().portal.baseUrl, account);
    const code = await registrationCode(world().smtp, account.email);
    const page = await browser.newPage();
    browser.allowConsoleErrors(/status of 403/);
    await page.goto(url('/auth'));
    await signInByForm(page, account.username, account.password);
    const codeField = page.getByLabel('Код из письма');
    await codeField.waitFor();
    await paste(codeField, ` ${code.slice(0, 3)}-${code.slice(3)}\n`);
    await page.waitForURL((address) => address.pathname === '/');
  });
});
