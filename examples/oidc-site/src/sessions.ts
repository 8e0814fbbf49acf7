/**
 * The site's own sessions, in memory (a real site keeps them in its database or Redis). The
 * browser holds only a random id in an HttpOnly cookie; the tokens never leave the server.
 */
import { randomBytes } from 'node:crypto';

/** What the site remembers between «Войти» and the callback: the checks openid-client needs. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The person signed in, as the portal said: the ID token's claims and userinfo's. */
export interface SignedInUser {
  sub: string;
  /** The portal's session id (the ID token's `sid`): a back-channel logout names it. */
  sid: string | undefined;
  idToken: string;
  idTokenClaims: Record<string, unknown>;
  userinfo: Record<string, unknown>;
  accessToken: string;
  refreshToken: string | undefined;
  /** When the access token expires, in milliseconds since the epoch. */
  accessTokenExpiresAt: number | undefined;
}

export interface Session {
  id: string;
  pending?: PendingSignIn;
  user?: SignedInUser;
  lastSeen: number;
}

export const SESSION_COOKIE = 'oidc_site_session';
/** A session nobody came back to in a day is forgotten; a pending sign-in lasts as long. */
const IDLE_MS = 24 * 60 * 60 * 1000;

export interface SessionStore {
  /** The session the request's cookie names, if it is still known. */
  fromCookie(cookieHeader: string | undefined): Session | undefined;
  create(): Session;
  end(id: string): void;
  /** Ends every session signed in with the portal's session `sid` (back-channel logout). */
  endByPortalSession(sid: string): number;
  /** Ends every session of the account `sub`: a logout token without `sid` means all of them. */
  endByAccount(sub: string): number;
}

export function createSessionStore(now: () => number = Date.now): SessionStore {
  const sessions = new Map<string, Session>();

  const endWhere = (matches: (user: SignedInUser) => boolean) => {
    let ended = 0;
    for (const [id, session] of sessions) {
      if (session.user && matches(session.user)) {
        sessions.delete(id);
        ended += 1;
      }
    }
    return ended;
  };

  return {
    fromCookie(cookieHeader) {
      const id = readCookie(cookieHeader, SESSION_COOKIE);
      const session = id ? sessions.get(id) : undefined;
      if (!session) return undefined;
      if (now() - session.lastSeen > IDLE_MS) {
        sessions.delete(session.id);
        return undefined;
      }
      session.lastSeen = now();
      return session;
    },
    create() {
      for (const [id, session] of sessions) {
        if (now() - session.lastSeen > IDLE_MS) sessions.delete(id);
      }
      const session: Session = { id: randomBytes(32).toString('base64url'), lastSeen: now() };
      sessions.set(session.id, session);
      return session;
    },
    end(id) {
      sessions.delete(id);
    },
    endByPortalSession: (sid) => endWhere((user) => user.sid === sid),
    endByAccount: (sub) => endWhere((user) => user.sub === sub),
  };
}

/** The Set-Cookie value for a session; `Secure` whenever the site is served over https. */
export function sessionCookie(session: Session | undefined, siteUrl: URL): string {
  const secure = siteUrl.protocol === 'https:' ? '; Secure' : '';
  // Lax: the portal sends the browser back to /callback with a top-level GET, which must carry it.
  const attributes = `Path=/; HttpOnly; SameSite=Lax${secure}`;
  return session
    ? `${SESSION_COOKIE}=${session.id}; ${attributes}`
    : `${SESSION_COOKIE}=; Max-Age=0; ${attributes}`;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
