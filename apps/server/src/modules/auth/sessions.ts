import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import type { Db, Executor } from '../../db/database.js';
import { unauthorized } from '../../http/app-error.js';
import { type SessionRow, sessions } from './schema.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** How long a session lives: idle limit since the last request, absolute limit since sign-in. */
export const SESSION_LIMITS = {
  normal: { idleMs: 1 * DAY, absoluteMs: 7 * DAY },
  rememberMe: { idleMs: 30 * DAY, absoluteMs: 90 * DAY },
  /** Last activity is written at most this often, not on every request. */
  touchEveryMs: MINUTE,
} as const;

export interface AuthenticatedSession {
  id: string;
  userId: string;
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

/**
 * Sessions are the access tokens (DESIGN §3). Every check and every revocation goes through this
 * store, so a cache with cross-process revocation can live here without touching the callers.
 */
export type SessionCreatedListener = (session: SessionRow) => void;

export class SessionStore {
  private readonly createdListeners: SessionCreatedListener[] = [];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

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
    const now = this.clock.now();
    const [row] = await this.db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.tokenHash, hashToken(token)),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
        ),
      )
      .limit(1);
    if (!row || isIdleExpired(row, now)) return null;
    if (now.getTime() - row.lastActivityAt.getTime() >= SESSION_LIMITS.touchEveryMs) {
      await this.db.update(sessions).set({ lastActivityAt: now }).where(eq(sessions.id, row.id));
    }
    return { id: row.id, userId: row.userId };
  }

  async listActive(userId: string): Promise<SessionRow[]> {
    const now = this.clock.now();
    const rows = await this.db
      .select()
      .from(sessions)
      .where(
        and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)),
      );
    return rows
      .filter((row) => !isIdleExpired(row, now))
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
    return rows.length;
  }
}

function isIdleExpired(row: SessionRow, now: Date): boolean {
  const limits = row.rememberMe ? SESSION_LIMITS.rememberMe : SESSION_LIMITS.normal;
  return now.getTime() - row.lastActivityAt.getTime() > limits.idleMs;
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

/** preHandler for protected routes: 401 unless the bearer token names a live session. */
export async function requireSession(request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  const session = token ? await request.server.deps.sessions.authenticate(token) : null;
  if (!session) throw unauthorized('Недействительный токен');
  request.session = session;
}

/** The session of a request that passed requireSession. */
export function sessionOf(request: FastifyRequest): AuthenticatedSession {
  if (!request.session) throw unauthorized('Недействительный токен');
  return request.session;
}
