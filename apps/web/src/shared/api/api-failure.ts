import type { PendingConfirmation } from '@portal/contracts/auth';
import type { ErrorAnswer } from '@portal/contracts/common';
import { type ErrorReason, isErrorReason } from '@portal/contracts/error-reasons';
import { REQUEST_FAILED, UNKNOWN_ERROR } from '@portal/contracts/messages';
import { HttpError } from './http';

/**
 * A refused call, reduced to what the screens decide on. The one place that reads a server error
 * (`{ message, errors?, reason? }` with its status and headers); each feature maps this to its own
 * texts. Plain data, so it can travel as a thunk's rejected value (an HttpError cannot: Redux
 * would drop its response).
 */
export type ApiFailure = {
  /** A call failed (answered or not); false for any other error (a bug, an answer of a wrong shape). */
  isRequestError: boolean;
  /** HTTP status; null when there was no answer (network down, refused locally). */
  status: number | null;
  /** The server's message, when it sent one. */
  message: string | null;
  /** Per-field messages of a 400 (or 409) answer. */
  errors: Record<string, string[]>;
  /** Why the server refused, when it says so in a way the client acts on. */
  reason: ErrorReason | null;
  /** Seconds from `Retry-After` of a 429 answer. */
  retryAfterSeconds: number | null;
  /** A login's 403 for an unconfirmed account: where its code went, when another may be asked. */
  confirmation: PendingConfirmation | null;
  /**
   * The generic toast text: with an answer, its message or 'Ошибка запроса'; without one (network
   * down, refused locally), the error's own message or 'Неизвестная ошибка'.
   */
  text: string;
};

export function toApiFailure(error: unknown): ApiFailure {
  const isRequestError = error instanceof HttpError;
  const response = isRequestError ? error.response : undefined;
  if (!response) {
    const text = error instanceof Error && error.message ? error.message : UNKNOWN_ERROR;
    return {
      isRequestError,
      status: null,
      message: null,
      errors: {},
      reason: null,
      retryAfterSeconds: null,
      confirmation: null,
      text,
    };
  }
  const data: Partial<Record<keyof ErrorAnswer | 'confirmation', unknown>> =
    typeof response.data === 'object' && response.data !== null ? response.data : {};
  const message = typeof data.message === 'string' && data.message.trim() ? data.message : null;
  const retryAfter = Number(response.headers?.['retry-after']);
  return {
    isRequestError,
    status: response.status,
    message,
    errors: fieldErrors(data.errors),
    reason: isErrorReason(data.reason) ? data.reason : null,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : null,
    confirmation: pendingConfirmation(data.confirmation),
    text: message ?? REQUEST_FAILED,
  };
}

function pendingConfirmation(value: unknown): PendingConfirmation | null {
  if (typeof value !== 'object' || value === null) return null;
  const { email, resendAfterSeconds } = value as Record<string, unknown>;
  if (typeof email !== 'string' || typeof resendAfterSeconds !== 'number') return null;
  return { email, resendAfterSeconds };
}

/** Each field's messages that are text; anything else in `errors` is left out. */
function fieldErrors(value: unknown): Record<string, string[]> {
  if (typeof value !== 'object' || value === null) return {};
  const result: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) {
      result[field] = messages.filter((item): item is string => typeof item === 'string');
    }
  }
  return result;
}

/**
 * A call that got no answer (the network is down, the answer never came) is told in the client's
 * own words, «Нет соединения…», whatever a screen shows for a refusal that came back; null for
 * an answered call. The screens whose answered refusals have texts of their own ask this first.
 */
export function noAnswerText(failure: ApiFailure): string | null {
  return failure.isRequestError && failure.status === null ? failure.text : null;
}

/**
 * The server refused a change of the account's factors until the session proves its owner again
 * (403 with `reason: 'proof_required'`): show the proof step, then repeat the call.
 */
export function isProofRequired(failure: ApiFailure): boolean {
  return failure.status === 403 && failure.reason === 'proof_required';
}

/**
 * A failed query's or mutation's error as `ApiFailure`: what `portalBaseQuery` returned, or, for
 * an error thrown elsewhere (RTK Query's SerializedError: a bug), `toApiFailure`'s reading of it.
 */
export function failureOf(error: unknown): ApiFailure {
  if (typeof error === 'object' && error !== null && 'isRequestError' in error && 'text' in error) {
    return error as ApiFailure;
  }
  return toApiFailure(error);
}
