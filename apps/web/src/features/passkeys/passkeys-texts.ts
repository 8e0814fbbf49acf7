import { formatRussianDate } from '@/shared/lib/format-date';

// The section's own words (the server's answers and the name rules live in
// @portal/contracts/passkeys).
export const PASSKEY_TEXTS = {
  title: 'Ключи доступа',
  lead: 'Вход без пароля: отпечатком пальца, лицом или PIN-кодом устройства.',
  empty: 'Ключей доступа пока нет',
  unsupported: 'Этот браузер не поддерживает ключи доступа',
  add: 'Добавить ключ',
  addTitle: 'Новый ключ доступа',
  addLead: 'Придумайте название, затем подтвердите создание ключа в окне браузера.',
  create: 'Создать ключ',
  nameLabel: 'Название',
  namePlaceholder: 'Например, «Ноутбук»',
  defaultName: 'Ключ доступа',
  rename: 'Переименовать',
  renameTitle: 'Название ключа',
  save: 'Сохранить',
  remove: 'Удалить',
  removeTitle: 'Удалить ключ доступа?',
  cancel: 'Отмена',
  neverUsed: 'Ещё не использовался',
} as const;

/** «Удалить ключ «Ноутбук»? Войти с ним больше не получится.» */
export function removeLead(name: string): string {
  return `Ключ «${name}» перестанет открывать аккаунт. Удалить его на самом устройстве можно в настройках устройства.`;
}

/** «Добавлен 5 марта 2026 г. · Использован 6 марта 2026 г.» */
export function passkeyDates(createdAt: string, lastUsedAt: string | null): string {
  const used = lastUsedAt
    ? `Использован ${formatRussianDate(lastUsedAt)}`
    : PASSKEY_TEXTS.neverUsed;
  return `Добавлен ${formatRussianDate(createdAt)} · ${used}`;
}
