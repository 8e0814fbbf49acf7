import { Redis } from 'ioredis';

/**
 * Tells every server process that sessions ended, so that each process's session cache drops
 * them before its next request. In one process the store evicts directly and this bus is silent;
 * with REDIS_URL it is Redis pub/sub.
 */
export interface RevocationBus {
  publish(sessionIds: string[]): Promise<void>;
  /** `onRevoked` for every published batch; `onResync` after a gap in which some may be lost. */
  subscribe(onRevoked: (sessionIds: string[]) => void, onResync: () => void): void;
  /** False while a revocation from elsewhere could be missed: callers must not trust caches then. */
  isReliable(): boolean;
  close(): Promise<void>;
}

export class LocalRevocationBus implements RevocationBus {
  async publish() {}
  subscribe() {}
  isReliable() {
    return true;
  }
  async close() {}
}

const CHANNEL = 'portal:sessions:revoked';

export class RedisRevocationBus implements RevocationBus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly listeners: { onRevoked: (ids: string[]) => void; onResync: () => void }[] = [];
  private subscribed = false;

  constructor(url: string, onError: (error: Error) => void) {
    this.publisher = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: false });
    this.subscriber = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
    this.publisher.on('error', onError);
    this.subscriber.on('error', onError);
    // Lost connection: messages sent meanwhile are gone, so the cache is not trusted until the
    // subscription is back (and the store clears it then).
    this.subscriber.on('close', () => {
      this.subscribed = false;
    });
    this.subscriber.on('ready', () => {
      void this.subscriber.subscribe(CHANNEL).then(() => {
        this.subscribed = true;
        for (const listener of this.listeners) listener.onResync();
      }, onError);
    });
    this.subscriber.on('message', (_channel: string, message: string) => {
      const ids = parseIds(message);
      if (ids) for (const listener of this.listeners) listener.onRevoked(ids);
    });
  }

  async publish(sessionIds: string[]) {
    if (sessionIds.length > 0) await this.publisher.publish(CHANNEL, JSON.stringify(sessionIds));
  }

  subscribe(onRevoked: (ids: string[]) => void, onResync: () => void) {
    this.listeners.push({ onRevoked, onResync });
  }

  isReliable() {
    return this.subscribed;
  }

  async close() {
    this.subscribed = false;
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}

function parseIds(message: string): string[] | null {
  try {
    const value: unknown = JSON.parse(message);
    return Array.isArray(value) && value.every((id) => typeof id === 'string') ? value : null;
  } catch {
    return null;
  }
}
