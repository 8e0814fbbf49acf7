import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The string T-Bank hashes for a request or notification signature: the root-level scalar
 * fields except `Token` (nested `DATA`, `Receipt`, `Shops` are left out), plus `Password`,
 * sorted by key, values concatenated with no separator. Booleans become `true`/`false`;
 * null counts as empty.
 */
export function tokenSource(fields: Record<string, unknown>, password: string): string {
  const pairs: [string, string][] = [['Password', password]];
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'Token' || value === undefined) continue;
    if (value !== null && typeof value === 'object') continue;
    pairs.push([key, value === null ? '' : String(value)]);
  }
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return pairs.map(([, value]) => value).join('');
}

/** SHA-256 of `tokenSource`, lowercase hex: the `Token` field. */
export function tbankToken(fields: Record<string, unknown>, password: string): string {
  return createHash('sha256').update(tokenSource(fields, password), 'utf8').digest('hex');
}

/** The request with its `Token` added. */
export function signTbankRequest<T extends Record<string, unknown>>(
  fields: T,
  password: string,
): T & { Token: string } {
  return { ...fields, Token: tbankToken(fields, password) };
}

/** Whether `body.Token` is the signature of the rest of `body`; constant time. */
export function hasValidTbankToken(body: Record<string, unknown>, password: string): boolean {
  const received = body.Token;
  if (typeof received !== 'string' || !/^[0-9a-f]{64}$/i.test(received)) return false;
  const expected = Buffer.from(tbankToken(body, password), 'hex');
  return timingSafeEqual(expected, Buffer.from(received.toLowerCase(), 'hex'));
}
