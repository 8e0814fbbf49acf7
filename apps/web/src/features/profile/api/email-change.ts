import type { EmailChangeConfirmAnswer, EmailChangeStepAnswer } from '@portal/contracts/profile';
import { msApi } from '@/shared/api/http';

// The real e-mail change: code to the current address → new address → its code; only then the
// address changes (docs/decisions/0013-usernames-email-change-reset-sign-out.md).
const base = '/authms/api/Auth/email-change';
const options = { requiresAuth: true } as const;

export async function requestCurrentEmailCode(): Promise<EmailChangeStepAnswer> {
  const { data } = await msApi.post<EmailChangeStepAnswer>(
    `${base}/request-code`,
    undefined,
    options,
  );
  return data;
}

export async function verifyCurrentEmail(code: string): Promise<EmailChangeStepAnswer> {
  const { data } = await msApi.post<EmailChangeStepAnswer>(
    `${base}/verify-current`,
    { code },
    options,
  );
  return data;
}

export async function submitNewEmail(email: string): Promise<EmailChangeStepAnswer> {
  const { data } = await msApi.post<EmailChangeStepAnswer>(`${base}/new-email`, { email }, options);
  return data;
}

export async function confirmNewEmail(code: string): Promise<EmailChangeConfirmAnswer> {
  const { data } = await msApi.post<EmailChangeConfirmAnswer>(`${base}/confirm`, { code }, options);
  return data;
}
