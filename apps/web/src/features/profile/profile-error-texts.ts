import {
  PROFILE_UPDATE_FAILED,
  TOKEN_INVALID,
  UNKNOWN_ERROR_OCCURRED,
  USER_NOT_FOUND,
} from '@portal/contracts/messages';
import { type ApiFailure, noAnswerText } from '@/shared/api/api-failure';

/**
 * The toasts of a refused profile update, when it names none of the form's fields (those show
 * under the fields, `my-data-modal.tsx`): a 400 shows each message of `errors` once (else
 * 'Произошла неизвестная ошибка'); 401 the server's message, else 'Недействительный токен'; 404 the
 * server's message, else 'Пользователь не найден'; no answer the client's own text («Нет
 * соединения…»); any other failure 'Ошибка при обновлении профиля'. A 409 (a taken nickname) carries `errors` like a 400 and is shown the same way.
 */
export function profileErrorTexts(failure: ApiFailure): string[] {
  switch (failure.status) {
    case 400:
    case 409: {
      const messages = [...new Set(Object.values(failure.errors).flat())];
      if (messages.length > 0) return messages;
      return [
        failure.status === 409
          ? (failure.message ?? PROFILE_UPDATE_FAILED)
          : UNKNOWN_ERROR_OCCURRED,
      ];
    }
    case 401:
      return [failure.message ?? TOKEN_INVALID];
    case 404:
      return [failure.message ?? USER_NOT_FOUND];
    default:
      // Anything but a call with no answer (a server error, a bug) is the spec's generic text.
      return [noAnswerText(failure) ?? PROFILE_UPDATE_FAILED];
  }
}
