import { afterAll, beforeAll } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../server/test/smtp-server';
import { createSignedInAccount } from './auth-helpers';
import type { BrowserSession, NewPageOptions } from './browser';
import { type Portal, setupPortal } from './portal';

export type SignedInAccount = Awaited<ReturnType<typeof createSignedInAccount>>;

export type PortalWithAccount = {
  portal: Portal;
  smtp: TestSmtpServer;
  /** A confirmed account with a live session, made through the real API (STYLE #9). */
  account: SignedInAccount;
};

/**
 * One portal for the test file, a real SMTP server for its letters, and one signed-in account
 * (registered and confirmed through the API before the first test).
 */
export function setupPortalWithAccount(env: Record<string, string> = {}): () => PortalWithAccount {
  let smtp: TestSmtpServer | undefined;
  let account: SignedInAccount | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer({ closeAfterAll: false });
  });
  const portal = setupPortal(() => ({ SMTP_URL: smtp?.url ?? '', ...env }));
  beforeAll(async () => {
    if (!smtp) throw new Error('the SMTP server did not start');
    account = await createSignedInAccount(portal().baseUrl, smtp);
  });
  afterAll(async () => {
    await smtp?.close();
  });
  return () => {
    if (!smtp || !account) throw new Error('setupPortalWithAccount(): use it inside a test');
    return { portal: portal(), smtp, account };
  };
}

/** A page whose storage holds `token` before the app's first script runs. */
export function openSignedInPage(
  browser: BrowserSession,
  token: string,
  options: NewPageOptions = {},
) {
  return browser.newPage({
    ...options,
    localStorage: { access_token: token, ...options.localStorage },
  });
}
