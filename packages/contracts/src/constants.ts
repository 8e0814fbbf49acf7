/** The product's business constants and the server's own limits. One definition for both sides. */

import type { PaymentMethodId } from './wallet';

// Top-up: quick picks, the default, and the receipt every top-up carries
export const QUICK_TOP_UP_AMOUNTS = [500, 1000, 1500, 2000, 2500] as const;
export const DEFAULT_TOP_UP_AMOUNT = 500;
export const TOP_UP_DESCRIPTION = 'Пополнение баланса';
export const RECEIPT_TAXATION = 'osn';
export const RECEIPT_ITEM_TAX = 'none';
export const RECEIPT_ITEM_QUANTITY = 1;
export const TOP_UP_IS_RECURRENT = false;
/** Only card and sbp are offered; the other methods are known but not offered. */
export const OFFERED_PAYMENT_METHODS = [
  'card',
  'sbp',
] as const satisfies readonly PaymentMethodId[];

// Points: 1 point = 1 rouble; a purchase earns 5 percent of its rouble part.
export const ROUBLES_PER_POINT = 1;
export const CASHBACK_PERCENT = 5;

// Field limits
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 32;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 16;
export const NAME_MAX_LENGTH = 64;
export const REGISTRATION_CODE_LENGTH = 6;
export const LOGIN_TWO_FACTOR_CODE_LENGTH = 6;
export const TWO_FACTOR_SETUP_CODE_MAX_LENGTH = 6;
export const RESET_CODE_MIN_LENGTH = 6;
/** Every one-time code the server mails (registration, reset, e-mail and password change). */
export const ONE_TIME_CODE_LENGTH = 6;
export const EMAIL_MAX_LENGTH = 254;

// Timings
export const RESEND_COUNTDOWN_FIRST_SECONDS = 60;
export const RESEND_COUNTDOWN_NEXT_SECONDS = 30;
export const REDIRECT_DELAY_MS = 500;
export const TOAST_DURATION_MS = 3000;
export const INFO_TOAST_DURATION_MS = 6000;

// Services and layout
export const DEFAULT_SERVICE_PRICE = 1790;
export const AVATAR_DISPLAY_SIZE_PX = 128;
export const AVATAR_MIME_TYPES = ['image/png', 'image/jpeg'] as const;
export const MOBILE_BREAKPOINT_PX = 768;
export const MODAL_WIDTH_SMALL_PX = 400;
export const MODAL_WIDTH_LARGE_PX = 600;
export const TOP_UP_MODAL_MAX_WIDTH_PX = 500;
export const DEVICE_SKELETON_ROWS = 4;
export const DEFAULT_THEME = 'dark';
export const COPYRIGHT_YEAR = 2025;

// Browser storage: the access token's key is fixed, sibling sites read it too
export const ACCESS_TOKEN_STORAGE_KEY = 'access_token';
export const REQUIRES_TWO_FACTOR_STORAGE_KEY = 'requiresTwoFactor';

// One-time codes: each dies after its lifetime or its last wrong try, whichever comes first
export const ONE_TIME_CODE_TTL_MINUTES = 10;
export const ONE_TIME_CODE_MAX_ATTEMPTS = 5;
export const HAND_OFF_CODE_TTL_SECONDS = 60;
export const TELEGRAM_LINK_TTL_MINUTES = 15;
/**
 * How long a proof of the account's owner (password or code) lets a session change its factors:
 * the authenticator, linked Telegram and Yandex ID (docs/decisions/0011-fresh-proof-for-factor-changes.md).
 */
export const RECENT_PROOF_MINUTES = 10;

// Login brute-force protection: after this many failures the account waits, longer each time
export const LOGIN_FAILURES_BEFORE_DELAY = 10;
export const LOGIN_MAX_DELAY_MINUTES = 15;

// Authenticator app codes (TOTP, RFC 6238): a code of the previous or next step is accepted too
export const TOTP_ALGORITHM = 'SHA1';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_WINDOW_STEPS = 1;
