import type { ProofCodeAnswer } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** Mails a code that proves the owner to the account's confirmed address. */
export async function postProofCode(): Promise<ProofCodeAnswer> {
  const { data } = await msApi.post<ProofCodeAnswer>(
    '/authms/api/Auth/proof/email-code',
    undefined,
    {
      requiresAuth: true,
    },
  );
  return data;
}
