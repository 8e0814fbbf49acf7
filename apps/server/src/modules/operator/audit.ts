import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { operatorActions } from './schema.js';

export interface OperatorAction {
  operator: string;
  command: string;
  accountId: string | null;
  details?: Record<string, unknown>;
  reason?: string | null;
  at: Date;
}

/**
 * Records an action of support, in the transaction of the change it describes, so that a change
 * is never without its record nor a record without its change. Nothing edits it afterwards
 * (the table's trigger refuses).
 */
export async function recordOperatorAction(executor: Executor, action: OperatorAction) {
  await executor.insert(operatorActions).values({
    operator: action.operator,
    command: action.command,
    accountId: action.accountId,
    details: action.details ?? {},
    reason: action.reason ?? null,
    at: action.at,
  });
}

/** The latest actions of support on one account, newest first (`show`). */
export function recentOperatorActions(executor: Executor, accountId: string, limit: number) {
  return executor
    .select()
    .from(operatorActions)
    .where(eq(operatorActions.accountId, accountId))
    .orderBy(desc(operatorActions.at), desc(operatorActions.seq))
    .limit(limit);
}
