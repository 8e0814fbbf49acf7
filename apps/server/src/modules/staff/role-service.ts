/**
 * Staff roles: granted and taken back by an admin on the pages, or from the command line
 * (`staff grant|revoke|list`, which names the first admin). One live role per account. A member
 * needs a passkey or the authenticator, since every staff call asks for one of them.
 *
 * Taking a role back ends, in its transaction, every session of the account that carries a staff
 * proof, through `SessionStore.revoke` (rows revoked, and with Redis every process told); and the
 * guard reads the role on every request, so the next staff call anywhere answers 404.
 */
import type { StaffRole } from '@portal/contracts/staff';
import { STAFF_NEEDS_FACTOR } from '@portal/contracts/staff';
import type { Clock } from '../../adapters/clock.js';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { notFound } from '../../http/app-error.js';
import { emailKey, findUserByEmailKey, findUserById, type UserRow } from '../accounts/index.js';
import type { SessionStore } from '../auth/index.js';
import { actedBy, recordOperatorAction, type StaffActor } from '../operator/index.js';
import type { PasskeyService } from '../passkeys/index.js';
import type { TwoFactorService } from '../two-factor/index.js';
import { SupportRefusal } from './access-service.js';
import { STAFF_MESSAGES } from './messages.js';
import {
  findLiveRole,
  insertRole,
  listLiveRoles,
  revokeLiveRole,
  takeStaffProofs,
} from './repository.js';
import type { StaffRoleRow } from './schema.js';

export interface StaffRoleDeps {
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  twoFactor: TwoFactorService;
  passkeys: PasskeyService;
}

export interface StaffMemberView {
  user: UserRow;
  role: StaffRoleRow;
}

export class StaffRoleService {
  constructor(private readonly deps: StaffRoleDeps) {}

  /** The account with this e-mail, or 404 «Аккаунт не найден». */
  async findByEmail(email: string): Promise<UserRow> {
    const user = await findUserByEmailKey(this.deps.db, emailKey(email));
    if (!user) throw notFound(STAFF_MESSAGES.accountNotFound);
    return user;
  }

  /** The account's live role, or null. */
  async roleOf(userId: string): Promise<StaffRole | null> {
    return (await findLiveRole(this.deps.db, userId))?.role ?? null;
  }

  /** Grants `role`, or changes the live one to it; answers the role it had before. */
  async grant(actor: StaffActor, user: UserRow, role: StaffRole): Promise<StaffRole | null> {
    const { db, clock, twoFactor, passkeys } = this.deps;
    if (!(await twoFactor.isEnabled(user.id)) && !(await passkeys.isEnabled(user.id))) {
      throw new SupportRefusal(STAFF_NEEDS_FACTOR);
    }
    try {
      return await db.transaction(async (tx) => {
        const now = clock.now();
        const previous = await revokeLiveRole(tx, user.id, {
          at: now,
          by: actor.name,
          reason: actor.reason,
        });
        if (previous?.role === role) {
          throw new SupportRefusal(`У аккаунта ${user.userName} уже эта роль`);
        }
        await insertRole(tx, {
          userId: user.id,
          role,
          grantedBy: actor.name,
          grantedAt: now,
          reason: actor.reason ?? '',
        });
        await recordOperatorAction(tx, {
          ...actedBy(actor),
          command: 'role_granted',
          accountId: user.id,
          details: { role, previousRole: previous?.role ?? null },
          at: now,
        });
        return previous?.role ?? null;
      });
    } catch (error) {
      // Two grants at once: the one live role's index let one in.
      if (isUniqueViolation(error)) throw new SupportRefusal(STAFF_MESSAGES.roleChangedMeanwhile);
      throw error;
    }
  }

  /** Takes the role back and ends the sessions that carry a staff proof; answers how many. */
  async revoke(actor: StaffActor, user: UserRow): Promise<number> {
    const { db, clock, sessions } = this.deps;
    return db.transaction(async (tx) => {
      const now = clock.now();
      const revoked = await revokeLiveRole(tx, user.id, {
        at: now,
        by: actor.name,
        reason: actor.reason,
      });
      if (!revoked) throw new SupportRefusal(STAFF_MESSAGES.noRole);
      let ended = 0;
      for (const sessionId of await takeStaffProofs(tx, user.id)) {
        if (await sessions.revoke(user.id, sessionId, tx)) ended += 1;
      }
      await recordOperatorAction(tx, {
        ...actedBy(actor),
        command: 'role_revoked',
        accountId: user.id,
        details: { role: revoked.role, sessionsEnded: ended },
        at: now,
      });
      return ended;
    });
  }

  /** The staff now, oldest grant first. */
  async list(): Promise<StaffMemberView[]> {
    const rows = await listLiveRoles(this.deps.db);
    const members: StaffMemberView[] = [];
    for (const role of rows) {
      const user = await findUserById(this.deps.db, role.userId);
      if (user) members.push({ user, role });
    }
    return members;
  }
}
