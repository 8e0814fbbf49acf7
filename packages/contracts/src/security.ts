import { z } from 'zod';
import {
  answerStatusSchema,
  emailSchema,
  messageAnswerSchema,
  normalizeTypedCode,
  oneTimeCodeSchema,
  passwordSchema,
  timestampSchema,
} from './common';
import { RESET_CODE_MIN_LENGTH, TWO_FACTOR_SETUP_CODE_MAX_LENGTH } from './constants';
import {
  CODE_WRONG,
  EMAIL_INVALID,
  FIELD_REQUIRED,
  OLD_PASSWORD_REQUIRED,
  PASSWORDS_DO_NOT_MATCH,
  PROOF_ONE_ANSWER,
  RESET_CODE_REQUIRED,
} from './messages';

// ---------------------------------------------------------------- password reset

/**
 * `forgot-password` takes the e-mail itself as the JSON body (a JSON string), or `{ email }`;
 * anything else is 'Некорректный email'. `forgotPasswordEmail` reads the address of either.
 */
export const forgotPasswordRequestSchema = z.union(
  [emailSchema, z.object({ email: emailSchema })],
  { error: EMAIL_INVALID },
);
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

export function forgotPasswordEmail(body: ForgotPasswordRequest): string {
  return typeof body === 'string' ? body : body.email;
}
export const forgotPasswordAnswerSchema = messageAnswerSchema;
export type ForgotPasswordAnswer = z.infer<typeof forgotPasswordAnswerSchema>;

/** The reset code: at least 6 characters (the form's rule), and the server only issues 6 digits. */
export const resetCodeSchema = z
  .string({ error: RESET_CODE_REQUIRED })
  .overwrite(normalizeTypedCode)
  .min(RESET_CODE_MIN_LENGTH, { error: RESET_CODE_REQUIRED, abort: true })
  .regex(/^\d{6}$/, CODE_WRONG);

export const resetPasswordRequestSchema = z.object({
  email: emailSchema,
  newPassword: passwordSchema,
  code: resetCodeSchema,
  /**
   * Ours: end every session of the account together with the reset, so no later call can fail
   * and leave a thief signed in. Absent or false: sessions stay (clients that do not send it
   * follow with `logout-all { email, code }`).
   */
  logoutEverywhere: z.boolean().optional(),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;
export const resetPasswordAnswerSchema = messageAnswerSchema;
export type ResetPasswordAnswer = z.infer<typeof resetPasswordAnswerSchema>;

/** Reset step 1: the e-mail whose password was forgotten. */
export const resetEmailFormSchema = z.object({ email: emailSchema });
export type ResetEmailForm = z.infer<typeof resetEmailFormSchema>;

/** Reset step 2: code of at least 6, new password by the rule, repeat equal. */
export const resetPasswordFormSchema = z
  .object({
    code: z
      .string({ error: RESET_CODE_REQUIRED })
      .overwrite(normalizeTypedCode)
      .min(RESET_CODE_MIN_LENGTH, RESET_CODE_REQUIRED),
    newPassword: passwordSchema,
    repeatPassword: z.string(),
    // 'Выйти из всех активных сеансов входа', checked by default.
    logoutAll: z.boolean(),
  })
  .refine((form) => form.newPassword === form.repeatPassword, {
    path: ['repeatPassword'],
    error: PASSWORDS_DO_NOT_MATCH,
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

/**
 * Sign out everywhere after a reset, when the reset form's box was ticked. Six digits alone do
 * not identify an account, so the e-mail comes along; the server accepts the pair once, shortly
 * after that reset.
 */
export const logoutAllRequestSchema = z.object({
  email: emailSchema,
  code: oneTimeCodeSchema,
});
export type LogoutAllRequest = z.infer<typeof logoutAllRequestSchema>;
export const logoutAllAnswerSchema = messageAnswerSchema;
export type LogoutAllAnswer = z.infer<typeof logoutAllAnswerSchema>;

// ---------------------------------------------------------------- two-factor (authenticator app)

export const twoFactorEnableAnswerSchema = z.object({
  /** A PNG as base64 (no `data:` prefix). */
  qrCode: z.string(),
  secret: z.string(),
  otpauthUrl: z.string(),
});
export type TwoFactorEnableAnswer = z.infer<typeof twoFactorEnableAnswerSchema>;

/** `2fa/verify`: the code the app shows for the pending secret. */
export const twoFactorCodeRequestSchema = z.object({ code: oneTimeCodeSchema });
export type TwoFactorCodeRequest = z.infer<typeof twoFactorCodeRequestSchema>;
export const twoFactorCodeAnswerSchema = messageAnswerSchema;
export type TwoFactorCodeAnswer = z.infer<typeof twoFactorCodeAnswerSchema>;

/** The first code of a new authenticator, as the web form takes it: 1–6 digits, else 'Заполните поле'. */
export const twoFactorSetupFormSchema = z.object({
  code: z
    .string({ error: FIELD_REQUIRED })
    .overwrite(normalizeTypedCode)
    .regex(new RegExp(`^\\d{1,${TWO_FACTOR_SETUP_CODE_MAX_LENGTH}}$`), FIELD_REQUIRED),
});
export type TwoFactorSetupForm = z.infer<typeof twoFactorSetupFormSchema>;

// ---------------------------------------------------------------- recovery codes

/** Ten symbols of Crockford Base32 (no i, l, o, u); case, dashes and spaces are forgiven. */
export function isRecoveryCodeShaped(value: string): boolean {
  return /^[0-9a-hjkmnp-tv-z]{10}$/.test(value.toLowerCase().replace(/[\s-]/g, ''));
}

// Ours: the recovery-code field of the login form ('Использовать резервный код').
export const RECOVERY_CODE_REQUIRED = 'Введите резервный код';
export const RECOVERY_CODE_INVALID =
  'Резервный код состоит из 10 букв и цифр, например k3f9q-7wx2m';

/** A recovery code as typed, shown as `xxxxx-xxxxx` when issued. */
export const recoveryCodeSchema = z
  .string({ error: RECOVERY_CODE_REQUIRED })
  .overwrite(normalizeTypedCode)
  .min(1, { error: RECOVERY_CODE_REQUIRED, abort: true })
  .refine(isRecoveryCodeShaped, RECOVERY_CODE_INVALID);

/** Where a second factor is asked for: the authenticator's six digits or a recovery code. */
export const secondFactorCodeSchema = z
  .string({ error: CODE_WRONG })
  .overwrite(normalizeTypedCode)
  .refine((value) => /^\d{6}$/.test(value) || isRecoveryCodeShaped(value), CODE_WRONG);

/** `2fa/disable` and `2fa/recovery-codes`: a valid authenticator code or recovery code. */
export const twoFactorConfirmRequestSchema = z.object({ code: secondFactorCodeSchema });
export type TwoFactorConfirmRequest = z.infer<typeof twoFactorConfirmRequestSchema>;

/**
 * `2fa/verify` (the authenticator switched on) and `2fa/recovery-codes` (renewed): ten single-use
 * recovery codes, shown once and stored only hashed.
 */
export const recoveryCodesAnswerSchema = z.object({
  message: z.string(),
  recoveryCodes: z.array(z.string()),
});
export type RecoveryCodesAnswer = z.infer<typeof recoveryCodesAnswerSchema>;

/** `GET 2fa/status`: whether the authenticator is on, and how many recovery codes are unspent. */
export const twoFactorStatusAnswerSchema = z.object({
  isEnabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatusAnswer = z.infer<typeof twoFactorStatusAnswerSchema>;

// ---------------------------------------------------------------- password change

/** `/{product}/auth/password/change`: `product` names one of the brand's products. */
export const passwordChangeParamsSchema = z.object({ product: z.string().min(1) });
export type PasswordChangeParams = z.infer<typeof passwordChangeParamsSchema>;

/**
 * Needs the current password and a fresh confirmation code: an e-mail code, or
 * the authenticator code when two-factor is on.
 */
export const passwordChangeRequestSchema = z.object({
  oldPassword: z.string({ error: OLD_PASSWORD_REQUIRED }).min(1, OLD_PASSWORD_REQUIRED),
  newPassword: passwordSchema,
  code: oneTimeCodeSchema,
  /** Ends every other session of the account together with the change. */
  logoutOtherSessions: z.boolean().optional(),
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;

export const passwordChangeAnswerSchema = z.object({
  status: answerStatusSchema,
  message: z.string(),
});
export type PasswordChangeAnswer = z.infer<typeof passwordChangeAnswerSchema>;

/** The password-update form: current password, new password by the rule, repeat equal. */
export const passwordChangeFormSchema = z
  .object({
    oldPassword: z.string({ error: OLD_PASSWORD_REQUIRED }).min(1, OLD_PASSWORD_REQUIRED),
    newPassword: passwordSchema,
    repeatPassword: z.string(),
  })
  .refine((form) => form.newPassword === form.repeatPassword, {
    path: ['repeatPassword'],
    error: PASSWORDS_DO_NOT_MATCH,
  });
export type PasswordChangeForm = z.infer<typeof passwordChangeFormSchema>;

// ---------------------------------------------------------------- password change: segment and code

/**
 * The `{product}` segment of `/{product}/auth/password/change` for this portal. Sibling
 * products of the brand would have their own; this server answers only its own.
 */
export const PASSWORD_CHANGE_PRODUCT = 'portal';

/** `/{product}/auth/password/change-code`: mails the confirmation code (no body). */
export const passwordChangeCodeAnswerSchema = z.object({
  status: answerStatusSchema,
  message: z.string(),
});
export type PasswordChangeCodeAnswer = z.infer<typeof passwordChangeCodeAnswerSchema>;

/**
 * `/{product}/auth/password/change-code/check`: whether the mailed code is right, before the
 * form asks for the passwords. The code is not used up; a wrong one costs one of its tries.
 */
export const passwordChangeCodeCheckRequestSchema = z.object({ code: oneTimeCodeSchema });
export type PasswordChangeCodeCheckRequest = z.infer<typeof passwordChangeCodeCheckRequestSchema>;
export const passwordChangeCodeCheckAnswerSchema = passwordChangeCodeAnswerSchema;
export type PasswordChangeCodeCheckAnswer = z.infer<typeof passwordChangeCodeCheckAnswerSchema>;

// ---------------------------------------------------------------- a fresh proof of the owner

/**
 * How a session proves its owner before a change of factors: the current password, the
 * authenticator's code (or a recovery code) when it is on, or a code mailed to the confirmed
 * address (every account has one).
 */
export const proofMethodSchema = z.enum(['password', 'authenticator', 'email']);
export type ProofMethod = z.infer<typeof proofMethodSchema>;

/** `GET …/Auth/proof`: the ways this account can prove itself, and until when it is proved. */
export const proofStatusAnswerSchema = z.object({
  methods: z.array(proofMethodSchema),
  /** null: the session has no proof in force. */
  provenUntil: timestampSchema.nullable(),
});
export type ProofStatusAnswer = z.infer<typeof proofStatusAnswerSchema>;

/** `POST …/Auth/proof`: exactly one of the three. */
export const proofRequestSchema = z
  .object({
    password: z.string({ error: OLD_PASSWORD_REQUIRED }).min(1, OLD_PASSWORD_REQUIRED).optional(),
    code: secondFactorCodeSchema.optional(),
    emailCode: oneTimeCodeSchema.optional(),
  })
  .superRefine((proof, context) => {
    const given = [proof.password, proof.code, proof.emailCode].filter((v) => v !== undefined);
    if (given.length === 1) return;
    context.addIssue({
      code: 'custom',
      path: given.length === 0 ? ['password'] : [],
      message: given.length === 0 ? OLD_PASSWORD_REQUIRED : PROOF_ONE_ANSWER,
    });
  });
export type ProofRequest = z.infer<typeof proofRequestSchema>;

export const proofAnswerSchema = z.object({
  message: z.string(),
  provenUntil: timestampSchema,
});
export type ProofAnswer = z.infer<typeof proofAnswerSchema>;

/** `POST …/Auth/proof/email-code`: mails the code (no body). */
export const proofCodeAnswerSchema = messageAnswerSchema;
export type ProofCodeAnswer = z.infer<typeof proofCodeAnswerSchema>;

// ---------------------------------------------------------------- «Это был не я»

/**
 * The link of a sign-in alert (the letter, the Telegram notice): `/not-me?token=…`. The page asks
 * for a confirmation and POSTs the token; a GET alone (a mail scanner) changes nothing.
 */
export const notMeRequestSchema = z.object({ token: z.string().trim().min(1).max(300) });
export type NotMeRequest = z.infer<typeof notMeRequestSchema>;

/**
 * Every session of the account ended and a reset code mailed to `email`: the page opens the
 * reset's code step for that address. `resendAfterSeconds`: when another code may be asked for.
 */
export const notMeAnswerSchema = z.object({
  message: z.string(),
  email: z.string(),
  resendAfterSeconds: z.number().int().min(0),
});
export type NotMeAnswer = z.infer<typeof notMeAnswerSchema>;

// ---------------------------------------------------------------- sign-in alerts

/** The profile's switch «Оповещения о входе с нового устройства на почту». */
export const signInAlertsRequestSchema = z.object({ byEmail: z.boolean() });
export type SignInAlertsRequest = z.infer<typeof signInAlertsRequestSchema>;
export const signInAlertsAnswerSchema = z.object({ message: z.string(), byEmail: z.boolean() });
export type SignInAlertsAnswer = z.infer<typeof signInAlertsAnswerSchema>;
