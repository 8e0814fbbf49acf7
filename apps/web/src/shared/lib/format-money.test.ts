import { describe, expect, it } from 'vitest';
import { formatPoints, formatRoubles, formatSignedAmount, pointsWord } from './format-money';

// Intl puts a no-break space between thousands and before nothing else; compare with it spelled out.
const nbsp = '\u00a0';

describe('formatRoubles', () => {
  it('shows two decimals and the rouble sign', () => {
    expect(formatRoubles(0)).toBe('0,00 ₽');
    expect(formatRoubles(500)).toBe('500,00 ₽');
    expect(formatRoubles(1250.5)).toBe(`1${nbsp}250,50 ₽`);
    expect(formatRoubles(0.1 + 0.2)).toBe('0,30 ₽');
  });
});

describe('points', () => {
  it('are whole and take the Russian plural', () => {
    expect(formatPoints(1200)).toBe(`1${nbsp}200`);
    expect([1, 2, 5, 11, 21, 22, 25, 101].map(pointsWord)).toEqual([
      'балл',
      'балла',
      'баллов',
      'баллов',
      'балл',
      'балла',
      'баллов',
      'балл',
    ]);
  });
});

describe('formatSignedAmount', () => {
  it('puts + on accruals and a minus sign on write-offs', () => {
    expect(formatSignedAmount(1000, 'rub', 'accrual')).toBe(`+1${nbsp}000,00 ₽`);
    expect(formatSignedAmount(89.5, 'rub', 'writeOff')).toBe('−89,50 ₽');
    expect(formatSignedAmount(50, 'points', 'accrual')).toBe('+50 баллов');
    expect(formatSignedAmount(1, 'points', 'writeOff')).toBe('−1 балл');
  });
});
