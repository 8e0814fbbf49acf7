import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a started Yandex sign-in may take until the browser comes back. */
export const STATE_TTL_MS = 10 * 60_000;

export interface OAuthState {
  /**
   * SHA-256 of the flow id kept in the browser's HttpOnly cookie: the answer must come back to
   * that browser. Only the hash travels through URLs, so a state read from a log or the history
   * does not reveal the cookie.
   */
  flowHash: string;
  /** The signed-in user who asked to link Yandex ID; absent for a sign-in. */
  userId?: string;
  expiresAt: number;
}

const sign = (secret: string, body: string) =>
  createHmac('sha256', secret).update(`yandex-state\n${body}`).digest('base64url');

/** `<base64url JSON>.<HMAC>`: only this server can make one, nobody can alter one. */
export function createState(secret: string, now: Date, flowHash: string, userId?: string) {
  const state: OAuthState = {
    flowHash,
    ...(userId ? { userId } : {}),
    expiresAt: now.getTime() + STATE_TTL_MS,
  };
  const body = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

/** The state, when the signature holds and it has not expired; null otherwise. */
export function readState(secret: string, value: string, now: Date): OAuthState | null {
  const [body, signature, ...rest] = value.split('.');
  if (!body || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as OAuthState;
    if (typeof state.flowHash !== 'string' || typeof state.expiresAt !== 'number') return null;
    return state.expiresAt > now.getTime() ? state : null;
  } catch {
    return null;
  }
}
