import { describe, expect, it } from 'vitest';
import { groupByDay } from './group-by-day';

const timeZone = 'Europe/Moscow';
const now = new Date('2026-03-05T12:00:00Z');

describe('groupByDay', () => {
  it('groups a newest-first list by the local calendar day', () => {
    const items = [
      { id: 'a', createdAt: '2026-03-05T10:00:00Z' },
      // 23:30 UTC on the 4th is already the 5th in Moscow (UTC+3).
      { id: 'b', createdAt: '2026-03-04T21:30:00Z' },
      { id: 'c', createdAt: '2026-03-04T20:59:00Z' },
      { id: 'd', createdAt: '2026-02-28T08:00:00Z' },
      { id: 'e', createdAt: '2025-12-31T20:00:00Z' },
    ];
    const groups = groupByDay(items, { now, timeZone });
    expect(groups.map((group) => [group.title, group.items.map((item) => item.id)])).toEqual([
      ['Сегодня', ['a', 'b']],
      ['Вчера', ['c']],
      ['28 февраля 2026 г.', ['d']],
      ['31 декабря 2025 г.', ['e']],
    ]);
  });

  it('answers no groups for no entries', () => {
    expect(groupByDay([], { now, timeZone })).toEqual([]);
  });
});
