import type { ErrorReason } from '@portal/contracts/common';
import { AUTH_REQUIRED, NOT_FOUND } from '@portal/contracts/messages';

/** The one error type of the server: a code says what went wrong, the handler maps it to HTTP. */
export type ErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_many_requests'
  | 'unavailable';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  unavailable: 503,
};

export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    /** Russian text a person may see. */
    message: string,
    readonly details: {
      errors?: Record<string, string[]>;
      /** Seconds, sent as Retry-After with 429. */
      retryAfter?: number;
      /** What a client should do about it (the answer's `reason`). */
      reason?: ErrorReason;
      /** More fields of the answer, declared by the route's response schema for this status. */
      fields?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
    this.statusCode = STATUS_BY_CODE[code];
  }
}

export const unauthorized = (message = AUTH_REQUIRED) => new AppError('unauthorized', message);
export const notFound = (message = NOT_FOUND) => new AppError('not_found', message);
export const invalidInput = (message: string, errors?: Record<string, string[]>) =>
  new AppError('invalid_input', message, { errors });
