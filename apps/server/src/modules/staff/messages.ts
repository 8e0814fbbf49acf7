/** Texts only the staff module's answers carry (the contract's are in packages/contracts/src/staff.ts). */
export const STAFF_MESSAGES = {
  accountNotFound: 'Аккаунт не найден',
  letterNotFound: 'Письмо не найдено',
  roleChangedMeanwhile: 'Роль этого аккаунта только что изменили: обновите страницу',
  noRole: 'У аккаунта нет роли сотрудника',
  unlocked: 'Ожидание входа снято',
  counterReset: 'Счётчик неверных попыток обнулён (ожидания не было)',
  sessionsEnded: (count: number) => `Завершено сеансов: ${count}`,
  blocked: (count: number) => `Аккаунт заблокирован; завершено сеансов: ${count}`,
  unblocked: 'Блокировка снята',
  factorResetCodeSent: 'Код отправлен на почту клиента: попросите его назвать код',
  factorsReset: (wasAuthenticatorOn: boolean, passkeysRemoved: number) =>
    `Приложение-аутентификатор ${wasAuthenticatorOn ? 'выключено' : 'не было включено'}; ` +
    `удалено ключей доступа: ${passkeysRemoved}`,
  letterQueued: 'Письмо снова в очереди: оно уйдёт в течение нескольких секунд',
  roleGranted: 'Роль выдана',
  roleRevoked: 'Роль снята; сеансы сотрудника завершены',
} as const;
