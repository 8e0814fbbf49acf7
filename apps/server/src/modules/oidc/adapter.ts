/**
 * oidc-provider's storage on the portal's database (migrations/0780_oidc.sql): one row per model,
 * keyed by its kind (`Session`, `Interaction`, `Grant`, `AuthorizationCode`, `RefreshToken`,
 * `DeviceCode`…) and id, so two processes serve one flow and a restart loses nothing. The
 * library checks a payload's `exp` and `consumed` itself; the adapter keeps them findable and
 * answers them back as the library wrote them.
 *
 * What it costs: each statement is built once and prepared (`prepareStatements`), and a code's or
 * a token's read brings its grant and its session along, which the library reads next in the
 * same request (`withRequestReads`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import type { Clock } from '../../adapters/clock.js';
import type { Db, Executor } from '../../db/database.js';
import { preparedPerDb } from '../../db/prepared.js';
import { oidcModels } from './schema.js';

export interface OidcModelStoreDeps {
  db: Db;
  clock: Clock;
  /** The model's name as oidc-provider gives it to the adapter factory. */
  kind: string;
}

/**
 * Kinds whose payload names a grant (`grantId`) and a session (`sessionUid`): when the library
 * reads one of them it next reads the grant and, for a token bound to the session, the session.
 */
const BOUND_KINDS: ReadonlySet<string> = new Set([
  'AuthorizationCode',
  'AccessToken',
  'RefreshToken',
  'DeviceCode',
]);

/**
 * Models read along with a code or token in this request, by `Grant:<id>` or `Session:uid:<uid>`
 * (undefined: read, and not there). Each answers one find; any write through the adapter in the
 * request forgets them all, so nothing is answered that the request itself changed. The
 * statement that read them ran a moment earlier in the same request: what the library would
 * have read with a statement of its own.
 */
type RequestReads = Map<string, AdapterPayload | undefined>;
const requestReads = new AsyncLocalStorage<RequestReads>();

/** Runs one request of the library with its own `RequestReads` (live-provider.ts). */
export function withRequestReads<T>(answer: () => T): T {
  return requestReads.run(new Map(), answer);
}

/** Whatever this request read ahead is forgotten: it is about to change. */
function forgetRequestReads() {
  requestReads.getStore()?.clear();
}

const grantKey = (id: string) => `Grant:${id}`;
const sessionKey = (uid: string) => `Session:uid:${uid}`;

const param = <T>(name: string) => sql.placeholder(name) as unknown as T;
const ofKind = (condition: SQL) => and(eq(oidcModels.kind, param('kind')), condition);

/**
 * The statements of every request of a sign-in, each built once per database and, on PostgreSQL,
 * prepared once per connection by its name (db/prepared.ts: an upsert built by drizzle cost about
 * 0.4 ms of CPU, a find 0.2 ms, docs/benchmarks.md).
 */
function prepareStatements(db: Db) {
  const read = { payload: oidcModels.payload, consumedAt: oidcModels.consumedAt };
  const findBy = (column: AnyPgColumn, name: string) =>
    db
      .select(read)
      .from(oidcModels)
      .where(ofKind(eq(column, param('value'))))
      .limit(1)
      .prepare(name);
  return {
    upsert: db
      .insert(oidcModels)
      .values({
        kind: param('kind'),
        id: param('id'),
        // Serialised here: a placeholder skips the column's own mapping.
        payload: sql`${sql.placeholder('payload')}::jsonb` as never,
        grantId: param('grantId'),
        userCode: param('userCode'),
        uid: param('uid'),
        expiresAt: param('expiresAt'),
        consumedAt: null,
      })
      .onConflictDoUpdate({
        target: [oidcModels.kind, oidcModels.id],
        set: {
          payload: sql`excluded.payload`,
          grantId: sql`excluded.grant_id`,
          userCode: sql`excluded.user_code`,
          uid: sql`excluded.uid`,
          expiresAt: sql`excluded.expires_at`,
          consumedAt: null,
        },
      })
      .prepare('oidc_models_upsert'),
    findById: findBy(oidcModels.id, 'oidc_models_find'),
    findByUserCode: findBy(oidcModels.userCode, 'oidc_models_find_by_user_code'),
    findByUid: findBy(oidcModels.uid, 'oidc_models_find_by_uid'),
    consume: db
      .update(oidcModels)
      .set({ consumedAt: param('now') })
      .where(ofKind(and(eq(oidcModels.id, param('id')), isNull(oidcModels.consumedAt))!))
      .returning({ id: oidcModels.id })
      .prepare('oidc_models_consume'),
    destroy: db
      .delete(oidcModels)
      .where(ofKind(eq(oidcModels.id, param('id'))))
      .prepare('oidc_models_destroy'),
    findWithGrantAndSession: prepareBoundRead(db),
  };
}

/**
 * A code or token with its grant and its session, in one statement: the token's row (by kind and
 * id), the `Grant` row its `grant_id` names and the `Session` row its payload's `sessionUid` names,
 * each by its index.
 */
function prepareBoundRead(db: Db) {
  const token = alias(oidcModels, 'token');
  return db
    .select({
      kind: oidcModels.kind,
      id: oidcModels.id,
      uid: oidcModels.uid,
      payload: oidcModels.payload,
      consumedAt: oidcModels.consumedAt,
    })
    .from(token)
    .innerJoin(
      oidcModels,
      or(
        and(eq(oidcModels.kind, token.kind), eq(oidcModels.id, token.id)),
        and(eq(oidcModels.kind, 'Grant'), eq(oidcModels.id, token.grantId)),
        and(
          eq(oidcModels.kind, 'Session'),
          eq(oidcModels.uid, sql`${token.payload}->>'sessionUid'`),
        ),
      ),
    )
    .where(and(eq(token.kind, param('kind')), eq(token.id, param('id'))))
    .prepare('oidc_models_find_with_grant_and_session');
}
type Statements = ReturnType<typeof prepareStatements>;
const statements = preparedPerDb(prepareStatements);

export class OidcModelStore implements Adapter {
  private readonly statements: Statements;

  constructor(private readonly deps: OidcModelStoreDeps) {
    this.statements = statements(deps.db);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const { clock, kind } = this.deps;
    forgetRequestReads();
    await this.statements.upsert.execute({
      kind,
      id,
      payload: JSON.stringify(payload),
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt: expiresIn ? new Date(clock.now().getTime() + expiresIn * 1000) : null,
    });
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    const reads = requestReads.getStore();
    if (reads) {
      if (this.deps.kind === 'Grant') {
        const key = grantKey(id);
        if (reads.has(key)) return Promise.resolve(taken(reads, key));
      }
      if (BOUND_KINDS.has(this.deps.kind)) return this.findWithGrantAndSession(reads, id);
    }
    return this.findOne(this.statements.findById, id);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findOne(this.statements.findByUserCode, userCode);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const reads = requestReads.getStore();
    if (reads && this.deps.kind === 'Session' && reads.has(sessionKey(uid))) {
      return Promise.resolve(taken(reads, sessionKey(uid)));
    }
    return this.findOne(this.statements.findByUid, uid);
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
    forgetRequestReads();
    const marked = await this.statements.consume.execute({ kind, id, now: clock.now() });
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
    forgetRequestReads();
    await this.statements.destroy.execute({ kind: this.deps.kind, id });
  }

  /**
   * Every model of the grant, whatever its kind: the library calls it on one kind after another,
   * and deleting them all at the first call leaves nothing of a revoked grant alive in between.
   */
  async revokeByGrantId(grantId: string): Promise<void> {
    await revokeGrants(this.deps.db, [grantId]);
  }

  /**
   * The code or token; its grant and session are kept for the library's next finds in this
   * request (absent ones too: the library then finds nothing, as it would have).
   */
  private async findWithGrantAndSession(reads: RequestReads, id: string) {
    const { kind } = this.deps;
    const rows = await this.statements.findWithGrantAndSession.execute({ kind, id });
    const row = rows.find((each) => each.kind === kind && each.id === id);
    if (!row) return undefined;
    const payload = payloadOf(row);
    const { grantId, sessionUid } = payload;
    if (typeof grantId === 'string') {
      const grant = rows.find((each) => each.kind === 'Grant' && each.id === grantId);
      reads.set(grantKey(grantId), grant && payloadOf(grant));
    }
    if (typeof sessionUid === 'string') {
      const session = rows.find((each) => each.kind === 'Session' && each.uid === sessionUid);
      reads.set(sessionKey(sessionUid), session && payloadOf(session));
    }
    return payload;
  }

  private async findOne(
    statement: Statements['findById'],
    value: string,
  ): Promise<AdapterPayload | undefined> {
    const [row] = await statement.execute({ kind: this.deps.kind, value });
    return row ? payloadOf(row) : undefined;
  }
}

/** A model read ahead in this request, answered once. */
function taken(reads: RequestReads, key: string): AdapterPayload | undefined {
  const payload = reads.get(key);
  reads.delete(key);
  return payload;
}

/** The payload as the library wrote it, with `consumed` (epoch seconds) once it was used. */
function payloadOf(row: {
  payload: Record<string, unknown>;
  consumedAt: Date | null;
}): AdapterPayload {
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
  forgetRequestReads();
  await executor.delete(oidcModels).where(
    or(
      and(inArray(oidcModels.grantId, grantIds), ne(oidcModels.kind, 'Interaction')),
      // The grant's own row names no grant: it is the grant.
      and(eq(oidcModels.kind, 'Grant'), inArray(oidcModels.id, grantIds)),
    ),
  );
}

/** The library's sessions by their `uid`: the next authorization there needs a sign-in. */
export async function destroySessions(executor: Executor, uids: string[]): Promise<void> {
  if (uids.length === 0) return;
  forgetRequestReads();
  await executor
    .delete(oidcModels)
    .where(and(eq(oidcModels.kind, 'Session'), inArray(oidcModels.uid, uids)));
}
