// The accounts module's public entry: what other modules may use of it. Its plugin
// (plugin.ts) and its tables (schema.ts) are reached directly.

export {
  type AccountReference,
  AccountSearch,
  type AccountSearchHit,
  PARTIAL_MIN_LENGTH,
} from './account-search.js';
export { emailKey, loginKeys, normalizeUserName, userNameKey } from './identity.js';
export type { LockedBalances, UserRow } from './repository.js';
export {
  addToBalanceWith,
  deleteUser,
  eraseUserIdentity,
  findUserByEmailKey,
  findUserById,
  findUserByLogin,
  findUserByTelegramId,
  findUserByUserNameKey,
  findUserByYandexId,
  insertUser,
  isUserBlockedForSignIn,
  isUserErased,
  isUserNameKeyTaken,
  lockUserBalances,
  readBalances,
  setUserBlocked,
  unlinkUserTelegram,
  unlinkUserYandex,
  updateUser,
} from './repository.js';
