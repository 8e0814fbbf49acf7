import { PAGES } from '@portal/contracts/page-paths';
import type { Letter, LetterConfig } from '../../adapters/mail-letter.js';
import { composeLetter, greetingOf } from '../../adapters/mail-letter.js';
import type { DeletionCancelledBy } from './schema.js';

const moscowTime = new Intl.DateTimeFormat('ru-RU', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Europe/Moscow',
});

/** The web page the cancel link opens: it shows a button, which posts the token. */
export function cancelLink(config: LetterConfig, token: string): string {
  const url = new URL(PAGES.cancelDeletion, config.PUBLIC_URL);
  url.searchParams.set('token', token);
  return url.toString();
}

export function deletionScheduledLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; dueAt: Date; token: string },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'аккаунт будет удалён',
    greeting: greetingOf(input.firstName),
    paragraphs: [
      `Вы попросили удалить аккаунт. Он будет удалён ${moscowTime.format(input.dueAt)} (по московскому времени): исчезнут профиль, привязки, сеансы и журнал безопасности. Записи о платежах останутся, но без ваших имени и почты.`,
      'Все сеансы завершены. Чтобы отменить удаление, нажмите кнопку ниже или просто войдите в аккаунт до этого срока.',
    ],
    action: { label: 'Отменить удаление', url: cancelLink(config, input.token) },
    footer:
      'Если удалить аккаунт просили не вы, отмените удаление и смените пароль: кто-то знает его.',
  });
}

const CANCELLED_BY_TEXT: Record<DeletionCancelledBy, string> = {
  sign_in: 'Удаление аккаунта отменено: в аккаунт выполнен вход.',
  letter: 'Удаление аккаунта отменено по ссылке из письма.',
};

export function deletionCancelledLetter(
  config: LetterConfig,
  input: { to: string; firstName: string; cancelledBy: DeletionCancelledBy },
): Letter {
  return composeLetter(config, {
    to: input.to,
    subject: 'удаление аккаунта отменено',
    greeting: greetingOf(input.firstName),
    paragraphs: [CANCELLED_BY_TEXT[input.cancelledBy], 'Аккаунт и все его данные остаются.'],
    action: {
      label: 'Журнал безопасности',
      url: new URL(PAGES.securityLog, config.PUBLIC_URL).toString(),
    },
    footer: 'Если это были не вы, смените пароль и завершите чужие сеансы на странице устройств.',
  });
}
