import { invalidInput } from './app-error.js';

const CURSOR_INVALID = 'Некорректный курсор страницы';

/**
 * The cursor of a keyset page (the wallet history, the security log): the last row's sort key and
 * the value that breaks its ties, opaque to the client.
 */
export function encodePageCursor(key: string, tieBreaker: string): string {
  return Buffer.from(JSON.stringify([key, tieBreaker])).toString('base64url');
}

/**
 * The two values of a cursor `encodePageCursor` wrote, each checked so that nothing else reaches
 * the database; anything else is a 400 with the Russian message.
 */
export function decodePageCursor(
  cursor: string,
  isKey: (value: string) => boolean,
  isTieBreaker: (value: string) => boolean,
): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      isKey(value[0]) &&
      typeof value[1] === 'string' &&
      isTieBreaker(value[1])
    ) {
      return [value[0], value[1]];
    }
  } catch {}
  throw invalidInput(CURSOR_INVALID, { cursor: [CURSOR_INVALID] });
}
