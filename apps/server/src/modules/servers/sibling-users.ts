import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { isUserErased } from '../accounts/index.js';
import type { Sibling } from '../auth/index.js';
import { hasSignedInThrough } from '../auth/index.js';
import { services } from './schema.js';

/**
 * Whether a sibling may read or charge the user: the user has signed in through it, or holds one
 * of its services. Anyone else, real or not, is answered like an unknown id; so is an erased
 * account (modules/account-data), whose services stay only as money records.
 */
export async function siblingKnowsUser(
  executor: Executor,
  sibling: Sibling,
  userId: string,
): Promise<boolean> {
  if (await isUserErased(executor, userId)) return false;
  if (await hasSignedInThrough(executor, sibling, userId)) return true;
  const [service] = await executor
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.userId, userId), eq(services.sibling, sibling.name)))
    .limit(1);
  return service !== undefined;
}
