import { z } from 'zod';
import { timestampSchema } from './common';

/**
 * What the account's security log records (apps/server/src/modules/security-log). A kind is added
 * here first: the server writes only kinds listed here, and the web must word each one
 * (`SECURITY_EVENT_TEXTS` below; the `Record` type refuses a kind without its text).
 */
export const SECURITY_EVENT_KINDS = [
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'session_ended',
  'sessions_ended',
  'password_changed',
  'password_reset',
  'two_factor_enabled',
  'two_factor_disabled',
  'recovery_code_used',
  'email_changed',
  'telegram_linked',
  'telegram_unlinked',
  'yandex_linked',
  'yandex_unlinked',
  'hand_off',
  // A site signed in through the portal's OpenID Provider (apps/server/src/modules/oidc).
  'site_sign_in',
  'passkey_added',
  'passkey_removed',
  'data_exported',
  'not_me',
  'deletion_scheduled',
  'deletion_cancelled',
  // By support, with the operator's tool (apps/server/src/modules/operator) or the staff pages
  // (apps/server/src/modules/staff): the log says that support acted, never who.
  'blocked',
  'unblocked',
  'sessions_ended_by_support',
  'sign_in_unlocked_by_support',
  'second_factors_reset_by_support',
] as const;
export const securityEventKindSchema = z.enum(SECURITY_EVENT_KINDS);
export type SecurityEventKind = z.infer<typeof securityEventKindSchema>;

/** How a sign-in got in; `telegram` is reserved for a Telegram sign-in, which does not exist yet. */
export const signInMethodSchema = z.enum([
  'password',
  'registration',
  'yandex',
  'telegram',
  'passkey',
]);
export type SignInMethod = z.infer<typeof signInMethodSchema>;

/**
 * How the person proved themselves at a sign-in (`amr`, RFC 8176): `pwd` a password, `otp` the
 * authenticator's or a recovery code, `hwk` a passkey, `mfa` a passkey that verified its user
 * (two factors at once), `ext` another provider (Yandex ID), `email` a code mailed to the address.
 */
export const amrSchema = z.enum(['pwd', 'otp', 'hwk', 'mfa', 'ext', 'email']);
export type Amr = z.infer<typeof amrSchema>;

/** What an event says beyond its kind; each field belongs to the kinds its comment names. */
export const securityEventDetailsSchema = z.object({
  /** sign_in */
  method: signInMethodSchema.optional(),
  /** sign_in: the second factor given with it. */
  secondFactor: z.enum(['authenticator', 'recovery_code', 'passkey']).optional(),
  /** sign_in: how the person proved themselves, e.g. ['pwd', 'otp'] (amrSchema). */
  amr: z.array(amrSchema).optional(),
  /** sign_in: the first sign-in of the account from this browser (its user agent) in the log. */
  isNewDevice: z.boolean().optional(),
  /**
   * hand_off: the sibling site's name («Хостинг»); sign_out: the site of a handed-over session;
   * site_sign_in, session_ended: the site signed in through the portal (its client's name).
   */
  site: z.string().optional(),
  /** session_ended: where it was ended (the devices page, or the Telegram bot's button). */
  via: z.enum(['devices', 'telegram']).optional(),
  /** sessions_ended: whether the session that asked kept going. */
  isCurrentKept: z.boolean().optional(),
  /** password_changed, password_reset: whether the other sessions were ended with it. */
  isSignedOutElsewhere: z.boolean().optional(),
  /** deletion_cancelled: how (the letter's link, the profile's button, or a sign-in). */
  cancelledBy: z.enum(['letter', 'sign_in']).optional(),
});
export type SecurityEventDetails = z.infer<typeof securityEventDetailsSchema>;

export const securityEventSchema = z.object({
  id: z.string(),
  kind: securityEventKindSchema,
  /** When it happened; for sign_in_failed, the latest failure of that day. */
  occurredAt: timestampSchema,
  /** sign_in_failed: the failures of that day (UTC); 1 for every other kind. */
  count: z.number().int().min(1),
  /** The browser's user agent as sent ('' when unknown: the Telegram bot, a job). */
  userAgent: z.string(),
  ipAddress: z.string().nullable(),
  details: securityEventDetailsSchema,
});
export type SecurityEvent = z.infer<typeof securityEventSchema>;

/** The page size the web asks for, as the wallet history's. */
export const SECURITY_LOG_PAGE_SIZE = 20;

/** Newest first; pass `nextCursor` back as `cursor` for the next page. */
export const securityLogQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export type SecurityLogQuery = z.infer<typeof securityLogQuerySchema>;

export const securityLogAnswerSchema = z.object({
  data: z.array(securityEventSchema),
  nextCursor: z.string().nullable(),
});
export type SecurityLogAnswer = z.infer<typeof securityLogAnswerSchema>;

/** Each kind in plain words; `describeSecurityEvent` adds what the details say. */
export const SECURITY_EVENT_TEXTS: Record<SecurityEventKind, string> = {
  sign_in: 'Вход',
  sign_in_failed: 'Неудачные попытки входа',
  sign_out: 'Выход из аккаунта',
  session_ended: 'Завершён сеанс на другом устройстве',
  sessions_ended: 'Завершены все сеансы',
  password_changed: 'Пароль изменён',
  password_reset: 'Пароль восстановлен по почте',
  two_factor_enabled: 'Двухфакторная защита включена',
  two_factor_disabled: 'Двухфакторная защита выключена',
  recovery_code_used: 'Использован резервный код',
  email_changed: 'Почта изменена',
  telegram_linked: 'Привязан Telegram',
  telegram_unlinked: 'Отвязан Telegram',
  yandex_linked: 'Привязан Яндекс ID',
  yandex_unlinked: 'Отвязан Яндекс ID',
  hand_off: 'Переход на сайт',
  site_sign_in: 'Вход на сайт',
  passkey_added: 'Добавлен ключ доступа',
  passkey_removed: 'Удалён ключ доступа',
  data_exported: 'Выгружены данные аккаунта',
  not_me: 'Вход отмечен как чужой: все сеансы завершены',
  deletion_scheduled: 'Запрошено удаление аккаунта',
  deletion_cancelled: 'Удаление аккаунта отменено',
  blocked: 'Аккаунт заблокирован службой поддержки',
  unblocked: 'Аккаунт разблокирован службой поддержки',
  sessions_ended_by_support: 'Все сеансы завершены службой поддержки',
  sign_in_unlocked_by_support: 'Служба поддержки сняла ожидание входа после неверных попыток',
  second_factors_reset_by_support:
    'Служба поддержки выключила второй шаг входа: приложение-аутентификатор и ключи доступа',
};

const SIGN_IN_TEXTS: Record<SignInMethod, string> = {
  password: 'Вход по паролю',
  registration: 'Вход после подтверждения почты',
  yandex: 'Вход через Яндекс ID',
  telegram: 'Вход через Telegram',
  passkey: 'Вход с ключом доступа',
};

const SECOND_FACTOR_TEXTS = {
  authenticator: 'и коду из приложения',
  recovery_code: 'и резервному коду',
  passkey: 'и ключу доступа',
} as const;

/** The marker of a sign-in from a browser the log has not seen the account use before. */
export const NEW_DEVICE_TEXT = 'Новое устройство';

/** The line a person reads for an event, e.g. «Вход по паролю и коду из приложения». */
export function describeSecurityEvent(event: Pick<SecurityEvent, 'kind' | 'count' | 'details'>) {
  const { details } = event;
  switch (event.kind) {
    case 'sign_in': {
      const base = SIGN_IN_TEXTS[details.method ?? 'password'];
      return details.secondFactor ? `${base} ${SECOND_FACTOR_TEXTS[details.secondFactor]}` : base;
    }
    case 'sign_in_failed':
      return `${SECURITY_EVENT_TEXTS.sign_in_failed}: ${event.count}`;
    case 'sign_out':
      return details.site
        ? `${SECURITY_EVENT_TEXTS.sign_out} на сайте «${details.site}»`
        : SECURITY_EVENT_TEXTS.sign_out;
    case 'session_ended':
      if (details.site) return `${SECURITY_EVENT_TEXTS.sign_out} на сайте «${details.site}»`;
      return details.via === 'telegram'
        ? `${SECURITY_EVENT_TEXTS.session_ended} через Telegram`
        : SECURITY_EVENT_TEXTS.session_ended;
    case 'sessions_ended':
      return details.isCurrentKept
        ? `${SECURITY_EVENT_TEXTS.sessions_ended}, кроме текущего`
        : SECURITY_EVENT_TEXTS.sessions_ended;
    case 'password_changed':
      return details.isSignedOutElsewhere
        ? `${SECURITY_EVENT_TEXTS.password_changed}, другие сеансы завершены`
        : SECURITY_EVENT_TEXTS.password_changed;
    case 'password_reset':
      return details.isSignedOutElsewhere
        ? `${SECURITY_EVENT_TEXTS.password_reset}, все сеансы завершены`
        : SECURITY_EVENT_TEXTS.password_reset;
    case 'deletion_cancelled':
      return details.cancelledBy === 'sign_in'
        ? `${SECURITY_EVENT_TEXTS.deletion_cancelled}: выполнен вход`
        : SECURITY_EVENT_TEXTS.deletion_cancelled;
    case 'site_sign_in':
      return details.site
        ? `${SECURITY_EVENT_TEXTS.site_sign_in} «${details.site}»`
        : SECURITY_EVENT_TEXTS.site_sign_in;
    case 'hand_off':
      return details.site
        ? `${SECURITY_EVENT_TEXTS.hand_off} «${details.site}»`
        : SECURITY_EVENT_TEXTS.hand_off;
    default:
      return SECURITY_EVENT_TEXTS[event.kind];
  }
}
