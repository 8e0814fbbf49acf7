import { formatRussianDate } from '@/shared/lib/format-date';

/** Entries of one calendar day (in the viewer's time zone), in the order they came. */
export type DayGroup<T> = { key: string; title: string; items: T[] };

type Dated = { createdAt: string };

function dayKey(date: Date, timeZone?: string): string {
  // en-CA writes dates as YYYY-MM-DD, which sorts and compares as text.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);
}

/**
 * Groups a newest-first list by day. The two most recent days read "Сегодня" and "Вчера", the
 * rest carry their date.
 */
export function groupByDay<T extends Dated>(
  items: readonly T[],
  options: { now?: Date; timeZone?: string } = {},
): DayGroup<T>[] {
  const now = options.now ?? new Date();
  const { timeZone } = options;
  const today = dayKey(now, timeZone);
  const yesterday = dayKey(new Date(now.getTime() - 24 * 60 * 60 * 1000), timeZone);
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const date = new Date(item.createdAt);
    const key = dayKey(date, timeZone);
    let group = groups.at(-1);
    if (group?.key !== key) {
      const title =
        key === today ? 'Сегодня' : key === yesterday ? 'Вчера' : formatRussianDate(date, timeZone);
      group = { key, title, items: [] };
      groups.push(group);
    }
    group.items.push(item);
  }
  return groups;
}
