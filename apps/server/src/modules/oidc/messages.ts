/** The provider's answers to the web app's sign-in bridge (routes.ts), shown as they come. */
export const OIDC_MESSAGES = {
  interactionGone: 'Вход на сайт устарел. Вернитесь на сайт и начните вход заново',
  signInAgain: 'Сайт просит войти заново. Войдите ещё раз',
  unconfirmed: 'Подтвердите почту, чтобы входить на сайты',
  deletionScheduled:
    'Аккаунт ждёт удаления. Отмените удаление в личном кабинете, чтобы входить на сайты',
} as const;
