/**
 * The site's routes on plain `node:http`: the home page, «Войти» and the callback, refresh,
 * «Выйти» (RP-initiated logout) and the back-channel logout endpoint the portal posts to.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SiteConfig } from './config.ts';
import { createLogoutTokenVerifier, InvalidLogoutToken } from './logout-token.ts';
import { errorPage, homePage } from './pages.ts';
import { BACKCHANNEL_LOGOUT_PATH, CALLBACK_PATH, type PortalSignIn } from './portal-sign-in.ts';
import { type SessionStore, type SignedInUser, sessionCookie } from './sessions.ts';

export interface SiteDeps {
  config: SiteConfig;
  sessions: SessionStore;
  portal: PortalSignIn;
}

/** A logout token is a few kilobytes; anything much longer is not one. */
const MAX_BODY_BYTES = 64 * 1024;

export function createSite(deps: SiteDeps) {
  const { config, sessions, portal } = deps;
  let verifyLogoutToken: ReturnType<typeof createLogoutTokenVerifier> | undefined;

  const routes: Record<
    string,
    (request: IncomingMessage, response: ServerResponse) => Promise<void>
  > = {
    'GET /': async (request, response) => {
      const session = sessions.fromCookie(request.headers.cookie);
      const refreshed =
        session?.user && new URL(request.url!, config.siteUrl).searchParams.has('refreshed');
      html(response, 200, homePage(session?.user, refreshed ? 'Токены обновлены.' : undefined));
    },

    'GET /login': async (request, response) => {
      const session = sessions.fromCookie(request.headers.cookie) ?? sessions.create();
      if (session.user) return redirect(response, '/');
      const { url, pending } = await portal.start();
      session.pending = pending;
      redirect(response, url.href, sessionCookie(session, config.siteUrl));
    },

    [`GET ${CALLBACK_PATH}`]: async (request, response) => {
      const started = sessions.fromCookie(request.headers.cookie);
      if (!started?.pending) {
        return html(
          response,
          400,
          errorPage('Вход не был начат на этом сайте или устарел. Войдите ещё раз.'),
        );
      }
      const { pending } = started;
      // The checks are used once, whatever the outcome.
      started.pending = undefined;
      let user: SignedInUser;
      try {
        user = await portal.finish(new URL(request.url!, config.siteUrl), pending);
      } catch (error) {
        // A refusal of the portal (`error=` in the callback), a wrong state, a bad ID token.
        console.warn('sign-in refused:', (error as Error).message);
        return html(response, 400, errorPage('Войти не удалось. Попробуйте ещё раз.'));
      }
      // A new session id once signed in, so an id seen before the sign-in is worth nothing.
      sessions.end(started.id);
      const session = sessions.create();
      session.user = user;
      redirect(response, '/', sessionCookie(session, config.siteUrl));
    },

    'POST /refresh': async (request, response) => {
      const session = sessions.fromCookie(request.headers.cookie);
      if (!session?.user) return redirect(response, '/');
      try {
        session.user = await portal.refresh(session.user);
      } catch (error) {
        // Revoked, expired or already used: the portal no longer vouches for this person.
        console.warn('refresh refused:', (error as Error).message);
        sessions.end(session.id);
        response.setHeader('set-cookie', sessionCookie(undefined, config.siteUrl));
        return html(
          response,
          200,
          homePage(undefined, 'Вход на портале закончился. Войдите снова.'),
        );
      }
      redirect(response, '/?refreshed');
    },

    'POST /logout': async (request, response) => {
      const session = sessions.fromCookie(request.headers.cookie);
      if (!session?.user) return redirect(response, '/');
      const endSession = await portal.endSessionUrl(session.user);
      // Signed out here first; the portal then ends its own session and sends the browser back.
      sessions.end(session.id);
      redirect(response, endSession.href, sessionCookie(undefined, config.siteUrl));
    },

    [`POST ${BACKCHANNEL_LOGOUT_PATH}`]: async (request, response) => {
      const body = await readBody(request);
      if (body === undefined) return logoutRefused(response, 'the request is too long');
      const token = new URLSearchParams(body).get('logout_token');
      if (!token) return logoutRefused(response, 'logout_token is missing');
      if (!verifyLogoutToken) {
        const metadata = (await portal.configuration()).serverMetadata();
        verifyLogoutToken = createLogoutTokenVerifier({
          issuer: metadata.issuer,
          jwksUri: new URL(metadata.jwks_uri!),
          clientId: config.clientId,
        });
      }
      try {
        const target = await verifyLogoutToken(token);
        const ended =
          target.sid !== undefined
            ? sessions.endByPortalSession(target.sid)
            : sessions.endByAccount(target.sub);
        console.info(`back-channel logout: ${ended} session(s) ended`);
      } catch (error) {
        if (!(error instanceof InvalidLogoutToken)) throw error;
        return logoutRefused(response, error.message);
      }
      response.writeHead(200, { 'cache-control': 'no-store' }).end();
    },
  };

  return async function handle(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? '/', config.siteUrl).pathname;
    const route = routes[`${request.method} ${path}`];
    if (!route) return html(response, 404, errorPage('Страница не найдена.'));
    try {
      await route(request, response);
    } catch (error) {
      console.error(`${request.method} ${path}:`, error);
      if (!response.headersSent) {
        html(
          response,
          502,
          errorPage('Не удалось связаться с порталом. Попробуйте ещё раз позже.'),
        );
      }
    }
  };
}

function html(response: ServerResponse, status: number, body: string) {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  });
  response.end(body);
}

function redirect(response: ServerResponse, location: string, cookie?: string) {
  if (cookie) response.setHeader('set-cookie', cookie);
  response.writeHead(303, { location, 'cache-control': 'no-store' }).end();
}

/** Section 2.8 of the specification: 400 with an OAuth error when the logout failed. */
function logoutRefused(response: ServerResponse, description: string) {
  console.warn('back-channel logout refused:', description);
  response
    .writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify({ error: 'invalid_request', error_description: description }));
}

/** The request's body as text; undefined past MAX_BODY_BYTES (the rest is read and dropped). */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  let body: string | undefined = '';
  for await (const chunk of request) {
    // Leaving the loop would destroy the request, and the socket with it: no answer then.
    if (body !== undefined) body += chunk;
    if (body !== undefined && body.length > MAX_BODY_BYTES) body = undefined;
  }
  return body;
}
