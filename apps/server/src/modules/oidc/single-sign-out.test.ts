// Single sign-out: a site's sign-in through the provider is a device of the portal session that
// signed in, and every way that session ends (the devices list, a sign-out, «Это был не я», a
// reset with sign-out; the operator's block: modules/operator/block-ends-sites.test.ts) ends the site's grant: its refresh token is
// refused, and the site, a real HTTP server on 127.0.0.1, receives a back-channel logout token
// made by the library, which this test verifies with the provider's published keys.
import { and, eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { AUTH_API, sessionStatus } from '../../../test/support/auth-helpers.js';
import { createUser, latestCodeTo, lettersTo } from '../../../test/support/fixtures.js';
import {
  Browser,
  CHROME,
  devicesOf,
  expectBothSitesSignedOut,
  expectLoggedOut,
  expectRefreshRefused,
  FIREFOX,
  hosting,
  launcher,
  nextIp,
  oidcApp,
  signedInEverywhere,
  signInToPortal,
  signInToSite,
  sites,
  useOidcSites,
} from '../../../test/support/oidc-sites.js';
import { mailOutbox } from '../../adapters/mail-schema.js';
import { securityEvents } from '../security-log/schema.js';
import { oidcModels, oidcSiteSignIns } from './schema.js';

useOidcSites();

/** The site sends the browser to the provider: 303 to the site, or to a sign-in (an interaction). */
async function authorize(browser: Browser, site: 'hosting' | 'launcher') {
  return browser.request(
    'GET',
    client.buildAuthorizationUrl(sites[site], {
      redirect_uri: `https://${site}.example.com/oidc/callback`,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    }),
  );
}
describe("a site's sign-in in the devices list", () => {
  it('is a row named by the site with the browser, single sign-on included, and is ended alone', async () => {
    const user = await createUser(oidcApp());
    const session = await signInToPortal(user.userName);
    const browser = new Browser(oidcApp().app);
    const atHosting = await signInToSite(browser, 'hosting', session);
    // The library already knows the person: no sign-in step, the same portal session.
    const atLauncher = await signInToSite(browser, 'launcher', session);

    const devices = await devicesOf(session);
    expect(devices).toHaveLength(3);
    const [portal, ...siteRows] = devices;
    expect(portal).toMatchObject({ isCurrent: true, kind: 'session', site: 'Личный кабинет' });
    expect(siteRows.map((row) => row.site).sort()).toEqual(['launcher', 'Хостинг']);
    for (const row of siteRows) {
      expect(row).toMatchObject({ kind: 'site', isCurrent: false, userAgent: FIREFOX });
    }

    const events = await oidcApp()
      .database.db.select()
      .from(securityEvents)
      .where(eq(securityEvents.userId, user.id));
    expect(
      events.filter((event) => event.kind === 'site_sign_in').map((event) => event.details.site),
    ).toEqual(expect.arrayContaining(['Хостинг', 'launcher']));

    const hostingRow = siteRows.find((row) => row.site === 'Хостинг')!;
    const ended = await oidcApp().app.inject({
      method: 'DELETE',
      url: `${AUTH_API}/devices/${hostingRow.id}`,
      headers: session,
    });
    expect(ended.statusCode, ended.body).toBe(200);
    await expectRefreshRefused('hosting', atHosting.refreshToken);
    await expectLoggedOut('hosting', hosting, { userId: user.id, sid: atHosting.sid });
    // Only that site: the portal session and the other site go on.
    expect(await sessionStatus(oidcApp(), session)).toBe(200);
    expect(launcher.tokens).toEqual([]);
    const refreshed = await client.refreshTokenGrant(sites.launcher, atLauncher.refreshToken);
    expect(refreshed.refresh_token).toBeTruthy();
    expect((await devicesOf(session)).map((row) => row.site)).toEqual([
      'Личный кабинет',
      'launcher',
    ]);
    // Gone is gone: the same row again, and another account's row, are 404.
    const again = await oidcApp().app.inject({
      method: 'DELETE',
      url: `${AUTH_API}/devices/${hostingRow.id}`,
      headers: session,
    });
    expect(again.statusCode).toBe(404);
    const stranger = await signInToPortal((await createUser(oidcApp())).userName);
    const launcherRow = (await devicesOf(session)).find((row) => row.kind === 'site')!;
    const foreign = await oidcApp().app.inject({
      method: 'DELETE',
      url: `${AUTH_API}/devices/${launcherRow.id}`,
      headers: stranger,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('after it, the site asks for a sign-in again: the library session went with it', async () => {
    const user = await createUser(oidcApp());
    const session = await signInToPortal(user.userName);
    const browser = new Browser(oidcApp().app);
    await signInToSite(browser, 'hosting', session);
    const row = (await devicesOf(session)).find((device) => device.kind === 'site')!;
    const { db } = oidcApp().database;
    const grantsOfUser = () =>
      db
        .select({ id: oidcModels.id })
        .from(oidcModels)
        .where(
          and(eq(oidcModels.kind, 'Grant'), sql`${oidcModels.payload}->>'accountId' = ${user.id}`),
        );
    expect(await grantsOfUser()).toHaveLength(1);
    await oidcApp().app.inject({
      method: 'DELETE',
      url: `${AUTH_API}/devices/${row.id}`,
      headers: session,
    });
    // The grant's own row goes with its tokens, not only what names it.
    expect(await grantsOfUser()).toEqual([]);
    const again = await authorize(browser, 'hosting');
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toMatch(/^\/oidc\/interaction\//);
  });
});

describe('single sign-on', () => {
  it('asks for a sign-in again once the portal session it came from has lapsed', async () => {
    const user = await createUser(oidcApp());
    const session = await signInToPortal(user.userName);
    const browser = new Browser(oidcApp().app);
    await signInToSite(browser, 'hosting', session);
    // Idle for longer than a session without «Запомнить меня» lives (a day): it has lapsed.
    oidcApp().clock.advance(25 * 60 * 60_000);
    expect(await sessionStatus(oidcApp(), session)).toBe(401);
    const asked = await authorize(browser, 'launcher');
    expect(asked.statusCode).toBe(303);
    expect(asked.headers.location).toMatch(/^\/oidc\/interaction\//);
  });

  it('asks for a sign-in again from a library session of no portal session (made before migration 0795)', async () => {
    const user = await createUser(oidcApp());
    const session = await signInToPortal(user.userName);
    const browser = new Browser(oidcApp().app);
    await signInToSite(browser, 'hosting', session);
    const { db } = oidcApp().database;
    // What a library session from before site sign-ins were recorded looks like: none names it.
    await db.delete(oidcSiteSignIns).where(eq(oidcSiteSignIns.userId, user.id));
    const grantsOfUser = () =>
      db
        .select({ id: oidcModels.id })
        .from(oidcModels)
        .where(
          and(eq(oidcModels.kind, 'Grant'), sql`${oidcModels.payload}->>'accountId' = ${user.id}`),
        );
    const grantsBefore = await grantsOfUser();

    const asked = await authorize(browser, 'launcher');
    expect(asked.statusCode).toBe(303);
    expect(asked.headers.location).toMatch(/^\/oidc\/interaction\//);
    // No grant tied to no portal session, which no sign-out would end.
    expect(await grantsOfUser()).toEqual(grantsBefore);
    // Signed in again, the site's sign-in is a device of the portal session.
    await signInToSite(browser, 'launcher', session);
    expect((await devicesOf(session)).map((row) => row.site)).toEqual([
      'Личный кабинет',
      'launcher',
    ]);
  });

  it('goes straight back to the site while the portal session lives', async () => {
    const user = await createUser(oidcApp());
    const session = await signInToPortal(user.userName);
    const browser = new Browser(oidcApp().app);
    await signInToSite(browser, 'hosting', session);
    const straight = await authorize(browser, 'launcher');
    expect(straight.statusCode).toBe(303);
    expect(new URL(straight.headers.location!).origin).toBe('https://launcher.example.com');
  });
});

type SignedIn = Awaited<ReturnType<typeof signedInEverywhere>>;

/**
 * A way the portal session that signed in to both sites ends: the answer of the request that
 * ended it, and a session of the account that must outlive it, if any.
 */
interface WayToEnd {
  way: string;
  end: (signedIn: SignedIn) => Promise<{
    answer: { statusCode: number; body: string };
    survivor?: Record<string, string>;
  }>;
}

const WAYS_TO_END: WayToEnd[] = [
  {
    way: '«Выйти» on the portal session in the devices list, from another session',
    async end({ user }) {
      const other = await signInToPortal(user.userName);
      const portalRow = (await devicesOf(other)).find(
        (row) => row.kind === 'session' && !row.isCurrent,
      )!;
      const answer = await oidcApp().app.inject({
        method: 'DELETE',
        url: `${AUTH_API}/devices/${portalRow.id}`,
        headers: other,
      });
      // The session that ended it signed in to no site: nothing of it is ended.
      return { answer, survivor: other };
    },
  },
  {
    way: 'a sign-out of the portal',
    async end({ session }) {
      const answer = await oidcApp().app.inject({
        method: 'POST',
        url: `${AUTH_API}/logout`,
        headers: session,
      });
      return { answer };
    },
  },
  {
    way: '«Это был не я» from the alert letter of a sign-in from another browser',
    async end({ user }) {
      await signInToPortal(user.userName, CHROME);
      const [alert] = await lettersTo(oidcApp(), user.email);
      const url = /Это был не я: (\S+)/.exec(alert!.text)![1]!;
      const answer = await oidcApp().app.inject({
        method: 'POST',
        url: `${AUTH_API}/not-me`,
        payload: { token: new URL(url).searchParams.get('token') },
        remoteAddress: nextIp(),
      });
      return { answer };
    },
  },
  {
    way: 'a password reset with «выйти на всех устройствах»',
    async end({ user }) {
      const forgot = await oidcApp().app.inject({
        method: 'POST',
        url: `${AUTH_API}/forgot-password`,
        payload: { email: user.email },
        remoteAddress: nextIp(),
      });
      expect(forgot.statusCode).toBe(200);
      const answer = await oidcApp().app.inject({
        method: 'POST',
        url: `${AUTH_API}/reset-password-with-code`,
        payload: {
          email: user.email,
          code: await latestCodeTo(oidcApp(), user.email),
          newPassword: 'Another-Pass2',
          logoutEverywhere: true,
        },
        remoteAddress: nextIp(),
      });
      return { answer };
    },
  },
];

describe('every end of the portal session ends the sites signed in through it', () => {
  it.each(WAYS_TO_END)('$way', async ({ end }) => {
    // Another account signed in to the same sites: none of it ends.
    const bystander = await signedInEverywhere();
    const signedIn = await signedInEverywhere();
    const { answer, survivor } = await end(signedIn);
    expect(answer.statusCode, answer.body).toBe(200);
    await expectBothSitesSignedOut(signedIn);
    if (survivor) expect(await sessionStatus(oidcApp(), survivor)).toBe(200);
    expect(await sessionStatus(oidcApp(), bystander.session)).toBe(200);
    const refreshed = await client.refreshTokenGrant(
      sites.hosting,
      bystander.atHosting.refreshToken,
    );
    expect(refreshed.refresh_token).toBeTruthy();
  });
});

describe('back-channel logout through the retried outbox', () => {
  it('reaches a site that was down at first, once it is up', async () => {
    const user = await createUser(oidcApp());
    const session = await signInToPortal(user.userName);
    const atHosting = await signInToSite(new Browser(oidcApp().app), 'hosting', session);
    hosting.isDown = true;
    const out = await oidcApp().app.inject({
      method: 'POST',
      url: `${AUTH_API}/logout`,
      headers: session,
    });
    expect(out.statusCode).toBe(200);
    await oidcApp().app.deps.mail.flush();
    expect(hosting.tokens).toEqual([]);
    const [waiting] = await oidcApp()
      .database.db.select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'oidc_backchannel_logout'))
      .orderBy(mailOutbox.createdAt)
      .then((rows) => rows.filter((row) => row.status === 'pending'));
    expect(waiting).toMatchObject({
      attempts: 1,
      payload: { clientId: 'hosting', sub: user.id, sid: atHosting.sid },
    });
    // Still down at the first retry, up for the second.
    oidcApp().clock.advance(31_000);
    await oidcApp().app.deps.mail.flush();
    expect(hosting.tokens).toEqual([]);
    hosting.isDown = false;
    oidcApp().clock.advance(61_000);
    await expectLoggedOut('hosting', hosting, { userId: user.id, sid: atHosting.sid });
  });

  it("a site's own logout ends its grant and tells the other sites of that session", async () => {
    const user = await createUser(oidcApp());
    const session = await signInToPortal(user.userName);
    const browser = new Browser(oidcApp().app);
    const atLauncher = await signInToSite(browser, 'launcher', session);
    const atHosting = await signInToSite(browser, 'hosting', session);
    // The launcher is down when the logout happens: the outbox brings it later.
    launcher.isDown = true;
    const endUrl = client.buildEndSessionUrl(sites.hosting, {
      id_token_hint: atHosting.idToken,
      post_logout_redirect_uri: 'https://hosting.example.com/',
    });
    const page = await browser.request('GET', endUrl);
    expect(page.statusCode).toBe(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
    expect(xsrf).toBeTruthy();
    const confirmed = await browser.request(
      'POST',
      '/oidc/session/end/confirm',
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }).toString(),
    );
    expect(confirmed.statusCode, confirmed.body).toBe(303);
    await expectRefreshRefused('hosting', atHosting.refreshToken);
    await expectRefreshRefused('launcher', atLauncher.refreshToken);
    await expectLoggedOut('hosting', hosting, { userId: user.id, sid: atHosting.sid });
    launcher.isDown = false;
    oidcApp().clock.advance(31_000);
    await expectLoggedOut('launcher', launcher, { userId: user.id, sid: atLauncher.sid });
    // The devices list no longer shows them; the portal session goes on.
    expect((await devicesOf(session)).map((row) => row.kind)).toEqual(['session']);
  });
});
