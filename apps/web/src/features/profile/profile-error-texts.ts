import {
  PROFILE_UPDATE_FAILED,
  TOKEN_INVALID,
  UNKNOWN_ERROR_OCCURRED,
  USER_NOT_FOUND,
} from '@portal/contracts/messages';
import axios from 'axios';

function serverMessage(data: unknown): string | null {
  const message = (data as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.trim() ? message : null;
}

function fieldMessages(data: unknown): string[] {
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== 'object') return [];
  const messages = Object.values(errors).flatMap((value) =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [],
  );
  return [...new Set(messages)];
}

/**
 * Spec §8 "Profile update": 400 shows each message of `errors` (else 'Произошла неизвестная
 * ошибка'); 401 the server's message, else 'Недействительный токен'; 404 the server's message,
 * else 'Пользователь не найден'; any other failure 'Ошибка при обновлении профиля'. A 409 (a taken
 * nickname, DESIGN §2) carries `errors` like a 400 and is shown the same way.
 */
export function profileErrorTexts(error: unknown): string[] {
  const response = axios.isAxiosError(error) ? error.response : undefined;
  switch (response?.status) {
    case 400:
    case 409: {
      const messages = fieldMessages(response.data);
      if (messages.length > 0) return messages;
      return [
        response.status === 409
          ? (serverMessage(response.data) ?? PROFILE_UPDATE_FAILED)
          : UNKNOWN_ERROR_OCCURRED,
      ];
    }
    case 401:
      return [serverMessage(response.data) ?? TOKEN_INVALID];
    case 404:
      return [serverMessage(response.data) ?? USER_NOT_FOUND];
    default:
      return [PROFILE_UPDATE_FAILED];
  }
}
