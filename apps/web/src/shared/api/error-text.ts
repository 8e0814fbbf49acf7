import { REQUEST_FAILED, UNKNOWN_ERROR } from '@portal/contracts/messages';
import { isHttpError } from './http-error';

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
  if (isHttpError(error) && error.response) {
    return serverMessage(error.response.data) ?? REQUEST_FAILED;
  }
  if (error instanceof Error && error.message) return error.message;
  return UNKNOWN_ERROR;
}
