import { createHash, randomBytes } from 'node:crypto';
import { errorAnswerSchema } from '@portal/contracts/common';
import { PORTAL_ONLY, TOKEN_INVALID } from '@portal/contracts/messages';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import { LocalRevocationBus, type RevocationBus } from '../../adapters/revocation-bus.js';
import type { Db, Executor } from '../../db/database.js';
import { UserReadCache } from '../../db/user-reads.js';
import { AppError, unauthorized } from '../../http/app-error.js';
import { type SessionRow, sessions } from './schema.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** How long a session lives: idle limit since the last request, absolute limit since sign-in. */
const SESSION_LIMITS = {
  normal: { idleMs: 1 * DAY, absoluteMs: 7 * DAY },
  rememberMe: { idleMs: 30 * DAY, absoluteMs: 90 * DAY },
  /** Last activity is written at most this often, not on every request. */
  touchEveryMs: MINUTE,
} as const;

export interface AuthenticatedSession {
  id: string;
  userId: string;
  /** Origin of the sibling site the session was handed to; null for the portal's own sessions. */
  siblingOrigin: string | null;
}

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface NewSession {
  userId: string;
  userAgent?: string;
  ipAddress?: string;
  rememberMe?: boolean;
  clientOrigin?: string | null;
}

export type SessionCreatedListener = (session: SessionRow) => void;

interface CachedSession {
  id: string;
  userId: string;
  siblingOrigin: string | null;
  expiresAtMs: number;
  idleMs: number;
  lastActivityMs: number;
}

/** How many live sessions one process remembers, and how long a revocation is remembered. */
const CACHE_LIMIT = 50_000;
const TOMBSTONE_MS = 10 * MINUTE;

/**
 * Sessions are the access tokens (DESIGN §3). Every check and every revocation goes through this
 * store. Checks are answered from a per-process cache; a revocation evicts here and is published
 * on the revocation bus so that every other process evicts too before its next request.
 *
 * A revocation inside a transaction is published before it commits; a request in that gap still
 * reads the live row, so revoked ids are also remembered for a while ("tombstones") and a row
 * read meanwhile is not cached: the next request after the commit goes to the database.
 */
export class SessionStore {
  private readonly createdListeners: SessionCreatedListener[] = [];
  private readonly cache = new Map<string, CachedSession>();
  private readonly tombstones = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly bus: RevocationBus = new LocalRevocationBus(),
    private readonly reads = new UserReadCache(),
  ) {
    bus.subscribe(
      (ids) => this.forget(ids),
      () => this.cache.clear(),
    );
  }

  async close(): Promise<void> {
    await this.bus.close();
  }

  /** Creates a session and answers its bearer token, which is never stored. */
  async create(input: NewSession, executor: Executor = this.db) {
    const token = generateToken();
    const now = this.clock.now();
    const limits = input.rememberMe ? SESSION_LIMITS.rememberMe : SESSION_LIMITS.normal;
    const [row] = await executor
      .insert(sessions)
      .values({
        userId: input.userId,
        tokenHash: hashToken(token),
        userAgent: (input.userAgent ?? '').slice(0, 512),
        ipAddress: input.ipAddress ?? '',
        clientOrigin: input.clientOrigin ?? null,
        rememberMe: input.rememberMe ?? false,
        createdAt: now,
        lastActivityAt: now,
        expiresAt: new Date(now.getTime() + limits.absoluteMs),
      })
      .returning();
    for (const listener of this.createdListeners) listener(row!);
    return { token, session: row! };
  }

  /**
   * Tells `listener` about every new session, i.e. every sign-in (the Telegram sign-in notices).
   * It runs inside `create`, possibly before the caller's transaction commits: it must not throw,
   * block or write; it may only schedule work.
   */
  onCreated(listener: SessionCreatedListener): void {
    this.createdListeners.push(listener);
  }

  /** The live session behind a token, or null when unknown, expired or revoked. */
  async authenticate(token: string): Promise<AuthenticatedSession | null> {
    const tokenHash = hashToken(token);
    const nowMs = this.clock.now().getTime();
    const cached = this.bus.isReliable() ? this.cache.get(tokenHash) : undefined;
    if (cached) {
      const isLive =
        cached.expiresAtMs > nowMs &&
        nowMs - cached.lastActivityMs <= cached.idleMs &&
        !this.tombstones.has(cached.id);
      if (isLive) {
        await this.touch(cached, nowMs);
        return { id: cached.id, userId: cached.userId, siblingOrigin: cached.siblingOrigin };
      }
      // Another process may have recorded activity since; the database decides.
      this.cache.delete(tokenHash);
    }

    const now = new Date(nowMs);
    const [row] = await this.db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.tokenHash, tokenHash),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
        ),
      )
      .limit(1);
    if (!row || isIdleExpired(row, now)) return null;
    const entry: CachedSession = {
      id: row.id,
      userId: row.userId,
      siblingOrigin: row.clientOrigin,
      expiresAtMs: row.expiresAt.getTime(),
      idleMs: limitsOf(row).idleMs,
      lastActivityMs: row.lastActivityAt.getTime(),
    };
    await this.touch(entry, nowMs);
    if (this.bus.isReliable() && !this.tombstones.has(row.id)) this.remember(tokenHash, entry);
    return { id: row.id, userId: row.userId, siblingOrigin: row.clientOrigin };
  }

  /** Last activity is written at most once a minute, not on every request. */
  private async touch(entry: CachedSession, nowMs: number) {
    if (nowMs - entry.lastActivityMs < SESSION_LIMITS.touchEveryMs) return;
    entry.lastActivityMs = nowMs;
    await this.db
      .update(sessions)
      .set({ lastActivityAt: new Date(nowMs) })
      .where(eq(sessions.id, entry.id));
  }

  private remember(tokenHash: string, entry: CachedSession) {
    if (this.cache.size >= CACHE_LIMIT) {
      // Maps iterate in insertion order: drop the oldest.
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(tokenHash, entry);
  }

  /** Drops revoked sessions from this process's cache and remembers them for a while. */
  private forget(ids: string[]) {
    if (ids.length === 0) return;
    const nowMs = Date.now();
    for (const [at, time] of this.tombstones) {
      if (nowMs - time < TOMBSTONE_MS) break;
      this.tombstones.delete(at);
    }
    const revoked = new Set(ids);
    for (const id of ids) {
      this.tombstones.delete(id);
      this.tombstones.set(id, nowMs);
    }
    for (const [tokenHash, entry] of this.cache) {
      if (revoked.has(entry.id)) this.cache.delete(tokenHash);
    }
  }

  /** Evicts here at once and tells every other process. */
  private async announceRevoked(ids: string[]) {
    this.forget(ids);
    await this.bus.publish(ids);
  }

  /**
   * When the live session last proved its owner (a password or a code), or null. Always read
   * from the database, never from this process's cache: a proof given through another process
   * counts at once, and so does a revocation the cache has not heard of yet.
   */
  async provenAt(sessionId: string): Promise<Date | null> {
    const [row] = await this.db
      .select({ provenAt: sessions.provenAt })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    return row?.provenAt ?? null;
  }

  /** Records that the session has just proved its owner. */
  async markProven(sessionId: string, executor: Executor = this.db): Promise<Date> {
    const now = this.clock.now();
    await executor.update(sessions).set({ provenAt: now }).where(eq(sessions.id, sessionId));
    return now;
  }

  /** The user's live sessions, most recently active first. */
  async listActive(userId: string): Promise<SessionRow[]> {
    const rows = await this.reads.read(userId, 'sessions', () =>
      this.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt))),
    );
    // Remembered rows age: expiry is decided now, not when they were read.
    const now = this.clock.now();
    return rows
      .filter((row) => row.expiresAt > now && !isIdleExpired(row, now))
      .sort((a, b) => +b.lastActivityAt - +a.lastActivityAt);
  }

  /** Ends one session of this user; false when it is not theirs or already ended. */
  async revoke(userId: string, sessionId: string, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor
      .update(sessions)
      .set({ revokedAt: this.clock.now() })
      .where(
        and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)),
      )
      .returning({ id: sessions.id });
    await this.announceRevoked(rows.map((row) => row.id));
    return rows.length > 0;
  }

  /** Ends every session of the user, or every one but `exceptSessionId`; answers how many. */
  async revokeAll(
    userId: string,
    options: { exceptSessionId?: string } = {},
    executor: Executor = this.db,
  ) {
    const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
    if (options.exceptSessionId) conditions.push(ne(sessions.id, options.exceptSessionId));
    const rows = await executor
      .update(sessions)
      .set({ revokedAt: this.clock.now() })
      .where(and(...conditions))
      .returning({ id: sessions.id });
    await this.announceRevoked(rows.map((row) => row.id));
    return rows.length;
  }
}

function limitsOf(row: SessionRow) {
  return row.rememberMe ? SESSION_LIMITS.rememberMe : SESSION_LIMITS.normal;
}

function isIdleExpired(row: SessionRow, now: Date): boolean {
  return now.getTime() - row.lastActivityAt.getTime() > limitsOf(row).idleMs;
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,100})$/.exec(header.trim());
  return match?.[1] ?? null;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: AuthenticatedSession | null;
  }
}

/**
 * preHandler for protected routes: 401 unless the bearer token names a live session, 403 when
 * that session was handed to a sibling site. A sibling's session may only do what the few routes
 * guarded by `requireSessionOfAnySite` do, so a new route is closed to siblings unless it says
 * otherwise (docs/decisions/0010-sibling-sites-and-their-sessions.md).
 */
export async function requireSession(request: FastifyRequest): Promise<void> {
  await requireSessionOfAnySite(request);
  if (request.session?.siblingOrigin) throw new AppError('forbidden', PORTAL_ONLY);
}

/**
 * preHandler for the routes a sibling site's session may use as well: reading the user, its own
 * sign-out, that sibling's services. 401 unless the bearer token names a live session.
 */
export async function requireSessionOfAnySite(request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  const session = token ? await request.server.deps.sessions.authenticate(token) : null;
  if (!session) throw unauthorized(TOKEN_INVALID);
  request.session = session;
}

/** The session of a request that passed requireSession. */
export function sessionOf(request: FastifyRequest): AuthenticatedSession {
  if (!request.session) throw unauthorized(TOKEN_INVALID);
  return request.session;
}

/**
 * Writes the 403 of `requireSession` into the answers of every route it guards (routes added
 * after this call), so that the OpenAPI document tells sibling sites which calls are not theirs.
 */
export function declarePortalOnlyAnswers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const guards = [route.onRequest, route.preHandler].flat();
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (!guards.includes(requireSession) || !response) return;
    response[403] ??= errorAnswerSchema.describe(PORTAL_ONLY);
  });
}
