/**
 * The «Это был не я» link of a sign-in alert: `/not-me?token=<userId>.<eventId>.<expires>.<mac>`.
 * It names the account and the sign-in event and carries its expiry; the MAC is HMAC-SHA256 with a
 * key derived from SECRET_KEY (`deriveKey` of two-factor/secret-box.ts: HKDF with its own `info`),
 * so no other secret of the portal signs these. Nothing about an unused link is stored: the link
 * is single-use through `not_me_uses` (one row per sign-in event, written when it takes effect).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PAGES } from '@portal/contracts/page-paths';
import { deriveKey } from '../two-factor/index.js';

const DAY = 24 * 60 * 60_000;
/** Long enough for a letter read after a weekend, short enough not to lie around for ever. */
export const NOT_ME_LINK_TTL_MS = 7 * DAY;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const TOKEN = new RegExp(`^(${UUID})\\.(${UUID})\\.(\\d{1,12})\\.([A-Za-z0-9_-]{43})$`);

export type NotMeLinkCheck =
  | { ok: true; userId: string; eventId: string }
  | { ok: false; reason: 'invalid' | 'expired' };

export interface NotMeLinksDeps {
  /** SECRET_KEY, from which the links' own key is derived. */
  secretKey: string;
  /** PUBLIC_URL: the page the link opens is the portal's. */
  publicUrl: string;
}

export class NotMeLinks {
  private readonly key: Buffer;

  constructor(private readonly deps: NotMeLinksDeps) {
    this.key = deriveKey(deps.secretKey, 'not-me-link:v1');
  }

  /** The token for the sign-in `eventId` of `userId`, valid NOT_ME_LINK_TTL_MS from `signedInAt`. */
  token(userId: string, eventId: string, signedInAt: Date): string {
    const expires = Math.floor((signedInAt.getTime() + NOT_ME_LINK_TTL_MS) / 1000);
    return `${userId}.${eventId}.${expires}.${this.mac(userId, eventId, expires)}`;
  }

  /** The page the link opens. */
  url(userId: string, eventId: string, signedInAt: Date): string {
    const url = new URL(PAGES.notMe, this.deps.publicUrl);
    url.searchParams.set('token', this.token(userId, eventId, signedInAt));
    return url.toString();
  }

  /** Whether the token is ours and still valid; whether it was used is the caller's question. */
  check(token: string, now: Date): NotMeLinkCheck {
    const match = TOKEN.exec(token.trim());
    if (!match) return { ok: false, reason: 'invalid' };
    const [, userId, eventId, expiresText, mac] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
    ];
    const expires = Number(expiresText);
    const expected = Buffer.from(this.mac(userId, eventId, expires));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { ok: false, reason: 'invalid' };
    }
    if (expires * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
    return { ok: true, userId, eventId };
  }

  private mac(userId: string, eventId: string, expires: number): string {
    return createHmac('sha256', this.key)
      .update(`not-me|${userId}|${eventId}|${expires}`)
      .digest('base64url');
  }
}
