import { errorText } from '@/shared/api/error-text';
import { isHttpError } from '@/shared/api/http-error';

/**
 * A refused call, reduced to what the auth screens decide on. Plain data, so it can travel as a
 * thunk's rejected value (an AxiosError cannot: Redux would drop its response).
 */
export type ApiFailure = {
  /** HTTP status; null when there was no answer (network down, refused locally). */
  status: number | null;
  /** The server's message, when it sent one. */
  message: string | null;
  /** Per-field messages of a 400 answer (DESIGN §2). */
  errors: Record<string, string[]>;
  /** Seconds from `Retry-After` of a 429 answer. */
  retryAfterSeconds: number | null;
  /** The generic toast text of spec §8 for this failure. */
  text: string;
};

export function toApiFailure(error: unknown): ApiFailure {
  const response = isHttpError(error) ? error.response : undefined;
  const data = (response?.data ?? {}) as { message?: unknown; errors?: unknown };
  const retryAfter = Number(response?.headers?.['retry-after']);
  return {
    status: response?.status ?? null,
    message: typeof data.message === 'string' && data.message.trim() ? data.message : null,
    errors: isFieldErrors(data.errors) ? data.errors : {},
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : null,
    text: errorText(error),
  };
}

function isFieldErrors(value: unknown): value is Record<string, string[]> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every(
      (messages) => Array.isArray(messages) && messages.every((item) => typeof item === 'string'),
    )
  );
}
