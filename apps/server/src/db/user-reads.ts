import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from './database.js';

/** Announced by the triggers of migration 0500 with the id of the account whose data changed. */
const CHANNEL = 'portal_user_changed';
/** `settled()` sends this prefix on the same channel; an account id is a UUID and never has it. */
const MARKER_PREFIX = 'settled:';
/** How many accounts one process remembers, and how many answers per account. */
const USER_LIMIT = 10_000;
const ENTRIES_PER_USER = 16;
const SETTLE_TIMEOUT_MS = 2_000;

type Entries = Map<string, unknown>;

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
  private live = false;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(private readonly database?: Database) {}

  async start(): Promise<void> {
    if (!this.database || this.stopListening) return;
    this.stopListening = await this.database.listen(CHANNEL, {
      onNotify: (payload) => this.onNotify(payload),
      onListening: () => {
        this.users.clear();
        this.live = true;
      },
      onLost: () => {
        this.live = false;
        this.users.clear();
        this.releaseMarkers();
      },
    });
  }

  async stop(): Promise<void> {
    this.live = false;
    this.users.clear();
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
    if (entries?.has(key)) return entries.get(key) as T;
    if (!entries) entries = this.track(userId);
    const value = await load();
    // A change announced during the load replaced (or dropped) this account's entries.
    if (this.live && this.users.get(userId) === entries) {
      if (entries.size >= ENTRIES_PER_USER) entries.delete(entries.keys().next().value as string);
      entries.set(key, value);
    }
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
    this.users.delete(payload);
  }

  private track(userId: string): Entries {
    if (this.users.size >= USER_LIMIT) {
      // Maps iterate in insertion order: forget the account remembered longest ago.
      this.users.delete(this.users.keys().next().value as string);
    }
    const entries: Entries = new Map();
    this.users.set(userId, entries);
    return entries;
  }

  private releaseMarkers() {
    for (const release of this.markers.values()) release();
    this.markers.clear();
  }
}
