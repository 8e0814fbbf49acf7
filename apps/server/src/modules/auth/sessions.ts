import { hash, randomBytes } from 'node:crypto';
import { errorAnswerSchema } from '@portal/contracts/common';
import { ACCOUNT_BLOCKED, PORTAL_ONLY, TOKEN_INVALID } from '@portal/contracts/messages';
import type { Amr, SignInMethod } from '@portal/contracts/security-log';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../adapters/clock.js';
import { LocalRevocationMarks, type RevocationMarks } from '../../adapters/revocation-marks.js';
import { afterCommit } from '../../db/after-commit.js';
import type { Db, Executor } from '../../db/database.js';
import { preparedPerDb } from '../../db/prepared.js';
import { UserReadCache } from '../../db/user-reads.js';
import { AppError, unauthorized } from '../../http/app-error.js';
import { isUserBlockedForSignIn } from '../accounts/index.js';
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
  /** When it signed in, and from which browser (the site's sign-in through the provider). */
  createdAt: Date;
  userAgent: string;
  /**
   * How it signed in (the site's `amr`); null for a sibling's session, and for a session whose
   * sign-in the fill of migrations/0815_session_sign_in.sql did not find.
   */
  signIn: SessionSignIn | null;
}

/** The way in and how it proved the person (RFC 8176), as the sign-in policy decided them. */
export interface SessionSignIn {
  method: SignInMethod;
  amr: Amr[];
}

/** A sign-in of a blocked account (`npm run admin -- block`): 403 naming the support contact. */
export class AccountBlocked extends AppError {
  constructor(supportUrl: string) {
    super('forbidden', supportUrl ? `${ACCOUNT_BLOCKED}: ${supportUrl}` : ACCOUNT_BLOCKED, {
      reason: 'account_blocked',
    });
  }
}

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  // The one-shot hash: a third of the cost of a Hash object, on every authenticated request.
  return hash('sha256', token, 'hex');
}

export interface NewSession {
  userId: string;
  userAgent?: string;
  ipAddress?: string;
  rememberMe?: boolean;
  clientOrigin?: string | null;
  /** Given by the sign-in policy (sign-in-policy.ts); a hand-off has none. */
  signIn?: SessionSignIn;
}

export type SessionCreatedListener = (session: SessionRow) => void;
/**
 * Runs inside every sign-in's transaction, once its session is created (`SignInPolicy.onSignIn`,
 * sign-in-policy.ts); it may write there, and a throw refuses the sign-in (modules/account-data:
 * a sign-in cancels a deletion, and an erased account cannot sign in).
 */
export type SignInHook = (
  signIn: { userId: string; userAgent: string; ipAddress: string },
  executor: Executor,
) => Promise<void>;
/**
 * Runs inside the transaction of every end of portal sessions (`SessionStore.revoke` and
 * `revokeAll`: a sign-out, the devices list, «Это был не я», a reset, a block, a deletion), with
 * the sessions it ended; it may write there, and a throw rolls the ending back
 * (modules/oidc: the sites signed in through those sessions are signed out with them).
 */
export type SessionsRevokedHook = (
  ended: { userId: string; sessionIds: string[] },
  executor: Executor,
) => Promise<void>;
/** `isHit`: the check was answered from this process's cache, without the database. */
export type CacheLookupListener = (isHit: boolean) => void;

/** What a request is told of its session, with what this process needs to keep trusting it. */
interface CachedSession extends AuthenticatedSession {
  expiresAtMs: number;
  idleMs: number;
  lastActivityMs: number;
  /** The marks' epoch it was cached under (revocation-marks.ts `trustedEpoch`). */
  epoch: number;
}

/** How many live sessions one process remembers by default (SESSION_CACHE_SIZE). */
export const DEFAULT_SESSION_CACHE_SIZE = 50_000;

export interface SessionStoreDeps {
  db: Db;
  clock: Clock;
  /** Revocations the other processes must hear of (Redis); by default this process's alone. */
  marks?: RevocationMarks;
  /** The per-process memory of each account's reads, dropped when the account changes. */
  reads?: UserReadCache;
  /** Beyond it the session checked longest ago is forgotten; 0: every check reads the database. */
  cacheSize?: number;
  /** Where a blocked account is sent (SUPPORT_URL), in the refusal of its sign-in. */
  supportUrl?: string;
}

/**
 * Sessions are the access tokens (docs/decisions/0002-sessions-are-opaque-tokens.md). Every check
 * and every revocation goes through this store.
 *
 * A check is answered from this process's cache only when the revocation marks
 * (adapters/revocation-marks.ts) say the session was not ended: one EXISTS in Redis with
 * REDIS_URL. A revocation writes the sessions' marks once it has committed and before its
 * transaction's promise resolves (db/after-commit.ts: its own transaction, or the caller's), so
 * once its answer is out every process refuses the session, in whatever order the requests
 * arrive; a revocation that rolls back marks nothing. A mark sends the check to the database,
 * which decides. While the marks cannot be trusted (Redis down, or just back) nothing is
 * answered from the cache: every check reads the database.
 *
 * The last-activity write, at most once a minute per session, also confirms that the row was not
 * revoked: even a process cut off from the others' marks notices a revocation within a minute.
 */
export class SessionStore {
  private readonly createdListeners: SessionCreatedListener[] = [];
  private readonly cacheLookupListeners: CacheLookupListener[] = [];
  private readonly revokedHooks: SessionsRevokedHook[] = [];
  /**
   * Live sessions by token hash; beyond `cacheSize` the one checked longest ago is forgotten.
   * lru-cache keeps that order in arrays: a hit costs a fraction of a Map's delete and set.
   */
  private readonly cache: LRUCache<string, CachedSession> | null;

  private readonly marks: RevocationMarks;
  private readonly reads: UserReadCache;

  constructor(private readonly deps: SessionStoreDeps) {
    this.marks = deps.marks ?? new LocalRevocationMarks();
    this.reads = deps.reads ?? new UserReadCache();
    const cacheSize = deps.cacheSize ?? DEFAULT_SESSION_CACHE_SIZE;
    this.cache = cacheSize > 0 ? new LRUCache({ max: cacheSize }) : null;
  }

  /**
   * Creates a session and answers its bearer token, which is never stored. Only the sign-in
   * policy calls it (sign-in-policy.ts; `src/architecture.test.ts` holds every other file to it).
   *
   * Every sign-in ends here (password, the registration's confirmation, Yandex ID, a hand-off to
   * a sibling site, passkeys), so this is the one place a blocked account is refused
   * (`AccountBlocked`, 403 with the support contact). It is checked after the secrets, so the
   * refusal tells only the owner that the account is blocked. The row is read under a key-share lock
   * in the same transaction as the insert: a block running at the same time either waits for
   * this session and then ends it, or is seen here.
   */
  async create(
    input: NewSession,
    executor: Executor = this.deps.db,
  ): Promise<{ token: string; session: SessionRow }> {
    if (executor === this.deps.db) return this.deps.db.transaction((tx) => this.create(input, tx));
    if (await isUserBlockedForSignIn(executor, input.userId)) {
      throw new AccountBlocked(this.deps.supportUrl ?? '');
    }
    const token = generateToken();
    const now = this.deps.clock.now();
    const limits = input.rememberMe ? SESSION_LIMITS.rememberMe : SESSION_LIMITS.normal;
    const userAgent = (input.userAgent ?? '').slice(0, 512);
    const ipAddress = input.ipAddress ?? '';
    const [row] = await executor
      .insert(sessions)
      .values({
        userId: input.userId,
        tokenHash: hashToken(token),
        userAgent,
        ipAddress,
        clientOrigin: input.clientOrigin ?? null,
        rememberMe: input.rememberMe ?? false,
        signInMethod: input.signIn?.method ?? null,
        amr: input.signIn?.amr ?? null,
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

  /** Runs `hook` in the transaction of every end of sessions, with the sessions it ended. */
  onRevoked(hook: SessionsRevokedHook): void {
    this.revokedHooks.push(hook);
  }

  /** Tells `listener` how each check was answered (the metrics count the cache's hit rate). */
  onCacheLookup(listener: CacheLookupListener): void {
    this.cacheLookupListeners.push(listener);
  }

  /** The live session behind a token, or null when unknown, expired or revoked. */
  async authenticate(token: string): Promise<AuthenticatedSession | null> {
    const tokenHash = hashToken(token);
    const nowMs = this.deps.clock.now().getTime();
    const cached = this.cache?.get(tokenHash);
    if (cached) {
      const isLive =
        cached.epoch === this.marks.trustedEpoch() &&
        cached.expiresAtMs > nowMs &&
        nowMs - cached.lastActivityMs <= cached.idleMs;
      // Awaited only when it is a promise (Redis): the local marks answer at once, and every
      // await is a turn of the event loop's queue on the hottest path.
      const mark = isLive ? this.marks.check(cached.id) : 'unknown';
      if ((typeof mark === 'string' ? mark : await mark) === 'unmarked') {
        if (isTouchDue(cached, nowMs) && !(await this.touch(cached, nowMs))) return null;
        for (const listener of this.cacheLookupListeners) listener(true);
        return authenticated(cached);
      }
      // Marked, expired, or cached before news may have been missed: the database decides.
      this.cache?.delete(tokenHash);
    }

    for (const listener of this.cacheLookupListeners) listener(false);
    const epoch = this.marks.trustedEpoch();
    const now = new Date(nowMs);
    const [row] = await statements(this.deps.db).byToken.execute({ tokenHash, now });
    if (!row || !isLiveAt(row, now)) return null;
    const entry: CachedSession = {
      id: row.id,
      userId: row.userId,
      siblingOrigin: row.clientOrigin,
      createdAt: row.createdAt,
      userAgent: row.userAgent,
      signIn: row.signInMethod && row.amr ? { method: row.signInMethod, amr: row.amr } : null,
      expiresAtMs: row.expiresAt.getTime(),
      idleMs: limitsOf(row).idleMs,
      lastActivityMs: row.lastActivityAt.getTime(),
      epoch: epoch ?? -1,
    };
    if (isTouchDue(entry, nowMs) && !(await this.touch(entry, nowMs))) return null;
    // Only under marks trusted before the read and still after it: none was missed in between.
    if (epoch !== null && epoch === this.marks.trustedEpoch()) this.remember(tokenHash, entry);
    return authenticated(entry);
  }

  /**
   * Last activity is written at most once a minute, not on every request; the write finds no row
   * (false) when the session has been revoked meanwhile.
   */
  private async touch(entry: CachedSession, nowMs: number): Promise<boolean> {
    entry.lastActivityMs = nowMs;
    const touched = await this.deps.db
      .update(sessions)
      .set({ lastActivityAt: new Date(nowMs) })
      .where(and(eq(sessions.id, entry.id), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    if (touched.length > 0) return true;
    this.forget(new Set([entry.id]));
    return false;
  }

  private remember(tokenHash: string, entry: CachedSession) {
    this.cache?.set(tokenHash, entry);
  }

  /** Drops these sessions from this process's cache. */
  private forget(sessionIds: Set<string>) {
    if (!this.cache) return;
    const ended: string[] = [];
    for (const [tokenHash, cached] of this.cache.entries()) {
      if (sessionIds.has(cached.id)) ended.push(tokenHash);
    }
    for (const tokenHash of ended) this.cache.delete(tokenHash);
  }

  /**
   * Marks the ended sessions for every process before the caller answers, and drops them from
   * this process's cache; run once the revocation committed (`afterCommit`). Never throws: the
   * revocation is in the database already and must not answer 500 because Redis is away (marks
   * held back then are written when it returns).
   */
  private async announceRevoked(rows: { id: string; expiresAt: Date }[]) {
    if (rows.length === 0) return;
    const nowMs = this.deps.clock.now().getTime();
    await this.marks.mark(
      rows.map((row) => ({ id: row.id, keepMs: row.expiresAt.getTime() - nowMs })),
    );
    this.forget(new Set(rows.map((row) => row.id)));
  }

  /**
   * When the live session last proved its owner (a password or a code), or null. Always read
   * from the database, never from this process's cache: a proof given through another process
   * counts at once, and so does a revocation the cache has not heard of yet.
   */
  async provenAt(sessionId: string): Promise<Date | null> {
    const [row] = await this.deps.db
      .select({ provenAt: sessions.provenAt })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    return row?.provenAt ?? null;
  }

  /** Records that the session has just proved its owner. */
  async markProven(sessionId: string, executor: Executor = this.deps.db): Promise<Date> {
    const now = this.deps.clock.now();
    await executor.update(sessions).set({ provenAt: now }).where(eq(sessions.id, sessionId));
    return now;
  }

  /** The user's live sessions, most recently active first. */
  async listActive(userId: string): Promise<SessionRow[]> {
    const rows = await this.reads.read(userId, 'sessions', () =>
      this.deps.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt))),
    );
    // Remembered rows age: expiry is decided now, not when they were read.
    const now = this.deps.clock.now();
    return rows
      .filter((row) => isLiveAt(row, now))
      .sort((a, b) => +b.lastActivityAt - +a.lastActivityAt);
  }

  /**
   * Whether this session of the user is live now, by the rule of `listActive`, reading its one
   * row (a single sign-on through the OpenID provider asks it of the session it came from).
   */
  async isLive(userId: string, sessionId: string): Promise<boolean> {
    const [row] = await this.deps.db
      .select()
      .from(sessions)
      .where(
        and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)),
      )
      .limit(1);
    return row !== undefined && isLiveAt(row, this.deps.clock.now());
  }

  /**
   * Ends one session of this user; false when it is not theirs or already ended. Given the
   * caller's transaction, the sessions' marks are written once that one commits.
   */
  async revoke(
    userId: string,
    sessionId: string,
    executor: Executor = this.deps.db,
  ): Promise<boolean> {
    if (executor === this.deps.db && this.revokedHooks.length > 0) {
      return this.deps.db.transaction((tx) => this.revoke(userId, sessionId, tx));
    }
    const rows = await executor
      .update(sessions)
      .set({ revokedAt: this.deps.clock.now() })
      .where(
        and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)),
      )
      .returning({ id: sessions.id, expiresAt: sessions.expiresAt });
    await this.runRevokedHooks(userId, rows, executor);
    await afterCommit(executor, () => this.announceRevoked(rows));
    return rows.length > 0;
  }

  /**
   * Ends every session of the user, or every one but `exceptSessionId`; answers how many. Given
   * the caller's transaction, the sessions' marks are written once that one commits.
   */
  async revokeAll(
    userId: string,
    options: { exceptSessionId?: string } = {},
    executor: Executor = this.deps.db,
  ): Promise<number> {
    if (executor === this.deps.db && this.revokedHooks.length > 0) {
      return this.deps.db.transaction((tx) => this.revokeAll(userId, options, tx));
    }
    const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
    if (options.exceptSessionId) conditions.push(ne(sessions.id, options.exceptSessionId));
    const rows = await executor
      .update(sessions)
      .set({ revokedAt: this.deps.clock.now() })
      .where(and(...conditions))
      .returning({ id: sessions.id, expiresAt: sessions.expiresAt });
    await this.runRevokedHooks(userId, rows, executor);
    await afterCommit(executor, () => this.announceRevoked(rows));
    return rows.length;
  }

  private async runRevokedHooks(userId: string, rows: { id: string }[], executor: Executor) {
    if (rows.length === 0) return;
    const ended = { userId, sessionIds: rows.map((row) => row.id) };
    for (const hook of this.revokedHooks) await hook(ended, executor);
  }
}

const statements = preparedPerDb((db) => ({
  /** The check of a token the cache does not answer. */
  byToken: db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('sessions_by_token'),
}));

/** The entry without what only this process's trust in it needs. */
function authenticated(entry: CachedSession): AuthenticatedSession {
  const { expiresAtMs, idleMs, lastActivityMs, epoch, ...session } = entry;
  return session;
}

/** Last activity is written at most once a minute (SESSION_LIMITS.touchEveryMs). */
function isTouchDue(entry: CachedSession, nowMs: number): boolean {
  return nowMs - entry.lastActivityMs >= SESSION_LIMITS.touchEveryMs;
}

function limitsOf(row: SessionRow) {
  return row.rememberMe ? SESSION_LIMITS.rememberMe : SESSION_LIMITS.normal;
}

function isIdleExpired(row: SessionRow, now: Date): boolean {
  return now.getTime() - row.lastActivityAt.getTime() > limitsOf(row).idleMs;
}

/** The one rule of a live session: not revoked, not past its absolute limit, not idle too long. */
function isLiveAt(row: SessionRow, now: Date): boolean {
  return row.revokedAt === null && row.expiresAt > now && !isIdleExpired(row, now);
}

/**
 * The session row by its id, live or not, or undefined. For listeners of `SessionStore.onCreated`
 * that read the session once its transaction commits (modules/telegram/sign-in-notices.ts).
 */
export async function findSessionById(
  executor: Executor,
  sessionId: string,
): Promise<SessionRow | undefined> {
  const [session] = await executor
    .select()
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return session;
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
