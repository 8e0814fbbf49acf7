/**
 * The staff guard: every staff call passes `requireStaff(ability)` first, in `onRequest`, before
 * its body is even read. To anyone who is not a member with that ability (no token, a customer's
 * token, a sibling site's session, a member whose role is too low, another host than STAFF_URL's)
 * it answers the very 404 of an unknown address, so the area gives no sign that it exists. A
 * member without a fresh proof gets 403 `staff_proof_required`.
 *
 * The role and the proof are read from the database on every call (one indexed read), never
 * remembered by the process: a role taken back through another process, or by the command line,
 * counts at the next request everywhere. The member's username (for the audit) comes through the
 * process's account cache, which the database tells of every change to the account.
 */
import {
  STAFF_PROOF_MINUTES,
  STAFF_PROOF_REQUIRED,
  type StaffAbility,
  type StaffRole,
  staffCan,
} from '@portal/contracts/staff';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { UserReadCache } from '../../db/user-reads.js';
import { AppError, notFound } from '../../http/app-error.js';
import { findUserById } from '../accounts/index.js';
import { bearerToken, type SessionStore } from '../auth/index.js';
import type { StaffActor } from '../operator/index.js';
import { readStaffMember } from './repository.js';

export const STAFF_PROOF_WINDOW_MS = STAFF_PROOF_MINUTES * 60_000;

/** The member a staff call is made by, once the guard let it through. */
export interface StaffMember {
  userId: string;
  /** The member's username: who acted, in the audit. */
  username: string;
  sessionId: string;
  role: StaffRole;
  /** Until when the session's proof lets the member work; null: no proof in force. */
  provenUntil: Date | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    staff?: StaffMember;
  }
}

export interface StaffGuardDeps {
  config: Config;
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  userReads: Pick<UserReadCache, 'read'>;
}

export function staffProofRequired(): AppError {
  return new AppError('forbidden', STAFF_PROOF_REQUIRED, { reason: 'staff_proof_required' });
}

export class StaffGuard {
  private readonly staffHost: string | null;

  constructor(private readonly deps: StaffGuardDeps) {
    this.staffHost = deps.config.STAFF_URL ? new URL(deps.config.STAFF_URL).host : null;
  }

  /**
   * The `onRequest` hook of a staff call needing `ability`. `isProofNeeded: false` only for the
   * calls that give the proof or say whether one is in force (`me`, `proof…`).
   */
  require(ability: StaffAbility, options: { isProofNeeded?: boolean } = {}) {
    const isProofNeeded = options.isProofNeeded ?? true;
    return async (request: FastifyRequest): Promise<void> => {
      const member = await this.memberOf(request);
      if (!member || !staffCan(member.role, ability)) throw notFound();
      request.staff = member;
      if (isProofNeeded && member.provenUntil === null) throw staffProofRequired();
    };
  }

  private async memberOf(request: FastifyRequest): Promise<StaffMember | null> {
    if (this.staffHost !== null && request.host !== this.staffHost) return null;
    const token = bearerToken(request);
    const session = token ? await this.deps.sessions.authenticate(token) : null;
    // A session handed to a sibling site is the site's, never the desk's.
    if (!session || session.siblingOrigin) return null;
    const found = await readStaffMember(this.deps.db, session.userId, session.id);
    const username = found
      ? await this.deps.userReads.read(session.userId, 'staff-username', async () => {
          const user = await findUserById(this.deps.db, session.userId);
          return user?.userName ?? null;
        })
      : null;
    if (!found || username === null) return null;
    const until = found.provenAt
      ? new Date(found.provenAt.getTime() + STAFF_PROOF_WINDOW_MS)
      : null;
    return {
      userId: session.userId,
      username,
      sessionId: session.id,
      role: found.role,
      provenUntil: until && until > this.deps.clock.now() ? until : null,
    };
  }
}

/** The member of a request the guard let through. */
export function staffOf(request: FastifyRequest): StaffMember {
  if (!request.staff) throw notFound();
  return request.staff;
}

/** Who acts on a staff call, and why: the member, their role and the request's address. */
export function actorOf(request: FastifyRequest, reason: string | null): StaffActor {
  const member = staffOf(request);
  return {
    userId: member.userId,
    name: member.username,
    role: member.role,
    reason,
    ip: request.ip,
  };
}
