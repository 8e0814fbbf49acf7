/** Passkeys' texts and the name's length, without zod (`passkeys.ts` has the schemas). */

export const PASSKEY_NAME_MAX_LENGTH = 64;

export const PASSKEY_MESSAGES = {
  nameRequired: 'Введите название ключа',
  nameTooLong: `Название — не длиннее ${PASSKEY_NAME_MAX_LENGTH} символов`,
  nameForbiddenCharacters: 'Название содержит недопустимые символы',
  added: 'Ключ доступа добавлен',
  renamed: 'Ключ доступа переименован',
  removed: 'Ключ доступа удалён',
  notFound: 'Ключ доступа не найден',
  alreadyAdded: 'Этот ключ доступа уже добавлен',
  registrationFailed: 'Не удалось добавить ключ доступа. Попробуйте ещё раз',
  signInFailed: 'Не удалось войти с ключом доступа. Попробуйте ещё раз или войдите по паролю',
  secondFactorWrong: 'Ключ доступа не подошёл',
} as const;
