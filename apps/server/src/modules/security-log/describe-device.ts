import { UAParser } from 'ua-parser-js';

/**
 * 'Chrome 120, Windows 10' from a user agent; a plain fallback when nothing is recognised. Used by
 * the messages that name a device to the owner (the Telegram notice, the alert letter).
 */
export function describeDevice(userAgent: string): string {
  const { browser, os } = new UAParser(userAgent).getResult();
  const parts = [
    [browser.name, browser.major].filter(Boolean).join(' '),
    [os.name, os.version].filter(Boolean).join(' '),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'неизвестное устройство';
}

const moscowTime = new Intl.DateTimeFormat('ru-RU', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Europe/Moscow',
});

/** '26 ноября 2026 г. в 04:13 (МСК)': the time of an event as the owner reads it. */
export function describeMoment(at: Date): string {
  return `${moscowTime.format(at)} (МСК)`;
}
