// Test helpers of the two-factor module (used by its tests and the browser tests, never by the app).
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** Reads the text a QR code PNG (base64, as `2fa/enable` answers it) encodes. */
export function decodeQrPng(base64: string): string {
  const png = PNG.sync.read(Buffer.from(base64, 'base64'));
  const result = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!result) throw new Error('no QR code found in the image');
  return result.data;
}

/** The Base32 secret of an otpauth:// URI. */
export function secretOfOtpauthUrl(url: string): string {
  const secret = new URL(url).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${url}`);
  return secret;
}
