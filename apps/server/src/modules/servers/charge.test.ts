import { describe, expect, it } from 'vitest';
import { splitCharge } from './charge.js';

describe('splitCharge: points first, then roubles, 5% cashback on the rouble part', () => {
  it('accrues 50 points on a 1000 ₽ purchase paid in roubles', () => {
    expect(splitCharge(100_000, 0, false)).toEqual({
      totalKopecks: 100_000,
      points: 0,
      kopecks: 100_000,
      cashbackPoints: 50,
    });
  });

  it('floors the cashback to whole points', () => {
    // 1790 ₽ × 5% = 89.5 points → 89
    expect(splitCharge(179_000, 0, false).cashbackPoints).toBe(89);
    expect(splitCharge(1_999, 0, false).cashbackPoints).toBe(0);
    expect(splitCharge(2_000, 0, false).cashbackPoints).toBe(1);
  });

  it('spends points first when asked and earns cashback only on the roubles', () => {
    expect(splitCharge(179_000, 300, true)).toEqual({
      totalKopecks: 179_000,
      points: 300,
      kopecks: 149_000,
      cashbackPoints: 74,
    });
    // Points stay untouched when not asked.
    expect(splitCharge(179_000, 300, false).points).toBe(0);
  });

  it('never spends more points than whole roubles in the price', () => {
    expect(splitCharge(10_000, 500, true)).toEqual({
      totalKopecks: 10_000,
      points: 100,
      kopecks: 0,
      cashbackPoints: 0,
    });
    expect(splitCharge(9_950, 500, true)).toMatchObject({
      points: 99,
      kopecks: 50,
      cashbackPoints: 0,
    });
  });
});
