import type { FastifyBaseLogger } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Clock } from '../../adapters/clock.js';
import type { Database } from '../../db/database.js';
import { LOGIN_OUTCOMES, type LoginOutcome } from '../auth/index.js';
import { DatabaseReadings, type DatabaseReadingsResult } from './database-readings.js';
import { FastHistogram } from './request-histogram.js';

export interface PortalMetricsDeps {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /**
   * Whether the Redis the portal uses answers. Left out when no Redis is configured: the
   * `portal_redis_up` series is then absent rather than a misleading 0 or 1.
   */
  redisUp?: () => boolean | Promise<boolean>;
}

/** Seconds; from a cached answer (~1 ms) to the slowest a request may take (argon2, providers). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | undefined;

/**
 * CPU, memory, event loop and GC are facts of the process, not of an app: collected once into a
 * registry of their own (their observers are never stopped, and tests build many apps in one
 * process) and shown by every app's scrape.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The portal's metrics for Prometheus, one registry per app (modules/metrics/README.md). Request
 * paths call the `count…`/`observe…` methods, which only add to memory; what the database knows
 * (letters, payments, its own reachability) is read when a scrape asks.
 */
export class PortalMetrics {
  private readonly registry = new Registry();
  private readonly httpDuration = new FastHistogram({
    name: 'portal_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code: latency (_count is the number of requests)',
    bounds: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly signIns = new Counter({
    name: 'portal_sign_ins_total',
    help: 'Sign-ins by password, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly accountLocks = new Counter({
    name: 'portal_account_locks_total',
    help: 'Waits started on an account after too many checks of its secrets',
    registers: [this.registry],
  });
  private readonly sessionCache = new Counter({
    name: 'portal_session_cache_lookups_total',
    help: 'Session checks answered from the process cache (hit) or the database (miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  private readonly reconciledPayments = new Counter({
    name: 'portal_reconciliation_payments_total',
    help: 'Payments seen by reconciliation: checked, and of them changed or failed; abandoned: top-ups closed because nobody can pay them any more',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  private readonly reconciliationRuns = new Counter({
    name: 'portal_reconciliation_runs_total',
    help: 'Reconciliation runs: done, or error when a run stopped on a failure',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly contentType = this.registry.contentType;

  constructor(deps: PortalMetricsDeps) {
    for (const outcome of LOGIN_OUTCOMES) this.signIns.inc({ outcome }, 0);
    for (const result of ['hit', 'miss']) this.sessionCache.inc({ result }, 0);
    for (const result of ['done', 'error']) this.reconciliationRuns.inc({ result }, 0);
    for (const result of ['checked', 'changed', 'failed', 'abandoned']) {
      this.reconciledPayments.inc({ result }, 0);
    }
    this.accountLocks.inc(0);
    this.registerDatabaseReadings(new DatabaseReadings(deps));
    if (deps.redisUp) this.registerRedisUp(deps.redisUp);
  }

  /** One answered request; `route` is the route's pattern, never the raw URL. */
  /**
   * Each label set's series, found once. Bounded: route patterns × the methods Node parses ×
   * status codes.
   */
  private readonly requestSeries = new Map<string, { observe(seconds: number): void }>();

  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    const key = `${method} ${statusCode} ${route}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      series = this.httpDuration.series({ method, route, status_code: statusCode });
      this.requestSeries.set(key, series);
    }
    series.observe(seconds);
  }

  countSignIn = (outcome: LoginOutcome): void => {
    this.signIns.inc({ outcome });
  };

  countAccountLock = (): void => {
    this.accountLocks.inc();
  };

  countSessionLookup = (isHit: boolean): void => {
    this.sessionCache.inc({ result: isHit ? 'hit' : 'miss' });
  };

  /** Runs one reconciliation and counts what it reports (every count it answers), or its failure. */
  async countReconciliation<T extends Record<string, number>>(run: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await run();
    } catch (error) {
      this.reconciliationRuns.inc({ result: 'error' });
      throw error;
    }
    this.reconciliationRuns.inc({ result: 'done' });
    for (const [name, value] of Object.entries(result)) {
      this.reconciledPayments.inc({ result: name }, value);
    }
    return result;
  }

  /** The text exposition: the process's metrics, then this app's. */
  async exposition(): Promise<string> {
    return (await processMetrics().metrics()) + (await this.registry.metrics());
  }

  private registerDatabaseReadings(readings: DatabaseReadings) {
    const registers = [this.registry];
    // Left out of a scrape when the database could not tell it, rather than shown as 0.
    const readingGauge = (
      name: string,
      help: string,
      pick: (result: DatabaseReadingsResult) => number | undefined,
    ) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const value = pick(await readings.read());
          if (value === undefined) this.remove();
          else this.set(value);
        },
      });
    readingGauge(
      'portal_database_up',
      'Whether the database answered a select 1 within 1 s (read at most every 5 s)',
      (result) => (result.isUp ? 1 : 0),
    );
    readingGauge(
      'portal_mail_letters_pending',
      'Letters not delivered yet',
      (result) => result.mail?.pending,
    );
    readingGauge(
      'portal_mail_letters_failed',
      'Letters given up on, among the kept ones',
      (result) => result.mail?.failed,
    );
    readingGauge(
      'portal_mail_letters_expired',
      'Code letters not sent because their code expired first, among the kept ones',
      (result) => result.mail?.expired,
    );
    readingGauge(
      'portal_mail_oldest_pending_age_seconds',
      'How long the oldest undelivered letter has waited (0: none waits)',
      (result) => result.mail?.oldestPendingAgeSeconds,
    );
    readingGauge(
      'portal_payments_oldest_unsettled_age_seconds',
      'How long the oldest payment neither paid nor finished has waited (0: none)',
      (result) => result.payments?.oldestUnsettledAgeSeconds,
    );
    new Gauge({
      name: 'portal_payments',
      help: 'Payments by status',
      labelNames: ['status'] as const,
      registers,
      async collect() {
        const payments = (await readings.read()).payments;
        this.reset();
        for (const [status, count] of Object.entries(payments?.byStatus ?? {})) {
          this.set({ status }, count);
        }
      },
    });
  }

  private registerRedisUp(redisUp: () => boolean | Promise<boolean>) {
    new Gauge({
      name: 'portal_redis_up',
      help: 'Whether Redis answers (present only when REDIS_URL is set)',
      registers: [this.registry],
      async collect() {
        this.set((await redisUp()) ? 1 : 0);
      },
    });
  }
}
