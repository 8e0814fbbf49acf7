import { ACCOUNT_DELETION_DAYS } from '@portal/contracts/account-data';

// The texts of «Мои данные и аккаунт» and of the page the cancel letter opens.

const dateTime = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeStyle: 'short' });

export const ACCOUNT_DATA_TEXTS = {
  sectionTitle: 'Мои данные и аккаунт',
  exportTitle: 'Скачать мои данные',
  exportHint:
    'Файл JSON: профиль, привязки, устройства, журнал безопасности, платежи и услуги. Без паролей и секретов.',
  exportButton: 'Скачать',
  exportProofTitle: 'Скачать мои данные',
  exportDone: 'Файл с данными скачан',
  exportFailed: 'Не удалось скачать данные. Попробуйте ещё раз.',
  deleteTitle: 'Удалить аккаунт',
  deleteHint: `Удаление через ${ACCOUNT_DELETION_DAYS} дней; до этого срока его можно отменить.`,
  deleteButton: 'Удалить аккаунт',
  confirmTitle: 'Удалить аккаунт?',
  confirmParagraphs: (points: number) => [
    `Аккаунт будет удалён через ${ACCOUNT_DELETION_DAYS} дней: профиль, привязки Telegram и Яндекс ID, устройства, журнал безопасности. Записи о платежах останутся без ваших имени и почты.`,
    points > 0
      ? `Баллы на балансе (${points}) сгорят: их нельзя вернуть.`
      : 'Баллы, если они появятся, сгорят вместе с аккаунтом.',
    'Сразу после подтверждения завершатся все сеансы, включая этот. На почту придёт письмо со ссылкой для отмены; войти в аккаунт до срока — тоже значит отменить удаление.',
  ],
  confirmButton: 'Удалить через 7 дней',
  cancel: 'Отмена',
  scheduledToast: (dueAt: string) =>
    `Аккаунт будет удалён ${dateTime.format(new Date(dueAt))}. Чтобы отменить, войдите в аккаунт или откройте ссылку из письма.`,
  cancelDeletion: 'Отменить удаление',
  cancelledBySignIn: 'Удаление аккаунта отменено: вы вошли в аккаунт. Мы отправили об этом письмо.',
  understood: 'Понятно',
  cancelPageTitle: 'Отмена удаления аккаунта',
  cancelPageLead: 'Нажмите кнопку, чтобы отменить удаление. Аккаунт и все его данные останутся.',
  cancelPageMissing:
    'В ссылке нет кода отмены. Откройте ссылку из письма целиком или просто войдите в аккаунт — это тоже отменяет удаление.',
  toSignIn: 'Войти в аккаунт',
} as const;
