import type { AxiosError } from 'axios';

/**
 * `axios.isAxiosError` without importing axios, which loads with the first request (see
 * `http.ts`): the same test axios itself makes.
 */
export function isHttpError<T = unknown>(error: unknown): error is AxiosError<T> {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { isAxiosError?: unknown }).isAxiosError === true
  );
}
