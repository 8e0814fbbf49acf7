/** The staff module's queries: roles (staff_roles) and the members' proofs (staff_proofs). */
import type { StaffRole } from '@portal/contracts/staff';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { staffProofs, staffRoles } from './schema.js';

/**
 * The account's live role and when this session last proved its member, in one read. Read on
 * every staff request, never remembered: a role taken back in another process counts at once.
 */
export async function readStaffMember(
  executor: Executor,
  userId: string,
  sessionId: string,
): Promise<{ role: StaffRole; provenAt: Date | null } | null> {
  const [row] = await executor
    .select({ role: staffRoles.role, provenAt: staffProofs.provenAt })
    .from(staffRoles)
    .leftJoin(
      staffProofs,
      and(eq(staffProofs.sessionId, sessionId), eq(staffProofs.userId, staffRoles.userId)),
    )
    .where(and(eq(staffRoles.userId, userId), isNull(staffRoles.revokedAt)))
    .limit(1);
  return row ?? null;
}

/** The account's live role row, or undefined. */
export async function findLiveRole(executor: Executor, userId: string) {
  const [row] = await executor
    .select()
    .from(staffRoles)
    .where(and(eq(staffRoles.userId, userId), isNull(staffRoles.revokedAt)))
    .limit(1);
  return row;
}

/** Every live role, the oldest grant first. */
export function listLiveRoles(executor: Executor) {
  return executor
    .select()
    .from(staffRoles)
    .where(isNull(staffRoles.revokedAt))
    .orderBy(asc(staffRoles.grantedAt), asc(staffRoles.id));
}

/** Ends the live role; answers it, or undefined when there was none. */
export async function revokeLiveRole(
  executor: Executor,
  userId: string,
  revoked: { at: Date; by: string; reason: string | null },
) {
  const [row] = await executor
    .update(staffRoles)
    .set({ revokedAt: revoked.at, revokedBy: revoked.by, revokeReason: revoked.reason })
    .where(and(eq(staffRoles.userId, userId), isNull(staffRoles.revokedAt)))
    .returning();
  return row;
}

export async function insertRole(
  executor: Executor,
  values: { userId: string; role: StaffRole; grantedBy: string; grantedAt: Date; reason: string },
) {
  await executor.insert(staffRoles).values(values);
}

/** Stamps the session as proven by its member now (a passkey or the authenticator). */
export async function upsertStaffProof(
  executor: Executor,
  proof: { sessionId: string; userId: string; provenAt: Date },
) {
  await executor
    .insert(staffProofs)
    .values(proof)
    .onConflictDoUpdate({ target: staffProofs.sessionId, set: { provenAt: proof.provenAt } });
}

/** Takes out the account's staff proofs; answers the sessions that carried one. */
export async function takeStaffProofs(executor: Executor, userId: string): Promise<string[]> {
  const rows = await executor
    .delete(staffProofs)
    .where(eq(staffProofs.userId, userId))
    .returning({ sessionId: staffProofs.sessionId });
  return rows.map((row) => row.sessionId);
}

/** The account's rows of this module, for its erasure. */
export async function deleteStaffRowsOf(executor: Executor, userId: string) {
  await executor.delete(staffProofs).where(eq(staffProofs.userId, userId));
  await executor.delete(staffRoles).where(eq(staffRoles.userId, userId));
}
