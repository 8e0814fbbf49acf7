// Single sign-out: a site's sign-in through the provider is a device of the portal session that
// signed in, and every way that session ends (the devices list, a sign-out, «Это был не я», a
// reset with sign-out; the operator's block: modules/operator/block-ends-sites.test.ts) ends the site's grant: its refresh token is
// refused, and the site, a real HTTP server on 127.0.0.1, receives a back-channel logout token
// made by the library, which this test verifies with the provider's published keys.
import { eq } from 'drizzle-orm';
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
  verifiedLogouts,
} from '../../../test/support/oidc-sites.js';
import { mailOutbox } from '../../adapters/mail-schema.js';
import { securityEvents } from '../security-log/schema.js';

useOidcSites();
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
    await oidcApp().app.inject({
      method: 'DELETE',
      url: `${AUTH_API}/devices/${row.id}`,
      headers: session,
    });
    const again = await browser.request(
      'GET',
      client.buildAuthorizationUrl(sites.hosting, {
        redirect_uri: 'https://hosting.example.com/oidc/callback',
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
    );
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
    const authorize = async () =>
      browser.request(
        'GET',
        client.buildAuthorizationUrl(sites.launcher, {
          redirect_uri: 'https://launcher.example.com/oidc/callback',
          scope: 'openid',
          code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
          code_challenge_method: 'S256',
        }),
      );
    // Idle for longer than a session without «Запомнить меня» lives (a day): it has lapsed.
    oidcApp().clock.advance(25 * 60 * 60_000);
    expect(await sessionStatus(oidcApp(), session)).toBe(401);
    const asked = await authorize();
    expect(asked.statusCode).toBe(303);
    expect(asked.headers.location).toMatch(/^\/oidc\/interaction\//);
  });

  it('goes straight back to the site while the portal session lives', async () => {
    const user = await createUser(oidcApp());
    const session = await signInToPortal(user.userName);
    const browser = new Browser(oidcApp().app);
    await signInToSite(browser, 'hosting', session);
    const straight = await browser.request(
      'GET',
      client.buildAuthorizationUrl(sites.launcher, {
        redirect_uri: 'https://launcher.example.com/oidc/callback',
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
    );
    expect(straight.statusCode).toBe(303);
    expect(new URL(straight.headers.location!).origin).toBe('https://launcher.example.com');
  });
});

describe('every end of the portal session ends the sites signed in through it', () => {
  it('«Выйти» on the portal session in the devices list', async () => {
    const signedIn = await signedInEverywhere();
    const other = await signInToPortal(signedIn.user.userName);
    const portalRow = (await devicesOf(other)).find(
      (row) => row.kind === 'session' && !row.isCurrent,
    )!;
    const ended = await oidcApp().app.inject({
      method: 'DELETE',
      url: `${AUTH_API}/devices/${portalRow.id}`,
      headers: other,
    });
    expect(ended.statusCode, ended.body).toBe(200);
    await expectBothSitesSignedOut(signedIn);
    // The session that ended it signed in to no site: nothing of it is ended.
    expect(await sessionStatus(oidcApp(), other)).toBe(200);
  });

  it('a sign-out of the portal', async () => {
    const signedIn = await signedInEverywhere();
    const out = await oidcApp().app.inject({
      method: 'POST',
      url: `${AUTH_API}/logout`,
      headers: signedIn.session,
    });
    expect(out.statusCode, out.body).toBe(200);
    await expectBothSitesSignedOut(signedIn);
  });

  it('«Это был не я» from the alert letter', async () => {
    const signedIn = await signedInEverywhere(CHROME);
    // The owner, from another browser: the alert of the sign-in from Chrome is the stranger's.
    const user = await createUser(oidcApp());
    await signInToPortal(user.userName, FIREFOX);
    const stranger = await signInToPortal(user.userName, CHROME);
    const browser = new Browser(oidcApp().app, CHROME);
    const atHosting = await signInToSite(browser, 'hosting', stranger);
    const [alert] = await lettersTo(oidcApp(), user.email);
    const url = /Это был не я: (\S+)/.exec(alert!.text)![1]!;
    const token = new URL(url).searchParams.get('token')!;
    const notMe = await oidcApp().app.inject({
      method: 'POST',
      url: `${AUTH_API}/not-me`,
      payload: { token },
      remoteAddress: nextIp(),
    });
    expect(notMe.statusCode, notMe.body).toBe(200);
    await expectRefreshRefused('hosting', atHosting.refreshToken);
    const logouts = await verifiedLogouts('hosting', hosting);
    expect(logouts).toEqual([expect.objectContaining({ sub: user.id, sid: atHosting.sid })]);
    // The other account's sites are untouched.
    const refreshed = await client.refreshTokenGrant(
      sites.hosting,
      signedIn.atHosting.refreshToken,
    );
    expect(refreshed.refresh_token).toBeTruthy();
  });

  it('a password reset with «выйти на всех устройствах»', async () => {
    const signedIn = await signedInEverywhere();
    const forgot = await oidcApp().app.inject({
      method: 'POST',
      url: `${AUTH_API}/forgot-password`,
      payload: { email: signedIn.user.email },
      remoteAddress: nextIp(),
    });
    expect(forgot.statusCode).toBe(200);
    const code = await latestCodeTo(oidcApp(), signedIn.user.email);
    const reset = await oidcApp().app.inject({
      method: 'POST',
      url: `${AUTH_API}/reset-password-with-code`,
      payload: {
        email: signedIn.user.email,
        code,
        newPassword: 'Another-Pass2',
        logoutEverywhere: true,
      },
      remoteAddress: nextIp(),
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await expectBothSitesSignedOut(signedIn);
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
