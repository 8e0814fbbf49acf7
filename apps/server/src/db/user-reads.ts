import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from './database.js';

/** Announced by the triggers of migration 0500 with the id of the account whose data changed. */
const CHANNEL = 'portal_user_changed';
/** `settled()` sends this prefix on the same channel; an account id is a UUID and never has it. */
const MARKER_PREFIX = 'settled:';
/**
 * Answers remembered per account: six kinds (the user, its sessions, its site sign-ins, its
 * services, the provider's account, a staff member's name) and a few history pages besides.
 */
export const ENTRIES_PER_USER = 10;

/**
 * How much one process remembers (ACCOUNT_CACHE_ACCOUNTS, ACCOUNT_CACHE_MB): accounts, and answers
 * in all by the length of their JSON (in memory an answer takes about three times that). Beyond a
 * limit the account read longest ago is forgotten first. No accounts: nothing is remembered.
 */
export interface ReadCacheLimits {
  accounts: number;
  bytes: number;
}
export const DEFAULT_READ_CACHE_LIMITS: ReadCacheLimits = {
  accounts: 5_000,
  bytes: 32 * 1024 * 1024,
};
const SETTLE_TIMEOUT_MS = 2_000;

type Entries = Map<string, { value: unknown; size: number }>;

/**
 * What each account reads most (its user answer, devices, services, history pages), remembered
 * by this process until the database announces that the account's data changed (decision 0008).
 *
 * Announcements come from triggers over PostgreSQL's NOTIFY, after the change commits, to every
 * process. A read that was loading while an announcement arrived is answered but not remembered.
 * While the subscription is down (database restart) nothing is remembered or answered from
 * memory, and what was remembered is dropped when it is back: announcements meanwhile are lost.
 *
 * Until `start()` (and in code that never starts it, like scripts) it only passes reads through.
 */
export class UserReadCache {
  private readonly users = new Map<string, Entries>();
  private readonly markers = new Map<string, () => void>();
  private rememberedSize = 0;
  private live = false;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly database?: Database,
    private readonly limits: ReadCacheLimits = DEFAULT_READ_CACHE_LIMITS,
  ) {}

  async start(): Promise<void> {
    if (!this.database || this.stopListening || this.limits.accounts === 0) return;
    this.stopListening = await this.database.listen(CHANNEL, {
      onNotify: (payload) => this.onNotify(payload),
      onListening: () => {
        this.forgetAll();
        this.live = true;
      },
      onLost: () => {
        this.live = false;
        this.forgetAll();
        this.releaseMarkers();
      },
    });
  }

  async stop(): Promise<void> {
    this.live = false;
    this.forgetAll();
    this.releaseMarkers();
    await this.stopListening?.();
  }

  /**
   * The remembered answer for `key` of this account, or `load()`'s (remembered unless the account
   * changed meanwhile). Answers are shared between requests: callers must not modify them.
   */
  async read<T>(userId: string, key: string, load: () => Promise<T>): Promise<T> {
    if (!this.live) return load();
    let entries = this.users.get(userId);
    if (entries) {
      // Maps iterate in insertion order: moved to the end, the account is the last to forget.
      this.users.delete(userId);
      this.users.set(userId, entries);
      const remembered = entries.get(key);
      if (remembered) return remembered.value as T;
    } else entries = this.track(userId);
    const value = await load();
    // A change announced during the load replaced (or dropped) this account's entries.
    if (this.live && this.users.get(userId) === entries) this.remember(entries, key, value);
    return value;
  }

  /**
   * Resolves once every change committed before the call has reached this process. Requests over
   * a network arrive after that anyway; tests that write and read back in one process wait here.
   */
  async settled(): Promise<void> {
    if (!this.live || !this.database) return;
    const marker = `${MARKER_PREFIX}${randomUUID()}`;
    const arrived = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SETTLE_TIMEOUT_MS);
      this.markers.set(marker, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await this.database.db.execute(sql`SELECT pg_notify(${CHANNEL}, ${marker})`);
    await arrived;
    this.markers.delete(marker);
  }

  private onNotify(payload: string) {
    if (payload.startsWith(MARKER_PREFIX)) {
      this.markers.get(payload)?.();
      return;
    }
    this.forgetUser(payload);
  }

  private track(userId: string): Entries {
    if (this.users.size >= this.limits.accounts) this.forgetOldestUser();
    const entries: Entries = new Map();
    this.users.set(userId, entries);
    return entries;
  }

  private remember(entries: Entries, key: string, value: unknown) {
    if (entries.size >= ENTRIES_PER_USER) {
      const oldest = entries.keys().next().value as string;
      this.rememberedSize -= entries.get(oldest)!.size;
      entries.delete(oldest);
    }
    const size = JSON.stringify(value)?.length ?? 0;
    entries.set(key, { value: deepFreeze(value), size });
    this.rememberedSize += size;
    while (this.rememberedSize > this.limits.bytes) this.forgetOldestUser();
  }

  /** Maps iterate in insertion order: the first account is the one read longest ago. */
  private forgetOldestUser() {
    const oldest = this.users.keys().next().value;
    if (oldest !== undefined) this.forgetUser(oldest);
  }

  private forgetUser(userId: string) {
    const entries = this.users.get(userId);
    if (!entries) return;
    for (const entry of entries.values()) this.rememberedSize -= entry.size;
    this.users.delete(userId);
  }

  private forgetAll() {
    this.users.clear();
    this.rememberedSize = 0;
  }

  private releaseMarkers() {
    for (const release of this.markers.values()) release();
    this.markers.clear();
  }
}

/**
 * Freezes a remembered answer's plain objects and arrays (in place): it is shared between
 * requests, so a caller that changed it would change everyone's; frozen, such a change throws.
 * It also lets the answer serializer (http/answer-serializer.ts) write it once.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return value;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
  return value;
}
