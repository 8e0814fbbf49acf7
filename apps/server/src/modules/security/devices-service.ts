/**
 * A device is a session: the owner lists them, ends one, ends all but the current one, or all of
 * them, either signed in or, right after a password reset, with the reset's grant
 * (reset-logout-grants.ts). Every ending is recorded in the security log.
 */
import type { Device, DevicesAnswer } from '@portal/contracts/auth';
import { enforceLimit, type RateLimiter } from '../../adapters/rate-limit.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { notFound } from '../../http/app-error.js';
import { emailKey, findUserByEmailKey } from '../accounts/index.js';
import { codeRefusal, type SessionStore, siteName } from '../auth/index.js';
import type { EventClient, SecurityLog } from '../security-log/index.js';
import { SECURITY_MESSAGES } from './messages.js';
import type { ResetLogoutGrants } from './reset-logout-grants.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MINUTE = 60_000;
/** Grant checks from one address: enough for a household, useless for guessing codes. */
const GRANT_CHECKS_PER_ADDRESS = { limit: 20, windowMs: 15 * MINUTE };

export interface DevicesDeps {
  config: Config;
  db: Db;
  rateLimiter: RateLimiter;
  sessions: SessionStore;
  securityLog: SecurityLog;
  /** A reset issues the grant that the `logout-all` right after it redeems. */
  grants: ResetLogoutGrants;
}

/**
 * The sites signed in through the portal (modules/oidc, registered later, hands it over with
 * `DevicesService.useSiteSignIns`): each live one is a row of the list, ended on its own.
 */
export interface SiteSignInDevices {
  list(userId: string): Promise<Device[]>;
  /** Ends one of the account's site sign-ins: the site's name, or null when none is live. */
  end(userId: string, id: string): Promise<{ site: string } | null>;
}

/** The caller's session, as the session guard gives it. */
interface Current {
  id: string;
  userId: string;
}

export class DevicesService {
  private siteSignIns: SiteSignInDevices | null = null;

  constructor(private readonly deps: DevicesDeps) {}

  /** The sites' sign-ins join the list (modules/oidc). */
  useSiteSignIns(siteSignIns: SiteSignInDevices): void {
    this.siteSignIns = siteSignIns;
  }

  /** The caller's sessions, each with the site it belongs to, then the sites signed in through them. */
  async list(current: Current): Promise<DevicesAnswer> {
    const { config, sessions } = this.deps;
    const [rows, sites] = await Promise.all([
      sessions.listActive(current.userId),
      this.siteSignIns?.list(current.userId) ?? [],
    ]);
    const portal = rows.map((row) => ({
      id: row.id,
      userAgent: row.userAgent,
      ipAddress: row.ipAddress || null,
      lastActivity: row.lastActivityAt.toISOString(),
      isCurrent: row.id === current.id,
      site: siteName(config, row.clientOrigin),
      kind: 'session' as const,
    }));
    return [...portal, ...sites];
  }

  /** Ends one of the caller's sessions; ending this very device is signing out of it. */
  async end(current: Current, id: string, client: EventClient): Promise<void> {
    const { db, sessions, securityLog } = this.deps;
    const { userId } = current;
    // Another user's session answers exactly like one that never existed.
    if (!UUID.test(id)) throw notFound(SECURITY_MESSAGES.deviceNotFound);
    if (!(await sessions.revoke(userId, id))) {
      // Not a session: a site's sign-in, ended alone, or nothing of this account's.
      const ended = await this.siteSignIns?.end(userId, id);
      if (!ended) throw notFound(SECURITY_MESSAGES.deviceNotFound);
      await securityLog.record(db, userId, 'session_ended', client, {
        via: 'devices',
        site: ended.site,
      });
      return;
    }
    await securityLog.record(
      db,
      userId,
      id === current.id ? 'sign_out' : 'session_ended',
      client,
      id === current.id ? {} : { via: 'devices' },
    );
  }

  /** Ends every session of the signed-in caller, the current one too. */
  async endAll(userId: string, client: EventClient): Promise<void> {
    const { db, sessions, securityLog } = this.deps;
    await sessions.revokeAll(userId);
    await securityLog.record(db, userId, 'sessions_ended', client, { isCurrentKept: false });
  }

  /** Ends every session of the account just reset, by the reset's { email, code }, once. */
  async endAllByGrant(
    grant: { email: string; code: string },
    ip: string,
    client: EventClient,
  ): Promise<void> {
    const { db, rateLimiter, sessions, securityLog, grants } = this.deps;
    await enforceLimit(rateLimiter, `reset-logout:ip:${ip}`, GRANT_CHECKS_PER_ADDRESS);
    const user = await findUserByEmailKey(db, emailKey(grant.email));
    // An unknown address is refused exactly like a wrong code.
    const accepted =
      user !== undefined &&
      (await grants.redeem(user.id, grant.code, async (tx) => {
        await sessions.revokeAll(user.id, {}, tx);
        await securityLog.record(tx, user.id, 'sessions_ended', client, {
          isCurrentKept: false,
        });
      }));
    if (!accepted) throw codeRefusal('wrong');
  }

  /** Ends every session of the caller but the current one. */
  async endOthers(current: Current, client: EventClient): Promise<void> {
    const { db, sessions, securityLog } = this.deps;
    await sessions.revokeAll(current.userId, { exceptSessionId: current.id });
    await securityLog.record(db, current.userId, 'sessions_ended', client, {
      isCurrentKept: true,
    });
  }
}
