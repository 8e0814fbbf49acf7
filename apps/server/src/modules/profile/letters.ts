import { PAGES } from '@portal/contracts/page-paths';
import type { CodeLetterInput, Letter, LetterConfig } from '../../adapters/mail-letter.js';
import { codeLetter, composeLetter, greetingOf, maskEmail } from '../../adapters/mail-letter.js';

export function currentEmailCodeLetter(config: LetterConfig, input: CodeLetterInput): Letter {
  return codeLetter(config, input, {
    subject: 'код для смены почты',
    paragraphs: ['Вы меняете почту аккаунта. Код подтверждения текущей почты:'],
    footer: 'Если вы не меняли почту, не сообщайте код никому и смените пароль.',
  });
}

export function newEmailCodeLetter(config: LetterConfig, input: CodeLetterInput): Letter {
  return codeLetter(config, input, {
    subject: 'подтверждение новой почты',
    paragraphs: [
      `Этот адрес указан как новая почта аккаунта ${config.BRAND_NAME}. Код подтверждения:`,
    ],
    footer: 'Если это были не вы, просто проигнорируйте письмо: без кода почта не изменится.',
  });
}

/**
 * The new-address code when another account already holds that address: the caller is answered
 * exactly as for a free address, so only the mailbox learns the truth (and step 4 refuses).
 */
export function takenEmailCodeLetter(config: LetterConfig, input: CodeLetterInput): Letter {
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
    greeting: greetingOf(input.firstName),
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
