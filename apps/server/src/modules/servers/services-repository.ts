import { and, asc, eq, gt } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { type ServiceRow, services } from './schema.js';

/** The user's services, oldest first; only one sibling's when it is named. */
export function listServicesOf(
  executor: Executor,
  userId: string,
  siblingName?: string,
): Promise<ServiceRow[]> {
  return executor
    .select()
    .from(services)
    .where(
      and(eq(services.userId, userId), siblingName ? eq(services.sibling, siblingName) : undefined),
    )
    .orderBy(asc(services.createdAt), asc(services.id));
}

/** The columns a sibling may change without a payment (sibling-schemas.ts). */
export type SiblingServiceChange = Partial<
  Pick<ServiceRow, 'name' | 'serverCount' | 'priceKopecks' | 'autoRenew' | 'manageUrl'>
> & { updatedAt: Date };

/** Changes one of the sibling's own services; undefined when it has none by that id. */
export async function updateSiblingService(
  executor: Executor,
  siblingName: string,
  externalId: string,
  change: SiblingServiceChange,
): Promise<ServiceRow | undefined> {
  const [row] = await executor
    .update(services)
    .set(change)
    .where(and(eq(services.sibling, siblingName), eq(services.externalId, externalId)))
    .returning();
  return row;
}

/** Whether the account holds a paid service that is running (a deletion waits until it ends). */
export async function hasActivePaidService(
  executor: Executor,
  userId: string,
  now: Date,
): Promise<boolean> {
  const [row] = await executor
    .select({ id: services.id })
    .from(services)
    .where(
      and(
        eq(services.userId, userId),
        eq(services.status, 'active'),
        gt(services.priceKopecks, 0),
        gt(services.paidUntil, now),
      ),
    )
    .limit(1);
  return row !== undefined;
}
