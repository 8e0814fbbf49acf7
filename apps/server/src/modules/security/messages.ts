import { CODE_SENT_TO_EMAIL } from '@portal/contracts/messages';

// Server answers of the account-security flows (ours: the product words none of them).
export const SECURITY_MESSAGES = {
  deviceSignedOut: 'Сеанс на устройстве завершён',
  deviceNotFound: 'Устройство не найдено',
  signedOutEverywhere: 'Вы вышли из всех активных сеансов',
  signedOutOthers: 'Вы вышли из всех сеансов, кроме текущего',
  resetCodeSent: 'Если эта почта зарегистрирована, мы отправили на неё код для сброса пароля',
  passwordReset: 'Пароль обновлён',
  changeCodeSent: CODE_SENT_TO_EMAIL,
  changeCodeRight: 'Код подтверждён',
  changeNeedsAuthenticator: 'Подтвердите смену пароля кодом из приложения-аутентификатора',
  passwordChanged: 'Пароль успешно изменён',
  oldPasswordWrong: 'Неверный текущий пароль',
  samePassword: 'Новый пароль должен отличаться от текущего',
} as const;
