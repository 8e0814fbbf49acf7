import type { ProofStatusAnswer } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** How this account can prove its owner, and until when the session is proven. */
export async function getProofStatus(signal?: AbortSignal): Promise<ProofStatusAnswer> {
  const { data } = await msApi.get<ProofStatusAnswer>('/authms/api/Auth/proof', {
    requiresAuth: true,
    signal,
  });
  return data;
}
