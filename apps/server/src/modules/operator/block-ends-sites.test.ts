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
import { runAdmin } from './cli.js';

useOidcSites();

it('a block by the operator signs the account out of the sites it signed in to', async () => {
  const signedIn = await signedInEverywhere();
  const printed: string[] = [];
  const code = await runAdmin(
    {
      deps: oidcApp().app.deps,
      log: oidcApp().app.log,
      out: (line) => printed.push(line),
      err: (line) => printed.push(line),
    },
    ['block', signedIn.user.userName, '--operator', 'Ольга', '--reason', 'проверка входа'],
  );
  expect(code, printed.join('\n')).toBe(0);
  await expectBothSitesSignedOut(signedIn);
});
