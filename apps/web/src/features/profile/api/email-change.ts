import type { EmailChangeConfirmAnswer, EmailChangeStepAnswer } from '@portal/contracts/profile';
import { msApi } from '@/shared/api/http';

// The real e-mail change: code to the current address → new address → its code; only then the
// address changes (docs/decisions/0013-usernames-email-change-reset-sign-out.md).
const base = '/authms/api/Auth/email-change';
/** `signal`: the dialog closed meanwhile (`email-change-modal.tsx`). */
const options = (signal?: AbortSignal) => ({ requiresAuth: true, signal });

export async function requestCurrentEmailCode(
  signal?: AbortSignal,
): Promise<EmailChangeStepAnswer> {
  const { data } = await msApi.post<EmailChangeStepAnswer>(
    `${base}/request-code`,
    undefined,
    options(signal),
  );
  return data;
}

export async function verifyCurrentEmail(
  code: string,
  signal?: AbortSignal,
): Promise<EmailChangeStepAnswer> {
  const { data } = await msApi.post<EmailChangeStepAnswer>(
    `${base}/verify-current`,
    { code },
    options(signal),
  );
  return data;
}

export async function submitNewEmail(
  email: string,
  signal?: AbortSignal,
): Promise<EmailChangeStepAnswer> {
  const { data } = await msApi.post<EmailChangeStepAnswer>(
    `${base}/new-email`,
    { email },
    options(signal),
  );
  return data;
}

export async function confirmNewEmail(
  code: string,
  signal?: AbortSignal,
): Promise<EmailChangeConfirmAnswer> {
  const { data } = await msApi.post<EmailChangeConfirmAnswer>(
    `${base}/confirm`,
    { code },
    options(signal),
  );
  return data;
}
