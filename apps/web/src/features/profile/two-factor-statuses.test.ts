import { describe, expect, it } from 'vitest';
import { checkTelegram, telegramSlice } from './telegram-slice';
import { phoneStatus, yandexStatus } from './two-factor-statuses';

describe('phone status (spec §4)', () => {
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
    expect(yandexStatus({ yandexId: '123' })).toBe('connected');
    expect(yandexStatus({ yandexId: null })).toBe('unconnected');
  });
});

describe('telegram status (spec §4)', () => {
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
