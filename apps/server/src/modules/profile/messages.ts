import { EMAIL_UPDATED, USER_NOT_FOUND, USERNAME_TAKEN } from '@portal/contracts/messages';

/** The profile's server answers; the web app shows each as a toast. */
export const PROFILE_MESSAGES = {
  profileUpdated: 'Данные профиля обновлены',
  avatarUpdated: 'Аватар обновлён',
  avatarNotOurs: 'Загрузите изображение через форму профиля',
  userNotFound: USER_NOT_FOUND,
  userNameTaken: USERNAME_TAKEN,
  currentCodeSent: 'Код отправлен на текущую почту',
  currentConfirmed: 'Почта подтверждена. Укажите новую почту',
  newCodeSent: 'Код отправлен на новую почту',
  emailUpdated: EMAIL_UPDATED,
  emailSame: 'Это ваша текущая почта',
  emailTaken: 'Эта почта уже используется другим аккаунтом',
  currentNotConfirmed: 'Сначала подтвердите текущую почту кодом',
} as const;
