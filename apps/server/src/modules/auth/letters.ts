import { LOGIN_PAUSED_RECOVERY } from '@portal/contracts/messages';
import { PAGES } from '@portal/contracts/page-paths';
import type { CodeLetterInput, Letter, LetterConfig } from '../../adapters/mail-letter.js';
import { codeLetter, composeLetter, greetingOf } from '../../adapters/mail-letter.js';
import { describeMoment } from '../security-log/index.js';

export function registrationCodeLetter(
  config: LetterConfig,
  input: CodeLetterInput & { userName: string },
): Letter {
  return codeLetter(config, input, {
    subject: 'код подтверждения регистрации',
    paragraphs: [
      `Вы регистрируетесь в ${config.BRAND_NAME} с никнеймом «${input.userName}». Код подтверждения почты:`,
    ],
    footer:
      'Если вы не регистрировались, просто проигнорируйте это письмо: без кода регистрация не завершится.',
  });
}

/** To the owner of an address someone tried to register again (the caller learns nothing). */
export function registrationAttemptLetter(config: LetterConfig, input: { to: string }): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'попытка регистрации с вашей почтой',
    greeting: 'Здравствуйте!',
    paragraphs: [
      `Кто-то пытался зарегистрировать новый аккаунт в ${config.BRAND_NAME} с этим адресом почты, но у вас уже есть аккаунт.`,
      'Если это были вы, просто войдите. Если вы не помните пароль, его можно восстановить.',
    ],
    action: { label: LOGIN_PAUSED_RECOVERY, url: resetPasswordLink(config) },
    footer: 'Если это были не вы, ничего делать не нужно: ваш аккаунт не изменился.',
  });
}

const resetPasswordLink = (config: LetterConfig) =>
  new URL(PAGES.resetPassword, config.PUBLIC_URL).toString();

/**
 * To the owner of an account whose sign-in started to wait after wrong passwords or codes: one
 * letter per wait (`LoginThrottle.onLockStarted`), with its start and end in Moscow time.
 */
export function accountLockedLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; startedAt: Date; lockedUntil: Date },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'вход в аккаунт приостановлен',
    greeting: greetingOf(input.firstName),
    paragraphs: [
      `В ${config.BRAND_NAME} было слишком много неверных попыток войти в ваш аккаунт, поэтому вход приостановлен ${describeMoment(input.startedAt)} до ${describeMoment(input.lockedUntil)}.`,
      'Если это были вы и вы не помните пароль, его можно восстановить. Если это были не вы, кто-то подбирает ваш пароль: смените его на новый, которого нет на других сайтах.',
    ],
    action: { label: LOGIN_PAUSED_RECOVERY, url: resetPasswordLink(config) },
    footer: 'Пока вход приостановлен, никакой пароль не проверяется, даже верный.',
  });
}
