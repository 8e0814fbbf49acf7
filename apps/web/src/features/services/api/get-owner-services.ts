import { type OwnerService, ownerServicesAnswerSchema } from '@portal/contracts/services';
import { msApi } from '@/shared/api/http';

/** The caller's purchased services (`GET /serversms/api/Servers/owner/services`). */
export async function getOwnerServices(signal?: AbortSignal): Promise<OwnerService[]> {
  const { data } = await msApi.get<unknown>('/serversms/api/Servers/owner/services', {
    signal,
    requiresAuth: true,
  });
  return ownerServicesAnswerSchema.parse(data);
}
