/**
 * oidc-provider's storage on the portal's database (migrations/0780_oidc.sql): one row per model,
 * keyed by its kind (`Session`, `Interaction`, `Grant`, `AuthorizationCode`, `RefreshToken`,
 * `DeviceCode`…) and id, so two processes serve one flow and a restart loses nothing. The
 * library checks a payload's `exp` and `consumed` itself; the adapter keeps them findable and
 * answers them back as the library wrote them.
 */
import { and, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import type { Clock } from '../../adapters/clock.js';
import type { Db, Executor } from '../../db/database.js';
import { oidcModels } from './schema.js';

export interface OidcModelStoreDeps {
  db: Db;
  clock: Clock;
  /** The model's name as oidc-provider gives it to the adapter factory. */
  kind: string;
}

type ModelRow = typeof oidcModels.$inferSelect;

export class OidcModelStore implements Adapter {
  constructor(private readonly deps: OidcModelStoreDeps) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const { db, clock, kind } = this.deps;
    const expiresAt = expiresIn ? new Date(clock.now().getTime() + expiresIn * 1000) : null;
    const values = {
      payload: payload as Record<string, unknown>,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt,
      consumedAt: null,
    };
    await db
      .insert(oidcModels)
      .values({ kind, id, ...values })
      .onConflictDoUpdate({ target: [oidcModels.kind, oidcModels.id], set: values });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.findOne(eq(oidcModels.id, id));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findOne(eq(oidcModels.userCode, userCode));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findOne(eq(oidcModels.uid, uid));
  }

  /**
   * Marks a code or token used; the library refuses it from then on (and revokes the grant when
   * a used one comes back). Only one use wins: the library reads `consumed` first and marks it
   * after, so two parallel uses both read it unused; here the mark is conditional, and the loser
   * is what it is, a reuse: the grant is revoked (every model of it and the grant itself, as the
   * library's reuse rule does) and the request answered `invalid_grant`.
   */
  async consume(id: string): Promise<void> {
    const { db, clock, kind } = this.deps;
    const marked = await db
      .update(oidcModels)
      .set({ consumedAt: clock.now() })
      .where(and(eq(oidcModels.kind, kind), eq(oidcModels.id, id), isNull(oidcModels.consumedAt)))
      .returning({ id: oidcModels.id });
    if (marked.length > 0) return;
    const [row] = await db
      .select({ grantId: oidcModels.grantId })
      .from(oidcModels)
      .where(and(eq(oidcModels.kind, kind), eq(oidcModels.id, id)));
    if (row?.grantId) {
      await db
        .delete(oidcModels)
        .where(
          or(
            eq(oidcModels.grantId, row.grantId),
            and(eq(oidcModels.kind, 'Grant'), eq(oidcModels.id, row.grantId)),
          ),
        );
    }
    throw new errors.InvalidGrant(`${kind} already used`);
  }

  async destroy(id: string): Promise<void> {
    await this.deps.db
      .delete(oidcModels)
      .where(and(eq(oidcModels.kind, this.deps.kind), eq(oidcModels.id, id)));
  }

  /**
   * Every model of the grant, whatever its kind: the library calls it on one kind after another,
   * and deleting them all at the first call leaves nothing of a revoked grant alive in between.
   */
  async revokeByGrantId(grantId: string): Promise<void> {
    await revokeGrants(this.deps.db, [grantId]);
  }

  private async findOne(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(oidcModels)
      .where(and(eq(oidcModels.kind, this.deps.kind), condition))
      .limit(1);
    return row ? payloadOf(row) : undefined;
  }
}

/** The payload as the library wrote it, with `consumed` (epoch seconds) once it was used. */
function payloadOf(row: ModelRow): AdapterPayload {
  if (!row.consumedAt) return row.payload as AdapterPayload;
  return { ...row.payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) };
}

/**
 * Every model of these grants gone at once (the grant, its codes, access and refresh tokens),
 * as the library's own revocation does through `revokeByGrantId`; with `executor` the portal's
 * transaction that ends the portal session (site-sign-ins.ts). An interaction in progress names
 * the grant it would extend but is none of its models (the library never revokes one): it stays,
 * so a sign-in asked for again (`prompt=login`, interactions.ts) can still finish.
 */
export async function revokeGrants(executor: Executor, grantIds: string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await executor
    .delete(oidcModels)
    .where(and(inArray(oidcModels.grantId, grantIds), ne(oidcModels.kind, 'Interaction')));
}

/** The library's sessions by their `uid`: the next authorization there needs a sign-in. */
export async function destroySessions(executor: Executor, uids: string[]): Promise<void> {
  if (uids.length === 0) return;
  await executor
    .delete(oidcModels)
    .where(and(eq(oidcModels.kind, 'Session'), inArray(oidcModels.uid, uids)));
}
