// The devices list's site sign-ins are remembered per account (site-sign-ins.ts, db/user-reads.ts)
// and forgotten on every change the triggers of migration 0820 announce: each case reads the list
// first, so that what it checks afterwards is either announced or decided at read time.

import { eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { AUTH_API } from '../../../test/support/auth-helpers.js';
import { createUser } from '../../../test/support/fixtures.js';
import {
  Browser,
  devicesOf,
  oidcApp,
  signInToPortal,
  signInToSite,
  sites,
  useOidcSites,
} from '../../../test/support/oidc-sites.js';
import { oidcModels, oidcSiteSignIns } from './schema.js';

useOidcSites();

const kindsOf = async (session: Record<string, string>) =>
  (await devicesOf(session)).map((row) => row.kind);

/** «Выйти» on the row of the devices list `isIt` picks. */
async function endDevice(
  session: Record<string, string>,
  isIt: (device: Awaited<ReturnType<typeof devicesOf>>[number]) => boolean,
) {
  const row = (await devicesOf(session)).find(isIt)!;
  const ended = await oidcApp().app.inject({
    method: 'DELETE',
    url: `${AUTH_API}/devices/${row.id}`,
    headers: session,
  });
  expect(ended.statusCode, ended.body).toBe(200);
}

/** A portal session signed in to «Хостинг», its list read (and so remembered) with the site. */
async function signedInToHosting() {
  const user = await createUser(oidcApp());
  const session = await signInToPortal(user.userName);
  const atHosting = await signInToSite(new Browser(oidcApp().app), 'hosting', session);
  expect(await kindsOf(session)).toEqual(['session', 'site']);
  const [row] = await oidcApp()
    .database.db.select()
    .from(oidcSiteSignIns)
    .where(eq(oidcSiteSignIns.userId, user.id));
  return { user, session, atHosting, grantId: row!.grantId };
}

describe('the devices list, remembered per account, is never stale', () => {
  it('shows a site sign-in right after it is recorded', async () => {
    const user = await createUser(oidcApp());
    const session = await signInToPortal(user.userName);
    expect(await kindsOf(session)).toEqual(['session']);
    await signInToSite(new Browser(oidcApp().app), 'hosting', session);
    expect(await kindsOf(session)).toEqual(['session', 'site']);
  });

  it("drops it when the library revokes the grant (the site's revocation of its token)", async () => {
    const { session, atHosting, grantId } = await signedInToHosting();
    await client.tokenRevocation(sites.hosting, atHosting.refreshToken);
    const grants = await oidcApp()
      .database.db.select()
      .from(oidcModels)
      .where(sql`${oidcModels.kind} = 'Grant' AND ${oidcModels.id} = ${grantId}`);
    expect(grants).toEqual([]);
    expect(await kindsOf(session)).toEqual(['session']);
  });

  it('drops it when the library destroys the grant', async () => {
    const { session, grantId } = await signedInToHosting();
    const grant = await oidcApp().app.deps.oidcProvider.current().Grant.find(grantId);
    await grant!.destroy();
    expect(await kindsOf(session)).toEqual(['session']);
  });

  it('drops it when the portal ends it from the devices list', async () => {
    const { session } = await signedInToHosting();
    await endDevice(session, (device) => device.kind === 'site');
    expect(await kindsOf(session)).toEqual(['session']);
  });

  it('drops it when the portal session it came from is ended', async () => {
    const { user } = await signedInToHosting();
    const other = await signInToPortal(user.userName);
    expect(await kindsOf(other)).toEqual(['session', 'session', 'site']);
    await endDevice(other, (device) => device.kind === 'session' && !device.isCurrent);
    expect(await kindsOf(other)).toEqual(['session']);
  });

  it('drops it when the grant expires, with nothing written meanwhile', async () => {
    const user = await createUser(oidcApp());
    const session = await signInToPortal(user.userName);
    await signInToSite(new Browser(oidcApp().app), 'hosting', session);
    // The grant's end brought near (before the list is read: the write is announced).
    const inAnHour = new Date(oidcApp().clock.now().getTime() + 60 * 60_000);
    await oidcApp()
      .database.db.update(oidcModels)
      .set({ expiresAt: inAnHour })
      .where(
        sql`${oidcModels.kind} = 'Grant' AND ${oidcModels.payload}->>'accountId' = ${user.id}`,
      );
    expect(await kindsOf(session)).toEqual(['session', 'site']);
    oidcApp().clock.advance(2 * 60 * 60_000);
    expect(await kindsOf(session)).toEqual(['session']);
  });
});
