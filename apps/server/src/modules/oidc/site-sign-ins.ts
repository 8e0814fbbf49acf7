/**
 * A site's sign-in through the provider is a device of the person: one row of
 * `oidc_site_sign_ins` per grant, naming the portal session it came from (migrations/0795). The
 * devices list shows each live one under the site's name; ending it, or ending the portal session
 * it came from (`SessionStore.onRevoked`: a sign-out, «Это был не я», a reset, a block, a
 * deletion), destroys the grant with all its tokens and the library's session, and puts a
 * back-channel logout for the site in the retried outbox (backchannel.ts).
 */
import type { Device } from '@portal/contracts/auth';
import { and, desc, eq, inArray, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../../adapters/clock.js';
import type { Mailer, MailOutbox } from '../../adapters/mail.js';
import type { OidcClientSetting } from '../../config.js';
import type { Db, Executor } from '../../db/database.js';
import { statementForAnyExecutor } from '../../db/prepared.js';
import type { UserReadCache } from '../../db/user-reads.js';
import type { SessionStore } from '../auth/index.js';
import type { EventClient, SecurityLog } from '../security-log/index.js';
import { destroySessions, revokeGrants } from './adapter.js';
import { BACKCHANNEL_LOGOUT, type BackchannelLogout } from './backchannel.js';
import { oidcModels, oidcSiteSignIns, type SiteSignInRow } from './schema.js';

export interface SiteSignInsDeps {
  db: Db;
  clock: Clock;
  clients: readonly OidcClientSetting[];
  mail: Mailer & Pick<MailOutbox, 'enqueueItem'>;
  securityLog: SecurityLog;
  sessions: Pick<SessionStore, 'isLive'>;
  /** The account's sign-ins are remembered per process (db/user-reads.ts, migration 0820). */
  userReads: Pick<UserReadCache, 'read'>;
}

export interface NewSiteSignIn {
  grantId: string;
  clientId: string;
  userId: string;
  portalSessionId: string;
  providerSessionUid: string;
  sid: string;
}

const placeholder = <T>(name: string) => sql.placeholder(name) as unknown as T;
/**
 * One statement: the row is written (and named back) only when it is new, ended, or of another
 * portal session; the same live sign-in again is left as it is, and not logged. Built once, run in
 * `record`'s transaction (db/prepared.ts): every site's sign-in writes it.
 */
const writeSignIn = statementForAnyExecutor<{ id: string }>('oidc_site_sign_ins_write', (db) => {
  const columns = [
    'grantId',
    'clientId',
    'userId',
    'portalSessionId',
    'providerSessionUid',
    'sid',
    'userAgent',
    'ipAddress',
    'createdAt',
  ] as const;
  const values = Object.fromEntries(columns.map((name) => [name, placeholder(name)]));
  const excluded = Object.fromEntries(
    columns.map((name) => [name, sql.raw(`excluded.${oidcSiteSignIns[name].name}`)]),
  );
  return db
    .insert(oidcSiteSignIns)
    .values({ ...(values as typeof oidcSiteSignIns.$inferInsert), endedAt: null })
    .onConflictDoUpdate({
      target: oidcSiteSignIns.grantId,
      set: { ...excluded, endedAt: null },
      setWhere: or(
        ne(oidcSiteSignIns.portalSessionId, sql`excluded.portal_session_id`),
        isNotNull(oidcSiteSignIns.endedAt),
      ),
    })
    .returning({ id: oidcSiteSignIns.id });
});

export class SiteSignIns {
  constructor(private readonly deps: SiteSignInsDeps) {}

  /** The site's name as the person reads it: its `client_name`, else its client id. */
  siteName(clientId: string): string {
    return (
      this.deps.clients.find((client) => client.client_id === clientId)?.client_name ?? clientId
    );
  }

  /**
   * Records the grant of an authorization as a sign-in of the site from `portalSessionId`;
   * a grant signed in again from another portal session moves to it. A new sign-in (or a moved
   * one) is written to the security log.
   */
  async record(signIn: NewSiteSignIn, client: EventClient): Promise<void> {
    const { db, clock, securityLog } = this.deps;
    const values = {
      ...signIn,
      userAgent: client.userAgent.slice(0, 512),
      ipAddress: client.ipAddress,
      createdAt: clock.now(),
    };
    await db.transaction(async (tx) => {
      const written = await writeSignIn(tx, values);
      if (written.length === 0) return;
      await securityLog.record(tx, signIn.userId, 'site_sign_in', client, {
        site: this.siteName(signIn.clientId),
      });
    });
  }

  /**
   * The portal session a library session signed in with, for an authorization without a sign-in
   * step (single sign-on): the one of its latest site sign-in.
   */
  async portalSessionOf(providerSessionUid: string): Promise<string | undefined> {
    const [row] = await this.deps.db
      .select({ portalSessionId: oidcSiteSignIns.portalSessionId })
      .from(oidcSiteSignIns)
      .where(eq(oidcSiteSignIns.providerSessionUid, providerSessionUid))
      .orderBy(desc(oidcSiteSignIns.createdAt))
      .limit(1);
    return row?.portalSessionId;
  }

  /**
   * Whether the portal session still lives (not ended, not expired, not idle too long): a single
   * sign-on from a library session whose portal session has lapsed asks for a sign-in again.
   */
  isPortalSessionLive(userId: string, portalSessionId: string): Promise<boolean> {
    return this.deps.sessions.isLive(userId, portalSessionId);
  }

  /** The account's live site sign-ins as rows of the devices list, newest first. */
  async devices(userId: string): Promise<Device[]> {
    const remembered = await this.deps.userReads.read(userId, 'site-sign-ins', () =>
      this.rowsWithGrant(this.deps.db, eq(oidcSiteSignIns.userId, userId)),
    );
    // Remembered grants age: expiry is decided now, not when they were read.
    return this.live(remembered)
      .sort((a, b) => +b.createdAt - +a.createdAt)
      .map((row) => ({
        id: row.id,
        userAgent: row.userAgent,
        ipAddress: row.ipAddress || null,
        lastActivity: row.createdAt.toISOString(),
        isCurrent: false,
        site: this.siteName(row.clientId),
        kind: 'site' as const,
      }));
  }

  /** Ends one site sign-in of the account (the devices list): its site's name, or null. */
  async endOne(userId: string, id: string): Promise<{ site: string } | null> {
    return this.deps.db.transaction(async (tx) => {
      const rows = await this.liveRows(
        tx,
        and(eq(oidcSiteSignIns.userId, userId), eq(oidcSiteSignIns.id, id)),
      );
      const [row] = rows;
      if (!row) return null;
      await this.end(tx, rows);
      return { site: this.siteName(row.clientId) };
    });
  }

  /** `SessionStore.onRevoked`: the sites signed in through these portal sessions end with them. */
  readonly endForPortalSessions = async (
    ended: { userId: string; sessionIds: string[] },
    executor: Executor,
  ): Promise<void> => {
    const rows = await executor
      .select()
      .from(oidcSiteSignIns)
      .where(
        and(
          inArray(oidcSiteSignIns.portalSessionId, ended.sessionIds),
          isNull(oidcSiteSignIns.endedAt),
        ),
      );
    await this.end(executor, rows);
  };

  /**
   * A site's own logout (`/oidc/session/end`, provider.ts): the library ends the grants it was
   * asked to, but keeps those with `offline_access` (OpenID Connect lets them outlive a logout);
   * the portal's promise is that a sign-out ends them, so they end here, with the rows. Of the
   * library's session `uid`: every site's (`logout=yes`), or the one site's that asked. The
   * library has told the sites itself (a failure comes back through the outbox, plugin.ts).
   */
  async endBySiteLogout(ended: { uid: string; clientId?: string | undefined }): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const rows = await this.liveRows(
        tx,
        and(
          eq(oidcSiteSignIns.providerSessionUid, ended.uid),
          ended.clientId ? eq(oidcSiteSignIns.clientId, ended.clientId) : undefined,
        ),
      );
      await this.end(tx, rows, { isToldBySite: true });
    });
  }

  /**
   * The grants and every token of them destroyed, the library's sessions too (the next
   * authorization there needs a sign-in), the rows ended, and a back-channel logout put in the
   * outbox for each site that declared a `backchannel_logout_uri`, all in `executor`'s transaction.
   * After a site's own logout the library has done the last two itself.
   */
  private async end(
    executor: Executor,
    rows: SiteSignInRow[],
    { isToldBySite = false } = {},
  ): Promise<void> {
    if (rows.length === 0) return;
    await revokeGrants(
      executor,
      rows.map((row) => row.grantId),
    );
    if (!isToldBySite) {
      await destroySessions(executor, [...new Set(rows.map((row) => row.providerSessionUid))]);
    }
    await executor
      .update(oidcSiteSignIns)
      .set({ endedAt: this.deps.clock.now() })
      .where(
        inArray(
          oidcSiteSignIns.id,
          rows.map((row) => row.id),
        ),
      );
    if (isToldBySite) return;
    for (const row of rows) {
      const client = this.deps.clients.find((candidate) => candidate.client_id === row.clientId);
      if (!client?.backchannel_logout_uri) continue;
      const logout: BackchannelLogout = { clientId: row.clientId, sub: row.userId, sid: row.sid };
      await this.deps.mail.enqueueItem(BACKCHANNEL_LOGOUT, { ...logout }, executor);
    }
  }

  /**
   * Rows not ended whose grant still lives: a grant the library revoked itself (a site's own
   * logout, a refresh token used twice) or that expired is no device any more.
   */
  private async liveRows(executor: Executor, condition: SQL | undefined) {
    return this.live(await this.rowsWithGrant(executor, condition));
  }

  /** Rows not ended whose grant exists, with the grant's expiry (null: none). */
  private rowsWithGrant(executor: Executor, condition: SQL | undefined) {
    return executor
      .select({ row: oidcSiteSignIns, grantExpiresAt: oidcModels.expiresAt })
      .from(oidcSiteSignIns)
      .innerJoin(
        oidcModels,
        and(eq(oidcModels.kind, 'Grant'), eq(oidcModels.id, oidcSiteSignIns.grantId)),
      )
      .where(and(condition, isNull(oidcSiteSignIns.endedAt)));
  }

  private live(found: { row: SiteSignInRow; grantExpiresAt: Date | null }[]): SiteSignInRow[] {
    const now = this.deps.clock.now();
    return found
      .filter(({ grantExpiresAt }) => grantExpiresAt === null || grantExpiresAt > now)
      .map(({ row }) => row);
  }
}
