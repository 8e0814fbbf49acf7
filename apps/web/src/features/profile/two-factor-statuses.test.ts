import { describe, expect, it } from 'vitest';
import {
  phoneStatus,
  telegramCheckStatus,
  telegramStatus,
  yandexStatus,
} from './two-factor-statuses';

describe('phone status', () => {
  it('is connected with a shared phone or a linked Telegram', () => {
    expect(phoneStatus({ phoneNamber: '+79001234567' }, 'unconnected')).toBe('connected');
    expect(phoneStatus({ phoneNamber: null }, 'connected')).toBe('connected');
  });
  it('is unknown while Telegram is checked, otherwise unconnected', () => {
    expect(phoneStatus({ phoneNamber: null }, 'unavailable')).toBe('unavailable');
    expect(phoneStatus({ phoneNamber: null }, 'unconnected')).toBe('unconnected');
  });
});

describe('yandex status', () => {
  it('follows the Yandex id', () => {
    expect(yandexStatus({ yandexId: '123' }, true)).toBe('connected');
    expect(yandexStatus({ yandexId: null }, true)).toBe('unconnected');
  });
  it('is unavailable, not unconnected, on a portal without Yandex ID (a linked one stays)', () => {
    expect(yandexStatus({ yandexId: null }, false)).toBe('unavailable');
    expect(yandexStatus({ yandexId: '123' }, false)).toBe('connected');
  });
});

describe('telegram status as the profile shows it', () => {
  it('is unavailable, not unconnected, on a portal without a bot (a linked one stays)', () => {
    expect(telegramStatus('unconnected', false)).toBe('unavailable');
    expect(telegramStatus('connected', false)).toBe('connected');
    expect(telegramStatus('unconnected', true)).toBe('unconnected');
  });
});

describe('telegram status', () => {
  it('is unavailable while nothing is known (the first check, or it failed), then connected or unconnected', () => {
    expect(telegramCheckStatus({})).toBe('unavailable');
    expect(telegramCheckStatus({ data: true })).toBe('connected');
    expect(telegramCheckStatus({ data: false })).toBe('unconnected');
  });
});
