import { USER_NOT_FOUND } from '@portal/contracts/messages';

/** Texts of the Yandex ID sign-in (shown as a toast after the redirect). */
export const YANDEX_MESSAGES = {
  notConfigured: 'Вход через Яндекс ID не настроен',
  cancelled: 'Вход через Яндекс ID отменён',
  stale: 'Ссылка входа через Яндекс ID устарела. Попробуйте ещё раз',
  providerFailed: 'Не удалось получить данные Яндекс ID. Попробуйте позже',
  noEmail: 'Яндекс ID не передал почту: вход невозможен',
  emailTaken:
    'Аккаунт с этой почтой уже есть. Войдите в него и привяжите Яндекс ID в разделе «Личные данные»',
  yandexTaken: 'Этот Яндекс ID уже привязан к другому аккаунту',
  accountHasOtherYandex: 'К аккаунту уже привязан другой Яндекс ID',
  userGone: USER_NOT_FOUND,
  unlinked: 'Яндекс ID отвязан',
  notLinked: 'Яндекс ID не привязан к аккаунту',
  onlyWayIn:
    'Отвязать Яндекс ID нельзя: у аккаунта нет пароля, и через Яндекс ID вы в него входите. Сначала задайте пароль — на странице входа нажмите «Забыли пароль?», код придёт на вашу почту, — а затем отвяжите Яндекс ID.',
} as const;
