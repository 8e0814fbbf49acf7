import { describe, expect, it } from 'vitest';
import { checkTelegram, telegramSlice } from './telegram-slice';
import { phoneStatus, telegramStatus, yandexStatus } from './two-factor-statuses';

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
  const reduce = telegramSlice.reducer;
  const connected = { status: 'connected' as const };
  const pending = (arg?: { isQuiet?: boolean }) => checkTelegram.pending('id', arg);

  it('is unavailable while checking, then connected or unconnected', () => {
    expect(reduce(connected, pending()).status).toBe('unavailable');
    expect(reduce(undefined, checkTelegram.fulfilled(true, 'id', undefined)).status).toBe(
      'connected',
    );
    expect(reduce(connected, checkTelegram.fulfilled(false, 'id', undefined)).status).toBe(
      'unconnected',
    );
  });

  it('is unavailable on an error', () => {
    const failed = checkTelegram.rejected(new Error('500'), 'id', undefined);
    expect(reduce(connected, failed).status).toBe('unavailable');
  });

  it('keeps what it shows during a quiet re-check, also when that fails', () => {
    const unconnected = { status: 'unconnected' as const };
    expect(reduce(unconnected, pending({ isQuiet: true })).status).toBe('unconnected');
    const failed = checkTelegram.rejected(new Error('500'), 'id', { isQuiet: true });
    expect(reduce(unconnected, failed).status).toBe('unconnected');
  });
});
