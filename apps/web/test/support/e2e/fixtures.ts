import { afterAll, beforeAll } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../../../server/test/support/smtp-server';
import { createSignedInAccount } from './auth-helpers';
import type { BrowserSession, NewPageOptions } from './browser';
import { type Portal, type PortalOptions, setupPortal } from './portal';

export type SignedInAccount = Awaited<ReturnType<typeof createSignedInAccount>>;

export type PortalWithSmtp = {
  portal: Portal;
  /** The real SMTP server the portal sends its letters to (SMTP_URL). */
  smtp: TestSmtpServer;
};

export type PortalWithAccount = PortalWithSmtp & {
  /** A confirmed account with a live session, made through the real API, not by clicking. */
  account: SignedInAccount;
};

/** One portal for the test file and a real SMTP server for its letters. */
export function setupPortalWithSmtp(
  env: Record<string, string> = {},
  options: PortalOptions = {},
): () => PortalWithSmtp {
  let smtp: TestSmtpServer | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer({ closeAfterAll: false });
  });
  afterAll(async () => {
    await smtp?.close();
  });
  // Read when the portal starts, so `env` filled in by an earlier beforeAll is seen.
  const portal = setupPortal(() => ({ SMTP_URL: smtp?.url ?? '', ...env }), options);
  return () => {
    if (!smtp) throw new Error('setupPortalWithSmtp(): use it inside a test');
    return { portal: portal(), smtp };
  };
}

/** A new confirmed account with a session in that portal, made through the API, not the UI. */
export function newSignedInAccount({ portal, smtp }: PortalWithSmtp): Promise<SignedInAccount> {
  return createSignedInAccount(portal.baseUrl, smtp);
}

/**
 * One portal for the test file, a real SMTP server for its letters, and one signed-in account
 * (registered and confirmed through the API before the first test).
 */
export function setupPortalWithAccount(env: Record<string, string> = {}): () => PortalWithAccount {
  const world = setupPortalWithSmtp(env);
  let account: SignedInAccount | undefined;
  beforeAll(async () => {
    account = await newSignedInAccount(world());
  });
  return () => {
    if (!account) throw new Error('setupPortalWithAccount(): use it inside a test');
    return { ...world(), account };
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
