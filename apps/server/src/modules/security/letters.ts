import { ONE_TIME_CODE_TTL_MINUTES } from '@portal/contracts/constants';
import { PAGES } from '@portal/contracts/page-paths';
import { composeLetter, type Letter } from '../../adapters/mail-letter.js';
import type { Config } from '../../config.js';

type LetterConfig = Pick<Config, 'BRAND_NAME' | 'PUBLIC_URL'>;

const greeting = (firstName: string) =>
  firstName.trim() ? `Здравствуйте, ${firstName.trim()}!` : 'Здравствуйте!';

export function resetCodeLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; code: string; expiresAt: Date },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'код для сброса пароля',
    greeting: greeting(input.firstName),
    paragraphs: ['Кто-то (надеемся, вы) запросил сброс пароля. Код для сброса:'],
    code: input.code,
    expiresAt: input.expiresAt,
    afterCode: [`Код действует ${ONE_TIME_CODE_TTL_MINUTES} минут.`],
    footer: 'Если вы не запрашивали сброс, просто проигнорируйте это письмо: пароль не изменится.',
  });
}

export function passwordChangeCodeLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; code: string; expiresAt: Date },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'код для смены пароля',
    greeting: greeting(input.firstName),
    paragraphs: ['Код подтверждения смены пароля:'],
    code: input.code,
    expiresAt: input.expiresAt,
    afterCode: [`Код действует ${ONE_TIME_CODE_TTL_MINUTES} минут.`],
    footer:
      'Если вы не меняли пароль, кто-то может пользоваться вашим аккаунтом: сбросьте пароль и завершите чужие сеансы на странице устройств.',
  });
}

/** The code that proves the owner before a change of the account's factors. */
export function proofCodeLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; code: string; expiresAt: Date },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'код подтверждения',
    greeting: greeting(input.firstName),
    paragraphs: [
      'Код, чтобы подтвердить, что это вы, перед изменением настроек безопасности аккаунта:',
    ],
    code: input.code,
    expiresAt: input.expiresAt,
    afterCode: [`Код действует ${ONE_TIME_CODE_TTL_MINUTES} минут.`],
    footer:
      'Если вы ничего не меняли, кто-то может пользоваться вашим аккаунтом: смените пароль и завершите чужие сеансы на странице устройств.',
  });
}

/** After a reset or a change: the owner learns of it even when it was not them. */
export function passwordChangedLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; how: 'reset' | 'change' },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'пароль изменён',
    greeting: greeting(input.firstName),
    paragraphs: [
      input.how === 'reset'
        ? 'Пароль вашего аккаунта был сброшен по коду из письма.'
        : 'Пароль вашего аккаунта был изменён в личном кабинете.',
    ],
    action: {
      label: 'Устройства и сеансы',
      url: new URL(PAGES.devices, config.PUBLIC_URL).toString(),
    },
    footer: 'Если это были не вы, сразу восстановите пароль и завершите чужие сеансы.',
  });
}

/** After a sign-in from a device the account has not used before (the owner may turn it off). */
export function newDeviceSignInLetter(
  config: LetterConfig,
  input: {
    to: string;
    firstName: string;
    userName: string;
    device: string;
    ipAddress: string;
    when: string;
    notMeUrl: string;
  },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'вход с нового устройства',
    greeting: greeting(input.firstName),
    paragraphs: [
      `В аккаунт ${input.userName} вошли с устройства, с которого раньше не входили.`,
      `Устройство: ${input.device}`,
      ...(input.ipAddress ? [`IP-адрес: ${input.ipAddress}`] : []),
      `Время: ${input.when}`,
      'Если это были вы, ничего делать не нужно. Если нет — нажмите кнопку ниже: мы завершим все сеансы аккаунта и поможем сменить пароль.',
    ],
    action: { label: 'Это был не я', url: input.notMeUrl },
    footer:
      'Ссылка действует 7 дней. Оповещения о входе с нового устройства можно выключить в разделе «Личные данные».',
  });
}
