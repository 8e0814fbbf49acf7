/**
 * SSO hand-off: the legacy path. A new site signs in through the portal's OpenID provider
 * (modules/oidc; examples/oidc-site is a whole site); this stays, unchanged, for the sites that
 * already use it (docs/decisions/0043-openid-provider.md).
 *
 * The web app asks for a link to an allow-listed sibling site; the link carries not
 * the access token but a hand-off code: 32 random bytes, single use, valid 60 seconds, bound to
 * that site's origin. Only that sibling can redeem it: server to server at `verify-token`, with
 * its own API key, whose site must live at the code's origin (modules/auth/siblings.ts). It
 * receives a session of its own (`client_origin` = its origin), which the portal-only routes
 * refuse. A code presented a second time, or by another sibling, is refused and burnt, and the
 * session its first redemption issued is revoked: someone else has seen the code.
 */
import { HAND_OFF_CODE_TTL_SECONDS } from '@portal/contracts/constants';
import { LINK_INVALID, LINK_NOT_ALLOWED, TOKEN_INVALID } from '@portal/contracts/messages';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Clock } from '../../adapters/clock.js';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/database.js';
import { invalidInput, unauthorized } from '../../http/app-error.js';
import type { EventClient, SecurityLog } from '../security-log/index.js';
import { handOffCodes, siblingUsers } from './schema.js';
import { generateToken, hashToken, type SessionStore } from './sessions.js';
import { type Sibling, siteName } from './siblings.js';
import type { SignInPolicy } from './sign-in-policy.js';

export type HandOffRedemption =
  | { ok: true; userId: string; token: string }
  | { ok: false; revokedSessionId: string | null };

/** Origins as URL.origin spells them, so 'https://Site.example/' matches 'https://site.example'. */
function normalizeOrigins(origins: readonly string[]): Set<string> {
  const result = new Set<string>();
  for (const origin of origins) {
    try {
      result.add(new URL(origin).origin);
    } catch {
      // A malformed entry allows nothing.
    }
  }
  return result;
}

export interface HandOffServiceDeps {
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  signInPolicy: SignInPolicy;
  config: Config;
  securityLog: SecurityLog;
}

export class HandOffService {
  private readonly allowed: Set<string>;

  constructor(private readonly deps: HandOffServiceDeps) {
    this.allowed = normalizeOrigins(deps.config.SSO_ALLOWED_ORIGINS);
  }

  isAllowed(link: string): boolean {
    try {
      const url = new URL(link);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') && this.allowed.has(url.origin)
      );
    } catch {
      return false;
    }
  }

  /** The link with a fresh code in its `token` parameter; 400 for a link off the allow-list. */
  async mint(userId: string, link: string, client: EventClient): Promise<string> {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      throw invalidInput(LINK_INVALID, { link: [LINK_INVALID] });
    }
    if (!this.isAllowed(link)) throw invalidInput(LINK_NOT_ALLOWED, { link: [LINK_NOT_ALLOWED] });
    const code = generateToken();
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      await tx.insert(handOffCodes).values({
        codeHash: hashToken(code),
        userId,
        origin: url.origin,
        expiresAt: new Date(now.getTime() + HAND_OFF_CODE_TTL_SECONDS * 1000),
        createdAt: now,
      });
      // Logged when the portal's user leaves for the site, from their own browser: the
      // redemption comes from the sibling's server, whose address says nothing to the owner.
      await this.deps.securityLog.record(tx, userId, 'hand_off', client, {
        site: siteName(this.deps.config, url.origin),
      });
    });
    url.searchParams.set('token', code);
    return url.toString();
  }

  /**
   * Redeems a code once, for the sibling it was minted for. A second redemption, or one by
   * another sibling, burns the code and revokes the session it issued, if any.
   */
  /**
   * `/verify-token`: an access token answers its user; a hand-off code is exchanged for a session
   * of the sibling site it was issued for, which names itself by its key (`siblingByKey`, null
   * when the call carries none). A code presented twice is spent and its session revoked.
   */
  async verifyToken(
    token: string,
    siblingByKey: (() => Promise<Sibling>) | null,
    client: EventClient,
    log: { warn(obj: object, message: string): void },
  ): Promise<{ userId: string; token?: string }> {
    if (token.length > 200) throw unauthorized(TOKEN_INVALID);
    const session = await this.deps.sessions.authenticate(token);
    if (session) return { userId: session.userId };
    // Without a key the caller cannot tell a hand-off code from any other wrong token.
    if (!siblingByKey) throw unauthorized(TOKEN_INVALID);
    const sibling = await siblingByKey();
    const redeemed = await this.redeem(token, sibling, client);
    if (!redeemed.ok) {
      if (redeemed.revokedSessionId) {
        log.warn(
          { sessionId: redeemed.revokedSessionId },
          'hand-off code presented twice; its session revoked',
        );
      }
      throw unauthorized(TOKEN_INVALID);
    }
    return { userId: redeemed.userId, token: redeemed.token };
  }

  async redeem(
    code: string,
    sibling: Sibling,
    client: { userAgent?: string; ipAddress?: string },
  ): Promise<HandOffRedemption> {
    const codeHash = hashToken(code);
    const now = this.deps.clock.now();
    const redeemed = await this.deps.db.transaction(async (tx) => {
      // Of two redemptions racing, the second waits on this row and then finds it redeemed.
      const [row] = await tx
        .update(handOffCodes)
        .set({ redeemedAt: now })
        .where(
          and(
            eq(handOffCodes.codeHash, codeHash),
            eq(handOffCodes.origin, sibling.origin),
            isNull(handOffCodes.redeemedAt),
            gt(handOffCodes.expiresAt, now),
          ),
        )
        .returning();
      if (!row) return null;
      const { token, session } = await this.deps.signInPolicy.handOver(
        { userId: row.userId, clientOrigin: row.origin, ...client },
        tx,
      );
      await tx
        .update(handOffCodes)
        .set({ sessionId: session.id })
        .where(eq(handOffCodes.id, row.id));
      await tx
        .insert(siblingUsers)
        .values({ userId: row.userId, sibling: sibling.name, firstSeenAt: now })
        .onConflictDoNothing();
      return { userId: row.userId, token };
    });
    if (redeemed) return { ok: true, ...redeemed };

    // A code meant for another site is burnt: its own site will be refused too.
    await this.deps.db
      .update(handOffCodes)
      .set({ redeemedAt: now })
      .where(
        and(
          eq(handOffCodes.codeHash, codeHash),
          ne(handOffCodes.origin, sibling.origin),
          isNull(handOffCodes.redeemedAt),
        ),
      );
    const [used] = await this.deps.db
      .select()
      .from(handOffCodes)
      .where(eq(handOffCodes.codeHash, codeHash));
    if (used?.redeemedAt && used.sessionId) {
      await this.deps.sessions.revoke(used.userId, used.sessionId);
      return { ok: false, revokedSessionId: used.sessionId };
    }
    return { ok: false, revokedSessionId: null };
  }
}

/** Whether the user has signed in through the sibling (redeemed one of its hand-offs). */
export async function hasSignedInThrough(
  executor: Executor,
  sibling: Sibling,
  userId: string,
): Promise<boolean> {
  const [row] = await executor
    .select({ userId: siblingUsers.userId })
    .from(siblingUsers)
    .where(and(eq(siblingUsers.userId, userId), eq(siblingUsers.sibling, sibling.name)));
  return row !== undefined;
}
