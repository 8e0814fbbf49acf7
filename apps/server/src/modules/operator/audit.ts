import type { StaffRole } from '@portal/contracts/staff';
import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { operatorActions } from './schema.js';

/**
 * Who acts for support, and why: a staff member on the pages (`userId`, `role`, the request's
 * `ip`), or the command line (`userId` and `role` null, `name` its `--operator`). Every service
 * that changes an account or moves money on support's behalf takes one (modules/staff's
 * services, the staff money of money-service.ts), and its record says it (`actedBy`). Which
 * changes need `reason` is each service's rule.
 */
export interface StaffActor {
  userId: string | null;
  /** The member's username, or the command line's `--operator` name. */
  name: string;
  role: StaffRole | null;
  reason: string | null;
  ip: string | null;
}

export interface OperatorAction {
  operator: string;
  command: string;
  accountId: string | null;
  details?: Record<string, unknown>;
  reason?: string | null;
  /** null (the default): the command line. */
  actorUserId?: string | null;
  role?: StaffRole | null;
  ip?: string | null;
  at: Date;
}

/** The record's fields that say who acted and why. */
export function actedBy(actor: StaffActor) {
  return {
    operator: actor.name,
    reason: actor.reason,
    actorUserId: actor.userId,
    role: actor.role,
    ip: actor.ip,
  };
}

/**
 * Records an action of support, in the transaction of the change it describes, so that a change
 * is never without its record nor a record without its change. Nothing edits it afterwards
 * (the table's trigger refuses). The one writer of `operator_actions`, for the command line and
 * the staff pages alike.
 */
export async function recordOperatorAction(executor: Executor, action: OperatorAction) {
  await executor.insert(operatorActions).values({
    operator: action.operator,
    command: action.command,
    accountId: action.accountId,
    details: action.details ?? {},
    reason: action.reason ?? null,
    actorUserId: action.actorUserId ?? null,
    role: action.role ?? null,
    ip: action.ip ?? null,
    at: action.at,
  });
}

/** The latest actions of support on one account, newest first (`show`, the staff's account page). */
export function recentOperatorActions(executor: Executor, accountId: string, limit: number) {
  return executor
    .select()
    .from(operatorActions)
    .where(eq(operatorActions.accountId, accountId))
    .orderBy(desc(operatorActions.at), desc(operatorActions.seq))
    .limit(limit);
}

export interface AuditFilter {
  /** Who acted: the member's username or the `--operator` name, exactly. */
  actor?: string | undefined;
  accountId?: string | undefined;
  kind?: string | undefined;
  /** From this moment on (inclusive). */
  from?: Date | undefined;
  /** Before this moment. */
  to?: Date | undefined;
  /** Rows older than this `seq` (the page before). */
  beforeSeq?: number | undefined;
}

/** The audit, newest first, filtered; `limit` null: every row (the CSV). */
export function listOperatorActions(executor: Executor, filter: AuditFilter, limit: number | null) {
  const conditions: SQL[] = [];
  if (filter.actor) conditions.push(eq(operatorActions.operator, filter.actor));
  if (filter.accountId) conditions.push(eq(operatorActions.accountId, filter.accountId));
  if (filter.kind) conditions.push(eq(operatorActions.command, filter.kind));
  if (filter.from) conditions.push(gte(operatorActions.at, filter.from));
  if (filter.to) conditions.push(lt(operatorActions.at, filter.to));
  if (filter.beforeSeq !== undefined) conditions.push(lt(operatorActions.seq, filter.beforeSeq));
  const query = executor
    .select()
    .from(operatorActions)
    .where(and(...conditions))
    .orderBy(desc(operatorActions.seq));
  return limit === null ? query : query.limit(limit);
}
