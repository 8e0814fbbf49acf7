import { Redis } from 'ioredis';

/** A command on a working Redis answers in well under a millisecond; this is "not answering". */
const COMMAND_DEADLINE_MS = 250;
/** While Redis is down it is reconnected and probed this often. */
const PROBE_EVERY_MS = 500;
/**
 * After Redis is back, how long before caches trust it again: longer than a probe interval, so
 * every other process has reconnected too and written the revocations it held back meanwhile.
 * Not at a start that found Redis answering at once: there was no outage to recover from.
 */
const SETTLE_MS = 1_500;

/** Client methods that send nothing to Redis (`asClient`). */
const LOCAL_METHODS = new Set<string | symbol>(['constructor', 'defineCommand']);

export interface RedisConnectionOptions {
  commandDeadlineMs?: number;
  probeEveryMs?: number;
  settleMs?: number;
  /** Told once per outage, with the error that began it, and once when Redis is back. */
  onDown?: (error: unknown) => void;
  onUp?: () => void;
}

/** Thrown at once, without asking Redis, while Redis counts as down. */
export class RedisDownError extends Error {
  constructor() {
    super('Redis is down');
  }
}

/**
 * The one Redis connection of a process (REDIS_URL): the per-address counters
 * (adapters/rate-limit.ts) and the marks of ended sessions (adapters/revocation-marks.ts).
 *
 * Redis helps; no request waits on it. Every command has a deadline of 250 ms. The first failure
 * (a deadline passed, the connection lost, any error) makes Redis count as down: `isUp()` is false
 * and `run` refuses at once, so callers fall back without paying the deadline again. Meanwhile
 * ioredis reconnects and a PING probes every 500 ms; when it answers, the `onReconnect` hooks run
 * (a process writes what it held back) and only then is Redis up again.
 */
export class RedisConnection {
  private readonly client: Redis;
  private readonly options: Required<Omit<RedisConnectionOptions, 'onDown' | 'onUp'>> &
    RedisConnectionOptions;
  private readonly reconnectHooks: ((client: Redis) => Promise<void>)[] = [];
  private isUpNow = false;
  /** What onDown/onUp last said, so each outage is told once (also one that began at start). */
  private told: 'up' | 'down' | null = null;
  private upSinceMs = 0;
  private outageCount = 0;
  private failureCount = 0;
  private probeTimer: NodeJS.Timeout | null = null;
  private isProbing = false;
  private isClosed = false;

  constructor(url: string, options: RedisConnectionOptions = {}) {
    this.options = {
      commandDeadlineMs: COMMAND_DEADLINE_MS,
      probeEveryMs: PROBE_EVERY_MS,
      settleMs: SETTLE_MS,
      ...options,
    };
    this.client = new Redis(url, {
      commandTimeout: this.options.commandDeadlineMs,
      connectTimeout: 1_000,
      // Fail at once while not connected instead of queueing: the caller has a fallback.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => this.options.probeEveryMs,
      // Commands of parallel requests share one write (one EXISTS per authenticated request).
      enableAutoPipelining: true,
    });
    // Reported once per outage through onDown instead.
    this.client.on('error', () => {});
    this.client.on('close', () => this.fail(new Error('connection to Redis closed')));
    this.client.on('ready', () => void this.probe());
    this.keepProbing();
  }

  /** Whether Redis answers now (for the caller that wants to report it, e.g. a metrics page). */
  isUp(): boolean {
    return this.isUpNow;
  }

  /**
   * The number of outages so far while Redis is up and has settled; null otherwise. Something
   * remembered under one number must not be trusted under another: it may have missed news.
   */
  trustedEpoch(): number | null {
    if (!this.isUpNow || Date.now() - this.upSinceMs < this.options.settleMs) return null;
    return this.outageCount;
  }

  /**
   * Runs `command` if Redis is up, else throws RedisDownError at once. Any failure: down.
   * `evenIfDown` tries anyway (still within the deadline), for the few writes that are worth a
   * wait: Redis may be back before a probe has noticed.
   */
  async run<T>(
    command: (client: Redis) => Promise<T>,
    options: { evenIfDown?: boolean } = {},
  ): Promise<T> {
    if (!this.isUpNow && !options.evenIfDown) throw new RedisDownError();
    try {
      return await command(this.client);
    } catch (error) {
      this.fail(error);
      throw error;
    }
  }

  /**
   * The connection as an ioredis client, for a library that is handed one (RateLimiterRedis in
   * adapters/rate-limit.ts): every command it sends goes through `run`, so the library is refused
   * at once while Redis is down (and falls back), and its failures make Redis count as down.
   * Defining a script command is local and passes straight through.
   */
  asClient(): Redis {
    return new Proxy(this.client, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== 'function' || LOCAL_METHODS.has(property)) return value;
        return (...args: unknown[]) => this.run((client) => value.apply(client, args));
      },
    });
  }

  /** `hook` runs every time Redis comes back, before it counts as up; a throwing hook keeps it down. */
  onReconnect(hook: (client: Redis) => Promise<void>): void {
    this.reconnectHooks.push(hook);
  }

  async close(): Promise<void> {
    this.isClosed = true;
    this.isUpNow = false;
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.client.disconnect();
  }

  private fail(error: unknown) {
    this.failureCount += 1;
    if (this.isClosed) return;
    if (this.isUpNow) {
      this.isUpNow = false;
      this.outageCount += 1;
    }
    if (this.told !== 'down') {
      this.told = 'down';
      this.options.onDown?.(error);
    }
    this.keepProbing();
  }

  private keepProbing() {
    if (this.probeTimer || this.isClosed) return;
    this.probeTimer = setInterval(() => void this.probe(), this.options.probeEveryMs);
    this.probeTimer.unref();
  }

  private async probe() {
    if (this.isUpNow || this.isProbing || this.isClosed || this.client.status !== 'ready') return;
    this.isProbing = true;
    const failuresBefore = this.failureCount;
    try {
      await this.client.ping();
      for (const hook of this.reconnectHooks) await hook(this.client);
      // A failure seen meanwhile (the connection closed again) wins.
      if (this.failureCount !== failuresBefore || this.isClosed) return;
      this.isUpNow = true;
      const isCleanStart = this.told === null && this.failureCount === 0;
      this.upSinceMs = isCleanStart ? Number.NEGATIVE_INFINITY : Date.now();
      if (this.probeTimer) clearInterval(this.probeTimer);
      this.probeTimer = null;
      if (this.told !== 'up') this.options.onUp?.();
      this.told = 'up';
    } catch {
      // Still down; the next probe tries again.
    } finally {
      this.isProbing = false;
    }
  }
}
