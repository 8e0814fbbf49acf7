import type { LoginSuccessAnswer } from '@portal/contracts/auth';
import type { PasskeyRequestOptions, PasskeySignInRequest } from '@portal/contracts/passkeys';
import { msApi } from '@/shared/api/http';

const PASSKEYS = '/authms/api/Auth/passkeys';

/** A fresh single-use challenge for a sign-in by a discoverable passkey. */
export async function postPasskeySignInOptions(): Promise<PasskeyRequestOptions> {
  const { data } = await msApi.post<{ options: PasskeyRequestOptions }>(
    `${PASSKEYS}/sign-in/options`,
  );
  return data.options;
}

/** The signed challenge → a session, like a login's. */
export async function postPasskeySignIn(body: PasskeySignInRequest): Promise<LoginSuccessAnswer> {
  const { data } = await msApi.post<LoginSuccessAnswer>(`${PASSKEYS}/sign-in`, body, {
    ownsSession: true,
  });
  return data;
}
