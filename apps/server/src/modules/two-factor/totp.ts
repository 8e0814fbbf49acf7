import {
  TOTP_ALGORITHM,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  TOTP_WINDOW_STEPS,
} from '@portal/contracts/constants';
import { Secret, TOTP, URI } from 'otpauth';

/** 20 bytes = 160 bits, the size RFC 4226 §4 recommends (it requires at least 128). */
export const SECRET_BYTES = 20;

export function generateTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

function totpFor(secretBase32: string, label = 'account', issuer = '') {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** The time step (RFC 6238 "T") a moment falls in. */
export function totpStep(at: Date): number {
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: at.getTime() });
}

export function totpCode(secretBase32: string, at: Date): string {
  return totpFor(secretBase32).generate({ timestamp: at.getTime() });
}

/**
 * The step a code belongs to when it is valid at `at` within ±1 step (RFC 6238 §5.2), else null.
 * The caller refuses a step already used; otpauth compares in constant time.
 */
export function matchTotpStep(secretBase32: string, code: string, at: Date): number | null {
  if (!/^\d+$/.test(code)) return null;
  const delta = totpFor(secretBase32).validate({
    token: code,
    timestamp: at.getTime(),
    window: TOTP_WINDOW_STEPS,
  });
  return delta === null ? null : totpStep(at) + delta;
}

/** The Key URI of Google Authenticator: otpauth://totp/ISSUER:ACCOUNT?secret=…&issuer=… */
export function otpauthUrl(secretBase32: string, issuer: string, account: string): string {
  // Neither part of the label may contain ':' (Key URI format).
  const clean = (value: string) => value.replaceAll(':', ' ').trim() || 'account';
  return URI.stringify(totpFor(secretBase32, clean(account), clean(issuer)));
}
