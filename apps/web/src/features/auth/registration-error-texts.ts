import {
  PROFILE_UPDATE_FAILED,
  TOKEN_INVALID,
  UNKNOWN_ERROR_OCCURRED,
  USER_NOT_FOUND,
} from '@portal/contracts/messages';
import type { ApiFailure } from '@/shared/api/api-failure';

/**
 * The toasts of a refused registration: a 400 shows every message of `errors` (else 'Произошла
 * неизвестная ошибка'); 401 and 404 the server's message or their fixed text. Other failures show
 * the server's message when there is one (a taken username is a 409 with a clear message), else
 * the catalogue's 'Ошибка при обновлении профиля'.
 */
export function registrationErrorTexts(failure: ApiFailure): string[] {
  switch (failure.status) {
    case 400: {
      const messages = [...new Set(Object.values(failure.errors).flat())];
      if (messages.length > 0) return messages;
      return [failure.message ?? UNKNOWN_ERROR_OCCURRED];
    }
    case 401:
      return [failure.message ?? TOKEN_INVALID];
    case 404:
      return [failure.message ?? USER_NOT_FOUND];
    case null:
      return [failure.text];
    default:
      return [failure.message ?? PROFILE_UPDATE_FAILED];
  }
}
