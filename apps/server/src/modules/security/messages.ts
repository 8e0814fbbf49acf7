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
  notMeDone:
    'Все сеансы аккаунта завершены. Мы отправили на почту код: задайте с ним новый пароль.',
  notMeLinkUsed: 'Эта ссылка уже использована: все сеансы тогда были завершены.',
  notMeLinkExpired:
    'Срок действия ссылки истёк. Если вы не входили в аккаунт, восстановите пароль и завершите чужие сеансы на странице устройств.',
  notMeLinkInvalid:
    'Ссылка недействительна. Проверьте, что она скопирована из письма или сообщения целиком.',
  signInAlertsOn: 'Оповещения о входе с нового устройства включены',
  signInAlertsOff: 'Оповещения о входе с нового устройства выключены',
} as const;
