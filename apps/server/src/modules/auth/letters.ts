import { ONE_TIME_CODE_TTL_MINUTES } from '@portal/contracts/constants';
import { composeLetter, type Letter } from '../../adapters/mail-letter.js';
import type { Config } from '../../config.js';

type LetterConfig = Pick<Config, 'BRAND_NAME' | 'PUBLIC_URL'>;

export function registrationCodeLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; userName: string; code: string; expiresAt: Date },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'код подтверждения регистрации',
    greeting: `Здравствуйте, ${input.firstName}!`,
    paragraphs: [
      `Вы регистрируетесь в ${config.BRAND_NAME} с никнеймом «${input.userName}». Код подтверждения почты:`,
    ],
    code: input.code,
    expiresAt: input.expiresAt,
    afterCode: [`Код действует ${ONE_TIME_CODE_TTL_MINUTES} минут.`],
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
    action: {
      label: 'Восстановить пароль',
      url: new URL('/reset-password', config.PUBLIC_URL).toString(),
    },
    footer: 'Если это были не вы, ничего делать не нужно: ваш аккаунт не изменился.',
  });
}
