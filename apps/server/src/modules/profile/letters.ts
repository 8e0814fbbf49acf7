import { ONE_TIME_CODE_TTL_MINUTES } from '@portal/contracts/constants';
import { PAGES } from '@portal/contracts/page-paths';
import { composeLetter, type Letter, maskEmail } from '../../adapters/mail-letter.js';
import type { Config } from '../../config.js';

type LetterConfig = Pick<Config, 'BRAND_NAME' | 'PUBLIC_URL'>;

export function currentEmailCodeLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; code: string; expiresAt: Date },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'код для смены почты',
    greeting: `Здравствуйте, ${input.firstName}!`,
    paragraphs: ['Вы меняете почту аккаунта. Код подтверждения текущей почты:'],
    code: input.code,
    expiresAt: input.expiresAt,
    afterCode: [`Код действует ${ONE_TIME_CODE_TTL_MINUTES} минут.`],
    footer: 'Если вы не меняли почту, не сообщайте код никому и смените пароль.',
  });
}

export function newEmailCodeLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; code: string; expiresAt: Date },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'подтверждение новой почты',
    greeting: `Здравствуйте, ${input.firstName}!`,
    paragraphs: [
      `Этот адрес указан как новая почта аккаунта ${config.BRAND_NAME}. Код подтверждения:`,
    ],
    code: input.code,
    expiresAt: input.expiresAt,
    afterCode: [`Код действует ${ONE_TIME_CODE_TTL_MINUTES} минут.`],
    footer: 'Если это были не вы, просто проигнорируйте письмо: без кода почта не изменится.',
  });
}

/**
 * The new-address code when another account already holds that address: the caller is answered
 * exactly as for a free address, so only the mailbox learns the truth (and step 4 refuses).
 */
export function takenEmailCodeLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; code: string; expiresAt: Date },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'попытка указать вашу почту',
    greeting: 'Здравствуйте!',
    paragraphs: [
      `Этот адрес указали как новую почту аккаунта ${config.BRAND_NAME}, но к нему уже привязан аккаунт, поэтому сменить почту на этот адрес нельзя. Код подтверждения:`,
    ],
    code: input.code,
    expiresAt: input.expiresAt,
    afterCode: ['После ввода кода смена почты будет отклонена: адрес уже используется.'],
    footer: 'Если это были не вы, ничего делать не нужно: ваш аккаунт не изменился.',
  });
}

/** To the old address once the change is done, so a hijacked change does not go unnoticed. */
export function emailChangedNoticeLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; newEmail: string },
): Letter {
  const masked = maskEmail(input.newEmail);
  return composeLetter(config, {
    to: input.to,
    subject: 'почта аккаунта изменена',
    greeting: `Здравствуйте, ${input.firstName}!`,
    paragraphs: [
      `Почта вашего аккаунта ${config.BRAND_NAME} изменена на ${masked}. Письма теперь приходят туда.`,
    ],
    action: {
      label: 'Восстановить доступ',
      url: new URL(PAGES.resetPassword, config.PUBLIC_URL).toString(),
    },
    footer: 'Если это были не вы, сразу обратитесь в поддержку.',
  });
}
