import { describe, expect, it } from 'vitest';
import { formatRussianDate, formatShortDate, formatTime } from './format-date';

const timeZone = 'Europe/Moscow';

describe('Russian dates and times', () => {
  it('writes the day, the month in words and the year', () => {
    expect(formatRussianDate('2026-05-01T09:00:00Z', timeZone)).toBe('1 мая 2026 г.');
    expect(formatRussianDate(new Date('2025-12-31T21:30:00Z'), timeZone)).toBe('1 января 2026 г.');
  });

  it('writes times on the 24-hour clock and short dates for axes', () => {
    expect(formatTime('2026-05-01T09:07:00Z', timeZone)).toBe('12:07');
    expect(formatShortDate('2026-03-05T09:07:00Z', timeZone)).toBe('5 мар.');
  });
});
