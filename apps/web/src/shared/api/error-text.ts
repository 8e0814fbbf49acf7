import axios from 'axios';

export const REQUEST_FAILED_TEXT = 'Ошибка запроса';
export const UNKNOWN_ERROR_TEXT = 'Неизвестная ошибка';

function serverMessage(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'message' in data) {
    const { message } = data as { message: unknown };
    if (typeof message === 'string' && message.trim()) return message;
  }
  return undefined;
}

/**
 * The generic handler of spec §8: with an answer from the server, its message or 'Ошибка запроса';
 * without one (network down, refused locally), the error's own message or 'Неизвестная ошибка'.
 */
export function errorText(error: unknown): string {
  if (axios.isAxiosError(error) && error.response) {
    return serverMessage(error.response.data) ?? REQUEST_FAILED_TEXT;
  }
  if (error instanceof Error && error.message) return error.message;
  return UNKNOWN_ERROR_TEXT;
}
