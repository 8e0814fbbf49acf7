// The operator's block ends the account's sessions, and with them the sites signed in through
// them (modules/oidc): their refresh tokens are refused, and each site receives a back-channel
// logout token (test/support/oidc-sites.ts verifies it with the provider's keys).
import { expect, it } from 'vitest';
import {
  expectBothSitesSignedOut,
  oidcApp,
  signedInEverywhere,
  useOidcSites,
} from '../../../test/support/oidc-sites.js';
import { runAdminIn } from '../../../test/support/operator-tool.js';

useOidcSites();

it('a block by the operator signs the account out of the sites it signed in to', async () => {
  const signedIn = await signedInEverywhere();
  const blocked = await runAdminIn(
    oidcApp().app,
    ...['block', signedIn.user.userName, '--operator', 'Ольга', '--reason', 'проверка входа'],
  );
  expect(blocked.code, blocked.err).toBe(0);
  await expectBothSitesSignedOut(signedIn);
});
