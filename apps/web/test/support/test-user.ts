import type { User } from '@portal/contracts/auth';

/** A signed-in user for unit tests: an account with a password, no second factor, no links. */
export const testUser: User = {
  id: 'u-1',
  email: 'a@example.com',
  phoneNamber: null,
  userName: 'player',
  firstName: 'Иван',
  middleName: null,
  lastName: 'Петров',
  avatarUrl: null,
  isTwoFactorEnabled: false,
  yandexId: null,
  telegramId: null,
  balance: 0,
  balanceStars: 0,
  signInAlertsByEmail: true,
  hasPassword: true,
};
