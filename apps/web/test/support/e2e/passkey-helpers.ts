import type { Page } from 'playwright-core';

/**
 * Chromium's virtual authenticator for this page's browser context: it keeps discoverable
 * credentials and verifies its user, so the browser's passkey dialogs answer by themselves.
 * Answers a reader of the credentials it holds.
 */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

/**
 * From now on (this document and the next ones) the browser says it has no passkey autofill:
 * the login field's conditional request would sign in by itself when focused, where a test
 * presses the button.
 */
export async function withoutPasskeyAutofill(page: Page) {
  const hide = () => {
    Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', {
      value: undefined,
    });
  };
  await page.context().addInitScript(hide);
  await page.evaluate(hide);
}
