import { type CatalogueItem, catalogueItemSchema } from '@portal/contracts/services';
import { z } from 'zod';
import { msApi } from '@/shared/api/http';

const catalogueAnswerSchema = z.array(catalogueItemSchema);

/** The brand's service catalogue, configured on the server. */
export async function getCatalogue(signal?: AbortSignal): Promise<CatalogueItem[]> {
  const { data } = await msApi.get<unknown>('/serversms/api/Servers/catalogue', { signal });
  return catalogueAnswerSchema.parse(data);
}
