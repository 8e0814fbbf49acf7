import { z } from 'zod';
import {
  cleanNameRule,
  emailSchema,
  errorAnswerSchema,
  messageAnswerSchema,
  normalizeTypedCode,
  oneTimeCodeSchema,
  passwordSchema,
  timestampSchema,
  usernameCharactersProblem,
  withoutSpaces,
} from './common';
import {
  LOGIN_TWO_FACTOR_CODE_LENGTH,
  NAME_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants';
import {
  CONSENT_REQUIRED,
  LINK_INVALID,
  LOGIN_REQUIRED,
  NAME_REQUIRED,
  PASSWORD_REQUIRED,
  PASSWORDS_DO_NOT_MATCH,
  TOKEN_INVALID,
  TWO_FACTOR_CODE_LENGTH,
  TWO_FACTOR_CODE_REQUIRED,
  USERNAME_REQUIRED,
  USERNAME_TOO_LONG,
  USERNAME_TOO_SHORT,
} from './messages';
import { passkeyAssertionSchema, passkeyRequestOptionsSchema } from './passkeys';
import { isRecoveryCodeShaped, recoveryCodeSchema } from './security';

// ---------------------------------------------------------------- login

/** The second-factor code of the login form: exactly 6 characters. */
export const twoFactorCodeSchema = z
  .string({ error: TWO_FACTOR_CODE_REQUIRED })
  .overwrite(normalizeTypedCode)
  .min(1, { error: TWO_FACTOR_CODE_REQUIRED, abort: true })
  .length(LOGIN_TWO_FACTOR_CODE_LENGTH, TWO_FACTOR_CODE_LENGTH);

/**
 * What the login call accepts as the second factor: the authenticator's six characters, or a
 * recovery code, which the form's 'Использовать резервный код' switch sends in the same
 * `twoFactorCode` field (the form then checks it with `recoveryCodeSchema` of ./security).
 */
export const loginSecondFactorSchema = z
  .string({ error: TWO_FACTOR_CODE_REQUIRED })
  .overwrite(normalizeTypedCode)
  .min(1, { error: TWO_FACTOR_CODE_REQUIRED, abort: true })
  .refine(
    (value) => value.length === LOGIN_TWO_FACTOR_CODE_LENGTH || isRecoveryCodeShaped(value),
    TWO_FACTOR_CODE_LENGTH,
  );

export const loginRequestSchema = z.object({
  usernameOrEmail: z.string({ error: LOGIN_REQUIRED }).trim().min(1, LOGIN_REQUIRED),
  // Not the password rule: a login only needs a non-empty password.
  password: z.string({ error: PASSWORD_REQUIRED }).min(1, PASSWORD_REQUIRED),
  rememberMe: z.boolean().optional(),
  twoFactorCode: loginSecondFactorSchema.optional(),
  /**
   * The passkey as the second step: the browser's answer to the `passkeyOptions` of the
   * previous `requiresTwoFactor` answer (./passkeys).
   */
  passkey: passkeyAssertionSchema.optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** The login form before the server asked for a second factor. */
export const loginFormSchema = loginRequestSchema.omit({ twoFactorCode: true, passkey: true });
export type LoginForm = z.infer<typeof loginFormSchema>;

/** The login form once the server answered `requiresTwoFactor`. */
export const loginTwoFactorFormSchema = loginRequestSchema.extend({
  twoFactorCode: twoFactorCodeSchema,
});
export type LoginTwoFactorForm = z.infer<typeof loginTwoFactorFormSchema>;

/** The login form when the user chose 'Использовать резервный код'. */
export const loginRecoveryFormSchema = loginRequestSchema.extend({
  twoFactorCode: recoveryCodeSchema,
});
export type LoginRecoveryForm = z.infer<typeof loginRecoveryFormSchema>;

export const loginSuccessAnswerSchema = z.object({ token: z.string(), userId: z.string() });
/**
 * A second step is needed. With `passkeyOptions` it is the account's passkey (the account has
 * passkeys and no authenticator): the browser signs these options and the login is sent again
 * with the answer in `passkey`. Without it, the authenticator's code.
 */
export const loginTwoFactorAnswerSchema = z.object({
  requiresTwoFactor: z.literal(true),
  passkeyOptions: passkeyRequestOptionsSchema.optional(),
});
export const loginAnswerSchema = z.union([loginSuccessAnswerSchema, loginTwoFactorAnswerSchema]);
export type LoginSuccessAnswer = z.infer<typeof loginSuccessAnswerSchema>;
export type LoginTwoFactorAnswer = z.infer<typeof loginTwoFactorAnswerSchema>;
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;

/**
 * A code is on its way to an unconfirmed address: where it went and the seconds until another may
 * be asked for. The 403 of a login to an unconfirmed account carries it (the password was right,
 * so the address is the caller's own), so a sign-in by username can open the code step too.
 */
export const pendingConfirmationSchema = z.object({
  email: z.string(),
  resendAfterSeconds: z.number().int().nonnegative(),
});
export type PendingConfirmation = z.infer<typeof pendingConfirmationSchema>;
export const loginNotConfirmedAnswerSchema = errorAnswerSchema.extend({
  confirmation: pendingConfirmationSchema,
});

/** Login's 403: the address is not confirmed (with `confirmation`), or the account is blocked. */
export const loginForbiddenAnswerSchema = errorAnswerSchema.extend({
  confirmation: pendingConfirmationSchema.optional(),
});

// ---------------------------------------------------------------- register

/**
 * The username at registration: spaces are stripped (the form strips them as
 * typed), required, Latin letters, digits and `_ . -` only, and the profile's
 * 3–16 length so that a name chosen here can later be saved unchanged on the profile.
 */
export const usernameSchema = z
  .string({ error: USERNAME_REQUIRED })
  .overwrite(withoutSpaces)
  .min(1, { error: USERNAME_REQUIRED, abort: true })
  .superRefine((value, context) => {
    const problem = usernameCharactersProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .min(USERNAME_MIN_LENGTH, USERNAME_TOO_SHORT)
  .max(USERNAME_MAX_LENGTH, USERNAME_TOO_LONG);

export const firstNameSchema = cleanNameRule(z.string({ error: NAME_REQUIRED })).min(
  1,
  NAME_REQUIRED,
);

/** May be empty: a one-word name has no last name. */
export const lastNameSchema = cleanNameRule(z.string());

export const registerRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  username: usernameSchema,
  firstName: firstNameSchema,
  lastName: lastNameSchema,
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;
export const registerAnswerSchema = messageAnswerSchema;
export type RegisterAnswer = z.infer<typeof registerAnswerSchema>;

/** The registration form of the web app: one name field, the password twice, consent. */
export const registerFormSchema = z
  .object({
    email: emailSchema,
    // One field for the full name; `splitFullName` makes first and last name of it.
    name: cleanNameRule(z.string({ error: NAME_REQUIRED }), NAME_MAX_LENGTH * 2).min(
      1,
      NAME_REQUIRED,
    ),
    username: usernameSchema,
    password: passwordSchema,
    confirmPassword: z.string(),
    // The form keeps submit disabled until ticked; the message is a safety net.
    consent: z.boolean().refine((value) => value, CONSENT_REQUIRED),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    error: PASSWORDS_DO_NOT_MATCH,
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

/** 'Иван Петров Сидоров' → first 'Иван', last 'Петров Сидоров' (split by spaces). */
export function splitFullName(name: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

export function registerFormToRequest(form: RegisterForm): RegisterRequest {
  return {
    email: form.email,
    password: form.password,
    username: form.username,
    ...splitFullName(form.name),
  };
}

export const verifyRegistrationRequestSchema = z.object({
  code: oneTimeCodeSchema,
  email: emailSchema,
});
export type VerifyRegistrationRequest = z.infer<typeof verifyRegistrationRequestSchema>;

export const verifyRegistrationAnswerSchema = z.object({
  message: z.string(),
  userId: z.string(),
  token: z.string(),
});
export type VerifyRegistrationAnswer = z.infer<typeof verifyRegistrationAnswerSchema>;

// ---------------------------------------------------------------- tokens

/** Sibling services check an access token or redeem a hand-off code. */
export const verifyTokenRequestSchema = z.object({
  token: z.string({ error: TOKEN_INVALID }).trim().min(1, TOKEN_INVALID),
});
export type VerifyTokenRequest = z.infer<typeof verifyTokenRequestSchema>;

/** `token` is present when a hand-off code was redeemed: the sibling's own new session. */
export const verifyTokenAnswerSchema = z.object({
  userId: z.string(),
  token: z.string().optional(),
});
export type VerifyTokenAnswer = z.infer<typeof verifyTokenAnswerSchema>;

/**
 * SSO hand-off: the web app asks for a sibling-site link carrying a
 * single-use code instead of the access token. Refused unless the link's origin
 * is allow-listed.
 */
export const handOffRequestSchema = z.object({
  link: z.url({ protocol: /^https?$/, error: LINK_INVALID }),
});
export type HandOffRequest = z.infer<typeof handOffRequestSchema>;

/** `url` is the link with the hand-off code in its `token` query parameter. */
export const handOffAnswerSchema = z.object({ url: z.string() });
export type HandOffAnswer = z.infer<typeof handOffAnswerSchema>;

export const logoutAnswerSchema = messageAnswerSchema;
export type LogoutAnswer = z.infer<typeof logoutAnswerSchema>;

// ---------------------------------------------------------------- user

/** The current user; field names as clients already read them, `phoneNamber` included. */
export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  phoneNamber: z.string().nullable(),
  userName: z.string(),
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  avatarUrl: z.string().nullable(),
  isTwoFactorEnabled: z.boolean(),
  yandexId: z.string().nullable(),
  telegramId: z.string().nullable(),
  /** Roubles with two decimals. */
  balance: z.number(),
  /** Cashback points, whole numbers (1 point = 1 rouble). */
  balanceStars: z.number().int(),
  /** Ours: the alert letter after a sign-in from a new device (the profile's switch). */
  signInAlertsByEmail: z.boolean(),
  /** Ours: whether the account has a password (one made through Yandex ID may have none). */
  hasPassword: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

// ---------------------------------------------------------------- devices

/** A device is a session: ending a device signs that session out. */
export const deviceSchema = z.object({
  id: z.string(),
  userAgent: z.string(),
  ipAddress: z.string().nullable(),
  lastActivity: timestampSchema,
  isCurrent: z.boolean(),
  /**
   * The site the session belongs to: 'Личный кабинет' (this portal), 'Хостинг', 'Лаунчер' for the
   * sessions handed to a sibling site, or another site's host. Servers before it did not send it.
   */
  site: z.string().optional(),
  /**
   * Ours: `session` a session of the portal (or handed to a sibling site), `site` a site's
   * sign-in through the portal's OpenID Provider: ending it signs out of that site only.
   */
  kind: z.enum(['session', 'site']).optional(),
});
export type Device = z.infer<typeof deviceSchema>;

export const devicesAnswerSchema = z.array(deviceSchema);
export type DevicesAnswer = z.infer<typeof devicesAnswerSchema>;

export const deviceParamsSchema = z.object({ id: z.string().min(1) });
export type DeviceParams = z.infer<typeof deviceParamsSchema>;
