import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  ONE_TIME_CODE_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './constants';
import { ERROR_REASONS, type ErrorReason } from './error-reasons';
import {
  CODE_WRONG,
  EMAIL_INVALID,
  NAME_FORBIDDEN_CHARACTERS,
  NAME_TOO_LONG,
  PASSWORD_HAS_CYRILLIC,
  PASSWORD_NEEDS_DIGIT,
  PASSWORD_NEEDS_LOWERCASE,
  PASSWORD_NEEDS_UPPERCASE,
  PASSWORD_REQUIRED,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
  USERNAME_HAS_CYRILLIC,
  USERNAME_NOT_LATIN,
} from './messages';
import { normalizeTypedCode } from './typed-code';

export { normalizeTypedCode };

/** Why a call was refused: error-reasons.ts says what each reason asks of a client. */
export const errorReasonSchema = z.enum(ERROR_REASONS);
export type { ErrorReason };

/**
 * Every error answer: a Russian message, per-field messages for 400, and sometimes a reason a
 * client can act on.
 */
export const errorAnswerSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  reason: errorReasonSchema.optional(),
});
export type ErrorAnswer = z.infer<typeof errorAnswerSchema>;

/** The plain success answer of most calls. */
export const messageAnswerSchema = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof messageAnswerSchema>;

/** `status` of the answers that carry one (payments, password change, Yandex). */
export const answerStatusSchema = z.enum(['ok', 'error']);
export type AnswerStatus = z.infer<typeof answerStatusSchema>;

export const cyrillicPattern = /[а-яё]/i;

/**
 * The only characters of a new username: Latin letters, digits, '_', '.', '-'. Letters of other
 * scripts (Greek 'о', Armenian 'օ', …) look like Latin ones and would make look-alike accounts.
 */
const usernameAlphabet = /^[A-Za-z0-9_.-]*$/;

// Apart from the schemas, so the registration form strips spaces as typed before zod loads.
export { withoutSpaces } from './without-spaces';

/** Cyrillic keeps the product's own message; any other foreign character gets ours (never both). */
export function usernameCharactersProblem(value: string): string | null {
  if (cyrillicPattern.test(value)) return USERNAME_HAS_CYRILLIC;
  if (!usernameAlphabet.test(value)) return USERNAME_NOT_LATIN;
  return null;
}

/**
 * What no name may hold: control characters, format characters (direction overrides and marks,
 * zero-width spaces and joiners), lone surrogates, private-use characters and line separators.
 * They let a name display as something other than what it is.
 */
const forbiddenInNames = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u;

/**
 * Letters and symbols that render as nothing: the Hangul fillers and the blank braille pattern.
 * With combining marks, variation selectors and spaces (none of them a letter, digit, punctuation
 * or symbol), they alone make a name that displays as empty.
 */
const blankLookingCharacters = /[\u115F\u1160\u3164\uFFA0\u2800]/gu;
const visibleCharacter = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** Whether the text shows something: at least one letter, digit, punctuation mark or symbol. */
export function hasVisibleCharacter(value: string): boolean {
  return visibleCharacter.test(value.replace(blankLookingCharacters, ''));
}

/**
 * A name the portal may show: none of the forbidden characters, and (unless empty, as a missing
 * last name is) at least one visible character, so it never displays as nothing.
 */
export function isCleanName(value: string): boolean {
  return !forbiddenInNames.test(value) && (value === '' || hasVisibleCharacter(value));
}

/**
 * Every name field's rule after its own rule for an empty one: trimmed, clean (`isCleanName`), at
 * most `maxLength` characters.
 */
export function cleanNameRule(schema: z.ZodString, maxLength = NAME_MAX_LENGTH): z.ZodString {
  return schema.trim().refine(isCleanName, NAME_FORBIDDEN_CHARACTERS).max(maxLength, NAME_TOO_LONG);
}

/**
 * A name from elsewhere (a Yandex ID profile) with those characters taken out; empty when nothing
 * visible is left.
 */
export function cleanedName(value: string): string {
  const cleaned = value.replace(new RegExp(forbiddenInNames.source, 'gu'), '').trim();
  return hasVisibleCharacter(cleaned) ? cleaned : '';
}

/**
 * The password rule of registration, reset and change: no Cyrillic, 8–32 characters, an uppercase
 * and a lowercase Latin letter, a digit. Checks run in this order, so a form showing the first
 * message shows the most useful one: Cyrillic first, as for the username (`usernameSchema`), since
 * 'Пароль2024a' lacks no letter, it is typed in the wrong layout.
 */
export const passwordSchema = z
  .string({ error: PASSWORD_REQUIRED })
  .refine((value) => !cyrillicPattern.test(value), PASSWORD_HAS_CYRILLIC)
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG)
  .regex(/[A-Z]/, PASSWORD_NEEDS_UPPERCASE)
  .regex(/[a-z]/, PASSWORD_NEEDS_LOWERCASE)
  .regex(/[0-9]/, PASSWORD_NEEDS_DIGIT);

/** An e-mail address, trimmed. Lower-casing for comparison is the server's job. */
export const emailSchema = z
  .string({ error: EMAIL_INVALID })
  .trim()
  .max(EMAIL_MAX_LENGTH, EMAIL_INVALID)
  .pipe(z.email({ error: EMAIL_INVALID }));

/** A six-digit one-time code (registration, reset, e-mail change, authenticator). */
export const oneTimeCodeSchema = z
  .string({ error: CODE_WRONG })
  .overwrite(normalizeTypedCode)
  .regex(new RegExp(`^\\d{${ONE_TIME_CODE_LENGTH}}$`), CODE_WRONG);

/** An ISO 8601 timestamp in UTC, as every answer sends times. */
export const timestampSchema = z.iso.datetime();

/**
 * Roubles on the wire: a number with at most two decimals. Storage and
 * arithmetic use integer kopecks (see `roublesToKopecks`).
 */
export const roublesSchema = z.number().refine(hasAtMostTwoDecimals);

export function hasAtMostTwoDecimals(value: number): boolean {
  const hundredths = value * 100;
  // Tolerates binary noise like 0.1 + 0.2 without accepting a third decimal.
  return Number.isFinite(value) && Math.abs(hundredths - Math.round(hundredths)) < 1e-6;
}

export function roublesToKopecks(roubles: number): number {
  return Math.round(roubles * 100);
}

export function kopecksToRoubles(kopecks: number): number {
  return kopecks / 100;
}

/**
 * Turns a zod error into the `errors` object of the error answer: field path
 * (dot-joined, '' for the whole body) to its messages, in order.
 */
export function toFieldErrors(error: z.ZodError): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    const messages = fieldErrors[key] ?? [];
    messages.push(issue.message);
    fieldErrors[key] = messages;
  }
  return fieldErrors;
}
