import type { ProofAnswer, ProofRequest } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** Proves the session's owner: the current password, the authenticator's code or a mailed code. */
export async function postProof(body: ProofRequest): Promise<ProofAnswer> {
  const { data } = await msApi.post<ProofAnswer>('/authms/api/Auth/proof', body, {
    requiresAuth: true,
  });
  return data;
}
