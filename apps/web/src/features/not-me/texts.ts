import { LOGIN_PAUSED_RECOVERY } from '@portal/contracts/messages';

/** The words of /not-me, the page the «Это был не я» link of a sign-in alert opens. */
export const NOT_ME_TEXTS = {
  title: 'Это были не вы?',
  lead: 'Кто-то вошёл в ваш аккаунт с нового устройства. Если это были не вы, подтвердите это ниже.',
  whatHappens:
    'Мы завершим все сеансы аккаунта на всех устройствах — и чужие, и ваши — и отправим на вашу почту код, чтобы задать новый пароль.',
  confirm: 'Это был не я — завершить все сеансы',
  itWasMe: 'Это был я, ничего не делать',
  noToken: 'В ссылке нет кода. Откройте ссылку из письма или сообщения целиком.',
  resetInstead: LOGIN_PAUSED_RECOVERY,
} as const;
