import type { ErrorAnswer } from '@portal/contracts/common';
import { isHttpError } from './http-error';

/**
 * The server refused a change of the account's factors until the session proves its owner again
 * (403 with `reason: 'proof_required'`): show the proof step, then repeat the call.
 */
export function isProofRequired(error: unknown): boolean {
  if (!isHttpError<Partial<ErrorAnswer>>(error) || error.response?.status !== 403) return false;
  return error.response.data?.reason === 'proof_required';
}
