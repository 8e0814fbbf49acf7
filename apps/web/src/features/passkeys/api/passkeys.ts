import type { MessageAnswer } from '@portal/contracts/common';
import type {
  Passkey,
  PasskeyCreationOptions,
  PasskeyListAnswer,
  PasskeyRegisterRequest,
} from '@portal/contracts/passkeys';
import { msApi } from '@/shared/api/http';

const PASSKEYS = '/authms/api/Auth/passkeys';
const auth = { requiresAuth: true };

export async function getPasskeys(): Promise<Passkey[]> {
  const { data } = await msApi.get<PasskeyListAnswer>(PASSKEYS, auth);
  return data.data;
}

/** Options for the browser's dialog; 403 `proof_required` without a fresh proof. */
export async function postRegistrationOptions(): Promise<PasskeyCreationOptions> {
  const { data } = await msApi.post<{ options: PasskeyCreationOptions }>(
    `${PASSKEYS}/registration/options`,
    undefined,
    auth,
  );
  return data.options;
}

export async function postRegistration(
  body: PasskeyRegisterRequest,
): Promise<{ message: string; passkey: Passkey }> {
  const { data } = await msApi.post<{ message: string; passkey: Passkey }>(
    `${PASSKEYS}/registration`,
    body,
    auth,
  );
  return data;
}

export async function patchPasskeyName(id: string, name: string): Promise<Passkey> {
  const { data } = await msApi.patch<Passkey>(`${PASSKEYS}/${id}`, { name }, auth);
  return data;
}

/** 403 `proof_required` without a fresh proof. */
export async function deletePasskey(id: string): Promise<MessageAnswer> {
  const { data } = await msApi.delete<MessageAnswer>(`${PASSKEYS}/${id}`, auth);
  return data;
}
