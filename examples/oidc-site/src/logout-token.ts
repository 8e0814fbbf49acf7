/**
 * Back-channel logout (OpenID Connect Back-Channel Logout 1.0, section 2.6): the portal posts a
 * logout token when the person signs out there. openid-client has no call for it, so the token
 * is checked with `jose` (openid-client's own dependency) against the portal's published keys.
 */
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** A logout token is sent the moment the sign-out happens; an old one is not taken. */
const MAX_TOKEN_AGE = '5 minutes';

export interface LogoutTokenChecks {
  issuer: string;
  jwksUri: URL;
  /** This site's client_id: the token must be addressed to it. */
  clientId: string;
}

/** Whom to sign out: the portal's session `sid`, or every session of the account `sub`. */
export type LogoutTarget = { sid: string; sub?: string } | { sid?: undefined; sub: string };

export class InvalidLogoutToken extends Error {}

export function createLogoutTokenVerifier(checks: LogoutTokenChecks) {
  // Fetched on first use and again when a token names a key not seen yet (a rotation).
  const keys = createRemoteJWKSet(checks.jwksUri);
  const seenJti = new Map<string, number>();

  return async function verifyLogoutToken(token: string): Promise<LogoutTarget> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: checks.issuer,
        audience: checks.clientId,
        requiredClaims: ['iat', 'jti'],
        maxTokenAge: MAX_TOKEN_AGE,
      }));
    } catch (error) {
      throw new InvalidLogoutToken((error as Error).message);
    }
    const events = payload.events as Record<string, unknown> | undefined;
    const event = events?.[BACKCHANNEL_LOGOUT_EVENT];
    if (typeof event !== 'object' || event === null) {
      throw new InvalidLogoutToken('no back-channel logout event');
    }
    // A nonce marks an ID token: one must never be taken for a logout token.
    if ('nonce' in payload) throw new InvalidLogoutToken('a logout token carries no nonce');
    const { sid, sub } = payload as { sid?: unknown; sub?: unknown };
    if (sid !== undefined && typeof sid !== 'string') throw new InvalidLogoutToken('bad sid');
    if (sub !== undefined && typeof sub !== 'string') throw new InvalidLogoutToken('bad sub');
    if (!sid && !sub) throw new InvalidLogoutToken('neither sid nor sub');
    rememberOnce(seenJti, payload.jti!, payload.iat!);
    return sid ? { sid, sub } : { sub: sub! };
  };
}

/** A token replayed within its age is refused; older entries are forgotten. */
function rememberOnce(seen: Map<string, number>, jti: string, iat: number) {
  const now = Date.now() / 1000;
  for (const [id, issuedAt] of seen) if (now - issuedAt > 10 * 60) seen.delete(id);
  if (seen.has(jti)) throw new InvalidLogoutToken('this logout token was already used');
  seen.set(jti, iat);
}
