import type { RedisConnection } from './redis.js';

/** An ended session, and how long a mark of it is worth keeping (its remaining life). */
export interface EndedSession {
  id: string;
  keepMs: number;
}

/** 'unknown': the marks cannot be read now; the database decides. */
export type MarkState = 'marked' | 'unmarked' | 'unknown';

/**
 * Marks of ended sessions, which every process reads before it answers from its session cache
 * (modules/auth/sessions.ts). A mark is written before the answer that ended the session is sent,
 * so no process accepts that session afterwards, whatever order it learns things in.
 */
export interface RevocationMarks {
  /** Marks the sessions. Never throws: what cannot be written now is held back and written later. */
  mark(sessions: EndedSession[]): Promise<void>;
  /** A promise only when the answer must be fetched (Redis); the local marks answer at once. */
  check(sessionId: string): MarkState | Promise<MarkState>;
  /**
   * Null while the marks cannot be trusted to be complete (Redis down or just back): no cache
   * then. Otherwise a number that changes after every outage: an entry cached under an earlier
   * number may have missed a mark and is not trusted.
   */
  trustedEpoch(): number | null;
}

const TOMBSTONE_MS = 10 * 60_000;

/**
 * One process (no REDIS_URL): every revocation happens here, so a mark only has to outlive a
 * request that read the row before the revocation committed and caches it after.
 */
export class LocalRevocationMarks implements RevocationMarks {
  private readonly tombstones = new Map<string, number>();

  async mark(sessions: EndedSession[]) {
    const nowMs = Date.now();
    // Maps iterate in insertion order: the oldest first.
    for (const [id, markedAt] of this.tombstones) {
      if (nowMs - markedAt < TOMBSTONE_MS) break;
      this.tombstones.delete(id);
    }
    for (const { id } of sessions) {
      this.tombstones.delete(id);
      this.tombstones.set(id, nowMs);
    }
  }

  check(sessionId: string): MarkState {
    return this.tombstones.has(sessionId) ? 'marked' : 'unmarked';
  }

  trustedEpoch() {
    return 0;
  }
}

/** Held-back marks kept while Redis is away; past this the oldest go (the database still holds). */
const HELD_BACK_LIMIT = 100_000;
const MINUTE = 60_000;

/**
 * Every process (REDIS_URL): a mark is the key `portal:revoked:<session id>`, kept for the rest of
 * the session's life. Reading one is one EXISTS. While Redis is down `check` answers 'unknown' at
 * once; a mark is still tried (a revocation may wait up to one command deadline for it), and one
 * that cannot be written is held back in this process and written when Redis is back, before this
 * process counts it as up again.
 */
export class RedisRevocationMarks implements RevocationMarks {
  private readonly heldBack = new Map<string, number>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix = 'portal:revoked:',
  ) {
    redis.onReconnect(async (client) => {
      if (this.heldBack.size === 0) return;
      const nowMs = Date.now();
      const writing = [...this.heldBack];
      await Promise.all(
        writing.map(([id, keepUntilMs]) =>
          client.set(this.prefix + id, '1', 'PX', Math.max(MINUTE, keepUntilMs - nowMs)),
        ),
      );
      // Marks held back while these were written wait for their turn.
      for (const [id] of writing) this.heldBack.delete(id);
    });
  }

  async mark(sessions: EndedSession[]) {
    if (sessions.length === 0) return;
    try {
      // Tried even while Redis counts as down: another process may be reading marks already.
      await this.redis.run(
        (client) =>
          Promise.all(
            sessions.map(({ id, keepMs }) =>
              client.set(this.prefix + id, '1', 'PX', Math.max(MINUTE, Math.ceil(keepMs))),
            ),
          ),
        { evenIfDown: true },
      );
    } catch {
      const nowMs = Date.now();
      for (const { id, keepMs } of sessions) this.heldBack.set(id, nowMs + keepMs);
      for (const id of this.heldBack.keys()) {
        if (this.heldBack.size <= HELD_BACK_LIMIT) break;
        this.heldBack.delete(id);
      }
    }
  }

  async check(sessionId: string): Promise<MarkState> {
    if (!this.redis.isUp()) return 'unknown';
    try {
      const found = await this.redis.run((client) => client.exists(this.prefix + sessionId));
      return found > 0 ? 'marked' : 'unmarked';
    } catch {
      return 'unknown';
    }
  }

  trustedEpoch() {
    return this.redis.trustedEpoch();
  }
}
