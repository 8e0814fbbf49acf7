import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import { type MailOutboxStats, mailOutboxStats } from '../../adapters/mail.js';
import type { Database } from '../../db/database.js';
import { type PaymentStats, paymentStats } from '../payments/index.js';

/** A scrape storm reads the database at most once in this long. */
export const READINGS_TTL_MS = 5_000;
/** `select 1` answers within this, or the database counts as unreachable. */
export const PING_DEADLINE_MS = 1_000;
const QUERY_DEADLINE_MS = 2_000;

export interface DatabaseReadingsResult {
  isUp: boolean;
  /** Null when the database is down or the query failed: the metrics are then left out. */
  mail: MailOutboxStats | null;
  payments: PaymentStats | null;
}

export interface DatabaseReadingsDeps {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * What the metrics read from the database at scrape time: whether it answers, the mail backlog,
 * the payments. Each table is read through its owner's function (the outbox's in
 * adapters/mail.ts, the payments' in modules/payments), so no query of another module's table
 * lives here. Read at most once per READINGS_TTL_MS of the app clock (scrapes meanwhile get the
 * same answer, in flight or done), each step under a deadline, so neither a scrape storm nor a
 * frozen database makes a scrape load the database or hang.
 */
export class DatabaseReadings {
  private latest: { atMs: number; readings: Promise<DatabaseReadingsResult> } | undefined;

  constructor(private readonly deps: DatabaseReadingsDeps) {}

  read(): Promise<DatabaseReadingsResult> {
    const nowMs = this.deps.clock.now().getTime();
    const ageMs = nowMs - (this.latest?.atMs ?? Number.NEGATIVE_INFINITY);
    if (!this.latest || ageMs >= READINGS_TTL_MS || ageMs < 0) {
      this.latest = { atMs: nowMs, readings: this.readNow() };
    }
    return this.latest.readings;
  }

  private async readNow(): Promise<DatabaseReadingsResult> {
    const isUp = await withDeadline(this.deps.database.ping(), PING_DEADLINE_MS).then(
      () => true,
      () => false,
    );
    if (!isUp) return { isUp, mail: null, payments: null };
    const now = this.deps.clock.now();
    const [mail, payments] = await Promise.all([
      this.attempt('mail outbox', mailOutboxStats(this.deps.database.db, now)),
      this.attempt('payments', paymentStats(this.deps.database.db, now)),
    ]);
    return { isUp, mail, payments };
  }

  private async attempt<T>(what: string, query: Promise<T>): Promise<T | null> {
    try {
      return await withDeadline(query, QUERY_DEADLINE_MS);
    } catch (error) {
      this.deps.log.warn({ err: error }, `metrics: could not read ${what}`);
      return null;
    }
  }
}

/** `work`'s answer, or a rejection once `ms` have passed without one. */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  const timer = new AbortController();
  try {
    return await Promise.race([
      work,
      delay(ms, undefined, { signal: timer.signal }).then(() => {
        throw new Error(`no answer within ${ms} ms`);
      }),
    ]);
  } finally {
    timer.abort();
  }
}
