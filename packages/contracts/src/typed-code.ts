/**
 * A code as people type and paste it: «123 456», «123-456», a line break or spaces around it,
 * full-width digits. Only its letters and digits count (NFKC makes full-width ones ASCII), so a
 * well-formed code is never refused for how it was typed. Every code field's schema starts here,
 * and the web's code fields clean a paste with it. Apart from ./common so the web's fields take it
 * without zod.
 */
export function normalizeTypedCode(value: string): string {
  return value.normalize('NFKC').replace(/[\s\p{Pd}\u2212]/gu, '');
}

/**
 * How much a code field takes as typed: the longest code (a recovery code, ten symbols) with room
 * for the spaces and dashes people put in, which normalizeTypedCode drops.
 */
export const TYPED_CODE_MAX_LENGTH = 24;
