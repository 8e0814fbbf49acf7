import { describe, expect, it } from 'vitest';
import * as constants from './constants';

describe("constants match the product's figures", () => {
  it('top-up', () => {
    expect(constants.QUICK_TOP_UP_AMOUNTS).toEqual([500, 1000, 1500, 2000, 2500]);
    expect(constants.DEFAULT_TOP_UP_AMOUNT).toBe(500);
    expect(constants.RECEIPT_TAXATION).toBe('osn');
    expect(constants.RECEIPT_ITEM_TAX).toBe('none');
    expect(constants.RECEIPT_ITEM_QUANTITY).toBe(1);
    expect(constants.TOP_UP_IS_RECURRENT).toBe(false);
    expect(constants.TOP_UP_DESCRIPTION).toBe('Пополнение баланса');
  });

  it('points', () => {
    expect(constants.ROUBLES_PER_POINT).toBe(1);
    expect(constants.CASHBACK_PERCENT).toBe(5);
  });

  it('field limits', () => {
    expect([constants.PASSWORD_MIN_LENGTH, constants.PASSWORD_MAX_LENGTH]).toEqual([8, 32]);
    expect([constants.USERNAME_MIN_LENGTH, constants.USERNAME_MAX_LENGTH]).toEqual([3, 16]);
    expect(constants.REGISTRATION_CODE_LENGTH).toBe(6);
    expect(constants.LOGIN_TWO_FACTOR_CODE_LENGTH).toBe(6);
    expect(constants.TWO_FACTOR_SETUP_CODE_MAX_LENGTH).toBe(6);
    expect(constants.RESET_CODE_MIN_LENGTH).toBe(6);
  });

  it('timings', () => {
    expect(constants.RESEND_COUNTDOWN_FIRST_SECONDS).toBe(60);
    expect(constants.RESEND_COUNTDOWN_NEXT_SECONDS).toBe(30);
    expect(constants.REDIRECT_DELAY_MS).toBe(500);
    expect(constants.INFO_TOAST_DURATION_MS).toBe(6000);
    expect(constants.TOAST_DURATION_MS).toBe(3000);
  });

  it('services and layout', () => {
    expect(constants.DEFAULT_SERVICE_PRICE).toBe(1790);
    expect(constants.AVATAR_DISPLAY_SIZE_PX).toBe(128);
    expect(constants.AVATAR_MIME_TYPES).toEqual(['image/png', 'image/jpeg']);
    expect(constants.MOBILE_BREAKPOINT_PX).toBe(768);
    expect([constants.MODAL_WIDTH_SMALL_PX, constants.MODAL_WIDTH_LARGE_PX]).toEqual([400, 600]);
    expect(constants.TOP_UP_MODAL_MAX_WIDTH_PX).toBe(500);
    expect(constants.DEVICE_SKELETON_ROWS).toBe(4);
    expect(constants.DEFAULT_THEME).toBe('dark');
    expect(constants.COPYRIGHT_YEAR).toBe(2025);
  });

  it('browser storage', () => {
    expect(constants.ACCESS_TOKEN_STORAGE_KEY).toBe('access_token');
  });
});

describe("constants match the server's security rules", () => {
  it('one-time codes and hand-off', () => {
    expect(constants.ONE_TIME_CODE_LENGTH).toBe(6);
    expect(constants.ONE_TIME_CODE_TTL_MINUTES).toBe(10);
    expect(constants.ONE_TIME_CODE_MAX_ATTEMPTS).toBe(5);
    expect(constants.HAND_OFF_CODE_TTL_SECONDS).toBe(60);
    expect(constants.TELEGRAM_LINK_TTL_MINUTES).toBe(15);
  });

  it('login protection and authenticator codes', () => {
    expect(constants.LOGIN_FAILURES_BEFORE_DELAY).toBe(10);
    expect(constants.LOGIN_MAX_DELAY_MINUTES).toBe(15);
    expect(constants.TOTP_ALGORITHM).toBe('SHA1');
    expect(constants.TOTP_DIGITS).toBe(6);
    expect(constants.TOTP_PERIOD_SECONDS).toBe(30);
    expect(constants.TOTP_WINDOW_STEPS).toBe(1);
  });
});
