import { afterAll, vi } from 'vitest';
import { ManualClock } from '../../src/adapters/clock.js';

/**
 * A ManualClock that moves `Date` as far as it moves, for tests that move the app's clock while a
 * rate limit counts in memory: the library's memory windows (adapters/rate-limit.ts) keep
 * `Date`'s time and take no clock, so "15 minutes later" must be 15 minutes later for them too.
 * Only `Date` is faked, and it keeps running with real time in between (timeouts measured by it
 * still end); it is given back after the file.
 */
export class DateMovingClock extends ManualClock {
  constructor(start?: Date) {
    super(start);
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    afterAll(() => {
      vi.useRealTimers();
    });
  }

  override advance(ms: number): void {
    super.advance(ms);
    vi.setSystemTime(Date.now() + ms);
  }

  override set(date: Date): void {
    const movedMs = date.getTime() - this.now().getTime();
    super.set(date);
    vi.setSystemTime(Date.now() + movedMs);
  }
}
