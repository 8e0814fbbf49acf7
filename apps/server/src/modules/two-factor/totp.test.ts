import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  generateTotpSecret,
  matchTotpStep,
  otpauthUrl,
  SECRET_BYTES,
  totpCode,
  totpStep,
} from './totp.js';

// RFC 6238 Appendix B, SHA-1: the ASCII seed '12345678901234567890', in Base32 below.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS = [
  { time: 59, step: 0x1, eight: '94287082', six: '287082' },
  { time: 1111111109, step: 0x23523ec, eight: '07081804', six: '081804' },
  { time: 1111111111, step: 0x23523ed, eight: '14050471', six: '050471' },
  { time: 1234567890, step: 0x273ef07, eight: '89005924', six: '005924' },
  { time: 2000000000, step: 0x3f940aa, eight: '69279037', six: '279037' },
  { time: 20000000000, step: 0x27bc86aa, eight: '65353130', six: '353130' },
] as const;

const at = (seconds: number) => new Date(seconds * 1000);

describe('TOTP against RFC 6238 Appendix B', () => {
  it('the Base32 seed is the RFC ASCII key', () => {
    expect(Secret.fromBase32(RFC_SECRET).latin1).toBe('12345678901234567890');
  });

  it.each(RFC_VECTORS)('at $time s: step $step, 8 digits $eight', ({ time, step, eight }) => {
    expect(totpStep(at(time))).toBe(step);
    const rfc = new TOTP({ secret: Secret.fromBase32(RFC_SECRET), algorithm: 'SHA1', digits: 8 });
    expect(rfc.generate({ timestamp: time * 1000 })).toBe(eight);
  });

  it.each(RFC_VECTORS)('at $time s the portal computes and accepts $six', ({ time, step, six }) => {
    expect(totpCode(RFC_SECRET, at(time))).toBe(six);
    expect(matchTotpStep(RFC_SECRET, six, at(time))).toBe(step);
  });

  it('accepts one step of drift either way and no more', () => {
    const { time, step, six } = RFC_VECTORS[3];
    expect(matchTotpStep(RFC_SECRET, six, at(time + 30))).toBe(step);
    expect(matchTotpStep(RFC_SECRET, six, at(time - 30))).toBe(step);
    expect(matchTotpStep(RFC_SECRET, six, at(time + 60))).toBeNull();
    expect(matchTotpStep(RFC_SECRET, six, at(time - 60))).toBeNull();
  });

  it('refuses wrong, short, long and non-numeric codes', () => {
    const { time, six, eight } = RFC_VECTORS[1];
    const wrong = String((Number(six) + 1) % 1_000_000).padStart(6, '0');
    expect(matchTotpStep(RFC_SECRET, wrong, at(time))).toBeNull();
    expect(matchTotpStep(RFC_SECRET, six.slice(1), at(time))).toBeNull();
    expect(matchTotpStep(RFC_SECRET, eight, at(time))).toBeNull();
    expect(matchTotpStep(RFC_SECRET, '08180a', at(time))).toBeNull();
  });
});

describe('secrets and the key URI', () => {
  it('generates secrets of 160 bits, different every time', () => {
    const secrets = new Set(Array.from({ length: 20 }, generateTotpSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) {
      expect(Secret.fromBase32(secret).bytes.length).toBe(SECRET_BYTES);
      expect(SECRET_BYTES * 8).toBeGreaterThanOrEqual(160);
    }
  });

  it('builds the Google Authenticator URI: issuer label, SHA1, 6 digits, 30 s', () => {
    const url = new URL(otpauthUrl(RFC_SECRET, 'GameHost', 'player@example.com'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/GameHost:player@example.com');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      secret: RFC_SECRET,
      issuer: 'GameHost',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });

  it('keeps colons out of both parts of the label', () => {
    const url = new URL(otpauthUrl(RFC_SECRET, 'Game:Host', 'a:b'));
    expect(decodeURIComponent(url.pathname)).toBe('/Game Host:a b');
  });
});
