import { PAGES } from '@portal/contracts/page-paths';
import type { CodeLetterInput, Letter, LetterConfig } from '../../adapters/mail-letter.js';
import { codeLetter, composeLetter, greetingOf } from '../../adapters/mail-letter.js';

export function resetCodeLetter(config: LetterConfig, input: CodeLetterInput): Letter {
  return codeLetter(config, input, {
    subject: 'код для сброса пароля',
    paragraphs: ['Кто-то (надеемся, вы) запросил сброс пароля. Код для сброса:'],
    footer: 'Если вы не запрашивали сброс, просто проигнорируйте это письмо: пароль не изменится.',
  });
}

export function passwordChangeCodeLetter(config: LetterConfig, input: CodeLetterInput): Letter {
  return codeLetter(config, input, {
    subject: 'код для смены пароля',
    paragraphs: ['Код подтверждения смены пароля:'],
    footer:
      'Если вы не меняли пароль, кто-то может пользоваться вашим аккаунтом: сбросьте пароль и завершите чужие сеансы на странице устройств.',
  });
}

/** The code that proves the owner before a change of the account's factors. */
export function proofCodeLetter(config: LetterConfig, input: CodeLetterInput): Letter {
  return codeLetter(config, input, {
    subject: 'код подтверждения',
    paragraphs: [
      'Код, чтобы подтвердить, что это вы, перед изменением настроек безопасности аккаунта:',
    ],
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
    greeting: greetingOf(input.firstName),
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
    greeting: greetingOf(input.firstName),
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
