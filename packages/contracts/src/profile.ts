import { z } from 'zod';
import { userSchema } from './auth';
import {
  cleanNameRule,
  emailSchema,
  messageAnswerSchema,
  normalizeTypedCode,
  oneTimeCodeSchema,
  usernameCharactersProblem,
  withoutSpaces,
} from './common';
import { AVATAR_MIME_TYPES, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from './constants';
import {
  AVATAR_WRONG_TYPE,
  CODE_WRONG,
  EMAIL_WRONG,
  FIELD_EMPTY,
  FIELD_ONLY_WHITESPACE,
  FIELDS_EMPTY,
  PASSWORDS_DO_NOT_MATCH,
  USERNAME_TOO_LONG,
  USERNAME_TOO_SHORT,
} from './messages';

const isOnlyWhitespace = (value: string) => value.length > 0 && value.trim().length === 0;

// ---------------------------------------------------------------- profile

/**
 * The profile's userName: only-whitespace is refused with its own message, then its spaces are
 * stripped (as at registration: the form strips them as typed) and it must be 3–16 characters. Its characters are
 * checked by the server (and the form) only when the name changes: see
 * `updateProfileFormSchema`.
 */
export const profileUserNameSchema = z
  .string({ error: FIELD_EMPTY })
  .refine((value) => !isOnlyWhitespace(value), { error: FIELD_ONLY_WHITESPACE, abort: true })
  .overwrite(withoutSpaces)
  .min(USERNAME_MIN_LENGTH, USERNAME_TOO_SHORT)
  .max(USERNAME_MAX_LENGTH, USERNAME_TOO_LONG);

/**
 * firstName, middleName, lastName on the profile: non-empty, not only spaces, trimmed, no
 * control, direction-changing or invisible characters.
 */
export const profileNameSchema = cleanNameRule(
  z
    .string({ error: FIELD_EMPTY })
    .min(1, { error: FIELD_EMPTY, abort: true })
    .refine((value) => !isOnlyWhitespace(value), { error: FIELD_ONLY_WHITESPACE, abort: true }),
);

/** `update-profile`; also the 'Мои данные' form (values come out trimmed). */
export const updateProfileRequestSchema = z.object({
  firstName: profileNameSchema,
  userName: profileUserNameSchema,
  middleName: profileNameSchema,
  lastName: profileNameSchema,
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

/**
 * The 'Мои данные' form: the request plus the username's character rule, which a name chosen
 * before the rule existed does not have to pass until it is changed (the server does the same).
 */
export function updateProfileFormSchema(currentUserName: string) {
  return updateProfileRequestSchema.extend({
    userName: profileUserNameSchema.superRefine((value, context) => {
      const problem = value === currentUserName ? null : usernameCharactersProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  });
}
export type UpdateProfileForm = z.infer<typeof updateProfileRequestSchema>;
/**
 * The message and the user's four name fields as stored, which the page shows (the server
 * normalises them).
 */
export const updateProfileAnswerSchema = messageAnswerSchema.extend(
  userSchema.pick({ userName: true, firstName: true, middleName: true, lastName: true }).shape,
);
export type UpdateProfileAnswer = z.infer<typeof updateProfileAnswerSchema>;

// ---------------------------------------------------------------- avatar

/** `update-avatar`: an address this server's upload storage issued (checked by the server). */
export const updateAvatarRequestSchema = z.object({
  avatarUrl: z.string({ error: FIELD_EMPTY }).trim().min(1, FIELD_EMPTY),
});
export type UpdateAvatarRequest = z.infer<typeof updateAvatarRequestSchema>;
export const updateAvatarAnswerSchema = messageAnswerSchema;
export type UpdateAvatarAnswer = z.infer<typeof updateAvatarAnswerSchema>;

/** `/upload`: `data` is the stored file's address. */
export const uploadAnswerSchema = z.object({ data: z.string() });
export type UploadAnswer = z.infer<typeof uploadAnswerSchema>;

/** What the avatar picker accepts: png or jpeg; the server judges by the bytes. */
export const avatarMimeTypeSchema = z.enum(AVATAR_MIME_TYPES, { error: AVATAR_WRONG_TYPE });
export type AvatarMimeType = z.infer<typeof avatarMimeTypeSchema>;

// ---------------------------------------------------------------- e-mail change
// A real change: a code to the current address, then the new address, then a code sent there.

/** A code step of the e-mail change modal: digits only, six of them. */
export const emailChangeCodeFormSchema = z.object({
  code: z
    .string({ error: CODE_WRONG })
    .overwrite(normalizeTypedCode)
    .regex(/^\d{6}$/, CODE_WRONG),
});
export type EmailChangeCodeForm = z.infer<typeof emailChangeCodeFormSchema>;

/** The new-address step: a valid address, else 'Неверная почта'. */
export const newEmailSchema = z
  .string({ error: EMAIL_WRONG })
  .trim()
  .pipe(z.email({ error: EMAIL_WRONG }));

export const emailChangeNewEmailFormSchema = z.object({ email: newEmailSchema });
export type EmailChangeNewEmailForm = z.infer<typeof emailChangeNewEmailFormSchema>;

/** A password and its repeat for the e-mail change modal: both non-empty, then equal. */
export const emailChangePasswordFormSchema = z
  .object({
    password: z.string({ error: FIELDS_EMPTY }).min(1, FIELDS_EMPTY),
    repeatPassword: z.string({ error: FIELDS_EMPTY }).min(1, FIELDS_EMPTY),
  })
  .refine((form) => form.password === form.repeatPassword, {
    path: ['repeatPassword'],
    error: PASSWORDS_DO_NOT_MATCH,
    // An empty field already has its message; a mismatch on top would only add noise.
    when: (payload) => {
      const value = payload.value as { password?: unknown; repeatPassword?: unknown };
      return value.password !== '' && value.repeatPassword !== '';
    },
  });
export type EmailChangePasswordForm = z.infer<typeof emailChangePasswordFormSchema>;

/** Step 1 (no body) sends a code to the current address; step 2 checks it. */
export const emailChangeVerifyCurrentRequestSchema = z.object({ code: oneTimeCodeSchema });
export type EmailChangeVerifyCurrentRequest = z.infer<typeof emailChangeVerifyCurrentRequestSchema>;

/** Step 3: the new address, which gets its own code. */
export const emailChangeNewEmailRequestSchema = z.object({ email: emailSchema });
export type EmailChangeNewEmailRequest = z.infer<typeof emailChangeNewEmailRequestSchema>;

/** Step 4: the new address's code; only now does the e-mail change. */
export const emailChangeConfirmRequestSchema = z.object({ code: oneTimeCodeSchema });
export type EmailChangeConfirmRequest = z.infer<typeof emailChangeConfirmRequestSchema>;

export const emailChangeStepAnswerSchema = messageAnswerSchema;
export type EmailChangeStepAnswer = z.infer<typeof emailChangeStepAnswerSchema>;

export const emailChangeConfirmAnswerSchema = z.object({ message: z.string(), email: z.string() });
export type EmailChangeConfirmAnswer = z.infer<typeof emailChangeConfirmAnswerSchema>;
