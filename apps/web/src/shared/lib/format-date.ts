// Dates and times as the portal shows them (Russian: day, long month and year). The time
// zone is the viewer's; tests pass one explicitly.

/** "5 марта 2026 г." */
export function formatRussianDate(date: Date | string, timeZone?: string): string {
  return new Intl.DateTimeFormat('ru-RU', {
    timeZone,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date(date));
}

/** "09:07" */
export function formatTime(date: Date | string, timeZone?: string): string {
  return new Intl.DateTimeFormat('ru-RU', { timeZone, hour: '2-digit', minute: '2-digit' }).format(
    new Date(date),
  );
}

/** "5 мар." — for chart axes, where a full date does not fit. */
export function formatShortDate(date: Date | string, timeZone?: string): string {
  return new Intl.DateTimeFormat('ru-RU', { timeZone, day: 'numeric', month: 'short' }).format(
    new Date(date),
  );
}
