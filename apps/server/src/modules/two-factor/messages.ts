// Server answers of the authenticator-app flows (ours: the product words none of them).
export const TWO_FACTOR_MESSAGES = {
  enabled: 'Аутентификатор подключён',
  disabled: 'Аутентификатор отключён',
  alreadyEnabled: 'Аутентификатор уже подключён',
  notPending: 'Сначала получите QR-код для подключения',
  notEnabled: 'Аутентификатор не подключён',
  recoveryCodesRenewed: 'Резервные коды обновлены',
} as const;
